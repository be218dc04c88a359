// sub/x.ts
