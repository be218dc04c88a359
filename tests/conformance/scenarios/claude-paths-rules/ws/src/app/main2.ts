export const v = 1; // src/app/main2.ts
