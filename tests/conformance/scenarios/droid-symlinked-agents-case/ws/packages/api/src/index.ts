// packages/api/src/index.ts
export const path = 'packages/api/src/index.ts';
