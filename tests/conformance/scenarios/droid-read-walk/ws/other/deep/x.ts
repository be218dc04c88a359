// other/deep/x.ts
