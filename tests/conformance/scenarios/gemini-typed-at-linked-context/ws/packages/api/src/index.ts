export const path = 'packages/api/src/index.ts';
