o
