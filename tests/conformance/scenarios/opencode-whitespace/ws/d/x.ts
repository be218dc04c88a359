export const x = 4;
