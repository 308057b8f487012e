import { defineConfig } from 'vitest/config';

export default defineConfig({
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0 },
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});
