// bad/x.ts
