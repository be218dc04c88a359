export const value = 1;
