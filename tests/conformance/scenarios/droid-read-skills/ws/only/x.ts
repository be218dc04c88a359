// only/x.ts
