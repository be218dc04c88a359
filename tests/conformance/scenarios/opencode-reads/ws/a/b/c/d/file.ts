export const f = 4;
