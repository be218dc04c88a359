// packages/api/util.ts
export const path = 'packages/api/util.ts';
