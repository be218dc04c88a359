proj dist
