export const path = 'src/index.ts';
