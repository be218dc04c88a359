export const v = 1; // pkg/lib/b.ts
