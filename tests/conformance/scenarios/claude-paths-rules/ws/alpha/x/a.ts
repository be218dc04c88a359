export const v = 1; // alpha/x/a.ts
