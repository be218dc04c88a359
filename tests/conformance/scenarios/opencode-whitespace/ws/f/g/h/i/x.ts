export const x = 5;
