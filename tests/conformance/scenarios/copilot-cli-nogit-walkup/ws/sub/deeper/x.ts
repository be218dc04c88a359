// sub/deeper/x.ts
