export const path = 'packages/api/util.ts';
