export const z = 2;
