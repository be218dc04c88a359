// web
