// a/sib/x.ts
