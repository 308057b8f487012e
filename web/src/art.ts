// The tile art's switch: the board's tiles are the renderer's drawings
// painted with the textures and colours of index.html's `#bastide-art`
// style (grass, roofs, water, snow for the Winter Edition, stone walls,
// road verges); "schematic" turns that style off, leaving the renderer's
// plain flat colours (easier to read for some, and for the colour-blind
// the renderer's contrasts). The choice is kept in this browser.
//
// The art also adds marks of its own to each tile drawing (`adorn`): a
// crenellated crest along every city wall, and a pennant on a pole beside
// every coat of arms (the catalog's `arms`, which the renderer draws as a
// shield). They are hidden by a presentation attribute, which the art's
// style overrides, so that the schematic tiles (and a tile picture made
// without the art) stay as the renderer drew them.

const KEY = 'bastide.schematic';

function artStyle(): HTMLStyleElement | null {
  const s = document.getElementById('bastide-art');
  return s instanceof HTMLStyleElement ? s : null;
}

/** Whether the board shows the plain schematic tiles (this browser's choice). */
export function isSchematic(): boolean {
  try { return localStorage.getItem(KEY) === '1'; } catch { return false; }
}

/** Shows the plain schematic tiles (`true`) or the tile art, and remembers the choice. */
export function setSchematic(on: boolean): void {
  try { if (on) localStorage.setItem(KEY, '1'); else localStorage.removeItem(KEY); } catch { /* not kept */ }
  applyArt();
}

/** Switches the art style on or off as this browser chose (index.html does it before the first paint too). */
export function applyArt(): void {
  const s = artStyle();
  if (s) s.media = isSchematic() ? 'not all' : 'all';
  document.documentElement.classList.toggle('schematic', isSchematic());
}

const NS = 'http://www.w3.org/2000/svg';

/** The classes of the art's own marks (styled in index.html's `#bastide-art`, not the renderer's). */
export const ART_MARKS = ['battlement', 'banner', 'banner-pole'] as const;
const [BATTLEMENT, BANNER, POLE] = ART_MARKS;

/** A hidden SVG element of the art's own (`display="none"` until the art's style shows it). */
function mark(name: string, attrs: Record<string, string>): Element {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.setAttribute('display', 'none');
  return e;
}

/**
 * Adds the art's marks to one tile drawing (a `<symbol>`, drawn once per
 * tile kind and rotation: every copy on the board is a `<use>` of it, so
 * the marks cost once per kind, not per tile): a battlement over each city
 * wall (the same path, its crest dashed), and a pennant on a pole behind
 * each shield. Marks already added are not added again.
 */
export function adorn(symbol: Element): void {
  if (symbol.hasAttribute('data-adorned')) return;
  symbol.setAttribute('data-adorned', '');
  for (const wall of symbol.querySelectorAll('path.wall')) {
    wall.after(mark('path', { class: BATTLEMENT, d: wall.getAttribute('d') ?? '' }));
  }
  // The shield is drawn upright around 0,0 of its group (-7..7 wide, -8..9 high): the pole rises from its right side.
  for (const shield of symbol.querySelectorAll('path.shield')) {
    shield.before(mark('path', { class: POLE, d: 'M6,6 V-21' }), mark('path', { class: BANNER, d: 'M6,-21 H19 L15,-17 L19,-13 H6 Z' }));
  }
}
