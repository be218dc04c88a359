export const n = 1;
