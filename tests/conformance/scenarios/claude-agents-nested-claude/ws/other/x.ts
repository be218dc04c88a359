export const x = 2;
