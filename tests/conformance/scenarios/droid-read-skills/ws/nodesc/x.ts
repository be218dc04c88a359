// nodesc/x.ts
