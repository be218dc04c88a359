// packages/web/app.ts
