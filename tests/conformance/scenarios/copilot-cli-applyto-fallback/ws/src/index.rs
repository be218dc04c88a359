export const z = 1;
