export const w = 4;
