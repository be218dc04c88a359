// dmi/x.ts
