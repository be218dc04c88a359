export const v = 1; // lib/a.ts
