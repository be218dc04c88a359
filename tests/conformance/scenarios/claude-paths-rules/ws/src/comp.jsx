export const v = 1; // src/comp.jsx
