// Abbey & Mayor's barns at the table: where each stands (the view's
// `barns` part, notation.md: a cell, a corner of it, the owner's seat) and
// the grid point that corner is. Pure, tested in test/picks.test.ts.

import { isObject } from './json';
import { CORNERS, type Corner, type View } from './protocol';

/** A barn on the board: named by a cell and a corner of it, with its owner. */
export interface BarnInfo { x: number; y: number; corner: Corner; seat: number }

/** Where a corner of a cell lies, in cells from the cell's north-west corner. */
export const CORNER_OFFSET: Record<Corner, [number, number]> = { NW: [0, 0], NE: [1, 0], SE: [1, 1], SW: [0, 1] };

/** The barns in a view (none without Abbey & Mayor; malformed entries are left out). */
export function barnsOf(view: View): BarnInfo[] {
  const list = view.extras.barns;
  if (!Array.isArray(list)) return [];
  const out: BarnInfo[] = [];
  for (const b of list) {
    if (!isObject(b) || typeof b.x !== 'number' || typeof b.y !== 'number' || typeof b.seat !== 'number') continue;
    if (!(CORNERS as readonly unknown[]).includes(b.corner)) continue;
    out.push({ x: b.x, y: b.y, corner: b.corner as Corner, seat: b.seat });
  }
  return out;
}

/** The grid point a barn stands on, in cell units. */
export function barnPoint(b: { x: number; y: number; corner: Corner }): { x: number; y: number } {
  const [dx, dy] = CORNER_OFFSET[b.corner];
  return { x: b.x + dx, y: b.y + dy };
}
