// The tile art's switch: the board's tiles are the renderer's drawings
// painted with the textures and colours of index.html's `#bastide-art`
// style (grass, roofs, water, snow for the Winter Edition, stone walls,
// road verges); "schematic" turns that style off, leaving the renderer's
// plain flat colours (easier to read for some, and for the colour-blind
// the renderer's contrasts). The choice is kept in this browser.

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
