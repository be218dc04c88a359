// a/b/c/x.ts
