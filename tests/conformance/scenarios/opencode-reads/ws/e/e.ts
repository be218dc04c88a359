export const e = 6;
