export const o = 5;
