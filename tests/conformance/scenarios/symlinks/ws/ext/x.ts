export const x = 3;
