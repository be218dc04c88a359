export const web = 2;
