export const v = 1; // test/unit/t.ts
