Z upper
