export const l = 1;
