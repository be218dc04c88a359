// src/a.ts
