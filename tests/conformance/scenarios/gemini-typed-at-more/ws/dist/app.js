dist app
