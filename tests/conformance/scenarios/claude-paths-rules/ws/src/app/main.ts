export const v = 1; // src/app/main.ts
