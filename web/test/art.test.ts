import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ART_MARKS } from '../src/art';

// The tile art lives in index.html (so that it paints with the server-drawn
// first page): its style and the patterns it paints with.
const html = readFileSync(resolve(import.meta.dirname, '../index.html'), 'utf8');
const style = /<style id="bastide-art">([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
const defs = /<svg class="art-defs"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
// The renderer's own style: the classes its tiles are drawn with.
const renderer = readFileSync(resolve(import.meta.dirname, '../../crates/render/src/draw.rs'), 'utf8');

describe('the tile art', () => {
  it('paints only with patterns defined once, each with a flat colour to fall back on', () => {
    const used = [...style.matchAll(/url\(#([\w-]+)\)\s*(#[0-9a-f]{6})?/gi)];
    expect(used.length).toBeGreaterThan(4);
    for (const [, id, fallback] of used) {
      expect(defs.match(new RegExp(`<pattern id="${id ?? ''}"`, 'g'))?.length, id).toBe(1);
      expect(fallback, `${id ?? ''} has a fallback colour`).toBeDefined();
    }
  });

  it("styles the renderer's classes (a renamed class would silently lose its art)", () => {
    const classes = new Set([...style.matchAll(/\.([a-z][a-z-]*)\b/g)].map((m) => m[1] ?? ''));
    for (const c of ['field', 'city', 'wall', 'road', 'roadedge', 'river', 'riveredge', 'pond', 'mwall', 'mroof', 'shield']) expect(classes.has(c), c).toBe(true);
    // The art's own marks (src/art.ts adorn) are styled too, and are not the renderer's.
    for (const c of ART_MARKS) expect(classes.has(c), c).toBe(true);
    const own = new Set<string>(ART_MARKS);
    for (const c of classes) if (!own.has(c)) expect(renderer.includes(`.${c}{`), `.${c} is one of the renderer's classes`).toBe(true);
  });

  it('draws the Winter Edition under snow, and reaches only into the tiles (no selector outside a symbol)', () => {
    expect(style).toMatch(/\[data-tile\^="winter\/"\] \.field \{ fill: url\(#art-snow\)/);
    // Ancestors outside a <use>'s symbol never match: every rule starts inside the tile.
    for (const rule of style.split('\n').map((l) => l.trim()).filter((l) => l.includes('{'))) expect(rule).toMatch(/^(\[data-tile[^\]]*\]|g >) /);
  });

  it('can be switched off before the first paint (the schematic tiles)', () => {
    expect(html).toMatch(/getItem\('bastide\.schematic'\) === '1'\) document\.getElementById\('bastide-art'\)\.media = 'not all'/);
  });
});
