sub b
