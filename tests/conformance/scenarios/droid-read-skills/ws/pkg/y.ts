// pkg/y.ts
