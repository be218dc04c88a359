// inner file
