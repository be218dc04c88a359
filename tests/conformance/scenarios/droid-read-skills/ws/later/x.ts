// later/x.ts
