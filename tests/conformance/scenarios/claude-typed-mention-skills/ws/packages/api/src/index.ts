// packages/api/src/index.ts
