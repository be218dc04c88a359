// dup/x.ts
