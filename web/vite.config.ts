import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

// `npm run dev` / `npx vite preview` serve the client and pass the API (and
// its WebSockets) to a running `bastide serve` at BASTIDE_URL: the client
// can be changed and measured without building the server again.
const api = { '/api': { target: process.env.BASTIDE_URL ?? 'http://127.0.0.1:8080', ws: true } };

/**
 * Puts the built script and style into `index.html` itself: a page is one
 * request, and the client starts as soon as the page is parsed instead of
 * after two more round trips (docs/performance.md, "Browser client").
 */
function inlineBundle(): Plugin {
  return {
    name: 'bastide-inline-bundle',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const page = bundle['index.html'];
      if (!page || page.type !== 'asset' || typeof page.source !== 'string') return;
      let html = page.source;
      for (const [name, file] of Object.entries(bundle)) {
        const ref = new RegExp(`<script type="module" crossorigin src="/${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"></script>`);
        if (file.type === 'chunk' && ref.test(html)) {
          // A "</script" inside the code would end the element early.
          const code = file.code.replace(/<\/script/gi, '<\\/script');
          html = html.replace(ref, () => `<script type="module">${code}</script>`);
          Reflect.deleteProperty(bundle, name);
        }
        const css = new RegExp(`<link rel="stylesheet" crossorigin href="/${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}">`);
        if (file.type === 'asset' && name.endsWith('.css') && css.test(html)) {
          html = html.replace(css, () => `<style>${String(file.source).replace(/<\/style/gi, '<\\/style')}</style>`);
          Reflect.deleteProperty(bundle, name);
        }
      }
      page.source = html;
    },
  };
}

export default defineConfig({
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0 },
  plugins: [inlineBundle()],
  server: { proxy: api },
  preview: { proxy: api },
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});
