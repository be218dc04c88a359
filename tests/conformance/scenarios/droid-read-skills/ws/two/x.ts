// two/x.ts
