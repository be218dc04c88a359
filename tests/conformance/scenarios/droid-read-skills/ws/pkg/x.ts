// pkg/x.ts
