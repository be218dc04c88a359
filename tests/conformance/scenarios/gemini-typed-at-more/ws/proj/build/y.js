proj build
