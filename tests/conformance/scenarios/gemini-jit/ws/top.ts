export const top = 0;
