export const e = 5;
