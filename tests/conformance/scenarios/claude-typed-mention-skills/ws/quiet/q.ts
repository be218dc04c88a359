// quiet
