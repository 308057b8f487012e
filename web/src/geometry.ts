// Board coordinates: cells (x east, y south, notation.md), world units
// (CELL per cell, the tile pictures' units) and screen pixels via a camera.

export const CELL = 100;

export interface Pt { x: number; y: number }
/** Screen = (world - origin) * scale. */
export interface Camera { x: number; y: number; scale: number }

export const MIN_SCALE = 0.15;
export const MAX_SCALE = 4;

export function worldToScreen(c: Camera, p: Pt): Pt {
  return { x: (p.x - c.x) * c.scale, y: (p.y - c.y) * c.scale };
}

export function screenToWorld(c: Camera, p: Pt): Pt {
  return { x: p.x / c.scale + c.x, y: p.y / c.scale + c.y };
}

/** The cell under a world point. */
export function cellAt(p: Pt): Pt {
  return { x: Math.floor(p.x / CELL), y: Math.floor(p.y / CELL) };
}

/** Zooms by `factor` keeping the world point under `screen` in place. */
export function zoomAt(c: Camera, screen: Pt, factor: number): Camera {
  const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, c.scale * factor));
  const w = screenToWorld(c, screen);
  return { x: w.x - screen.x / scale, y: w.y - screen.y / scale, scale };
}

/**
 * One step of a two-finger gesture: the world point that lay under the
 * fingers' middle `from` lies under their middle now, and the scale
 * changes by how far apart they moved (pinch to zoom, both fingers
 * dragged to pan, at once).
 */
export function pinchStep(c: Camera, from: { mid: Pt; d: number }, to: { mid: Pt; d: number }): Camera {
  if (from.d <= 0 || to.d <= 0) return c;
  const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, c.scale * (to.d / from.d)));
  const w = screenToWorld(c, from.mid);
  return { x: w.x - to.mid.x / scale, y: w.y - to.mid.y / scale, scale };
}

export function pan(c: Camera, dxScreen: number, dyScreen: number): Camera {
  return { ...c, x: c.x - dxScreen / c.scale, y: c.y - dyScreen / c.scale };
}

/** A camera showing every cell of `cells` (plus a margin) in a viewport. */
/** `minScale`: never smaller than that (a finger's targets stay big enough; the board is then panned to see the rest). */
export function fit(cells: Pt[], width: number, height: number, minScale = MIN_SCALE): Camera {
  if (cells.length === 0 || width <= 0 || height <= 0) return { x: -width / 2, y: -height / 2, scale: 1 };
  const xs = cells.map((p) => p.x);
  const ys = cells.map((p) => p.y);
  const minX = (Math.min(...xs) - 1) * CELL;
  const maxX = (Math.max(...xs) + 2) * CELL;
  const minY = (Math.min(...ys) - 1) * CELL;
  const maxY = (Math.max(...ys) + 2) * CELL;
  const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, minScale, Math.min(width / (maxX - minX), height / (maxY - minY), 1.2)));
  return { x: (minX + maxX) / 2 - width / (2 * scale), y: (minY + maxY) / 2 - height / (2 * scale), scale };
}

/** A rectangle of world units. */
export interface Box { x: number; y: number; width: number; height: number }

/** The world box covering every cell of `cells` with `margin` cells around (null when there are none). */
export function cellBox(cells: Pt[], margin: number): Box | null {
  if (cells.length === 0) return null;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of cells) {
    if (p.x < minX) minX = p.x;
    if (p.x > maxX) maxX = p.x;
    if (p.y < minY) minY = p.y;
    if (p.y > maxY) maxY = p.y;
  }
  return { x: (minX - margin) * CELL, y: (minY - margin) * CELL, width: (maxX - minX + 1 + 2 * margin) * CELL, height: (maxY - minY + 1 + 2 * margin) * CELL };
}

/** The smallest box holding both (`a` when `b` lies inside it, so a caller can skip the update). */
export function unionBox(a: Box | null, b: Box | null): Box | null {
  if (!a) return b;
  if (!b) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  const right = Math.max(a.x + a.width, b.x + b.width);
  const bottom = Math.max(a.y + a.height, b.y + b.height);
  if (x === a.x && y === a.y && right === a.x + a.width && bottom === a.y + a.height) return a;
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * The CSS transform (with `transform-origin: 0 0`) of an element drawing
 * the world box `box` at one world unit per CSS pixel, so that it shows
 * what camera `c` sees: screen = (world - camera) * scale.
 */
export function cameraTransform(c: Camera, box: Box): string {
  return `translate(${(box.x - c.x) * c.scale}px, ${(box.y - c.y) * c.scale}px) scale(${c.scale})`;
}

/** The next rotation clockwise. */
export function nextRotation<R extends number>(r: R, all: readonly R[]): R {
  const i = all.indexOf(r);
  return all[(i + 1) % all.length] ?? r;
}
