import { defineConfig } from 'vitest/config';

// `npm run dev` / `npx vite preview` serve the client and pass the API (and
// its WebSockets) to a running `bastide serve` at BASTIDE_URL: the client
// can be changed and measured without building the server again.
const api = { '/api': { target: process.env.BASTIDE_URL ?? 'http://127.0.0.1:8080', ws: true } };

export default defineConfig({
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0 },
  server: { proxy: api },
  preview: { proxy: api },
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});
