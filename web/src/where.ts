// Where something is on the board, in words a person follows instead of
// coordinates: "the start tile", "the tile just placed", "the tile with a
// city and a road, 2 tiles north-west of the start tile", and for an
// empty cell "east of the start tile". For the labels of what the board
// lights (screen readers, tooltips) and the list of legal moves.

import type { Corner, Piece } from './protocol';
import { cornerWords, tileContents, tileWords } from './words';

export interface Where {
  /** A placed tile (its half, for a half tile). */
  tile(x: number, y: number, half?: Corner | null): string;
  /** An empty cell, by a placed tile next to it: "north of the start tile". */
  cell(x: number, y: number): string;
  /** A Chumak square (Map Chips): "the Chumak square Kyiv". */
  square(x: number, y: number): string;
}

const COMPASS8 = ['east', 'south-east', 'south', 'south-west', 'west', 'north-west', 'north', 'north-east'];

/** The direction from one cell to another in words (y grows southwards): "north-west". */
export function directionWords(dx: number, dy: number): string {
  if (dx === 0 && dy === 0) return 'here';
  const sector = Math.round(Math.atan2(dy, dx) / (Math.PI / 4));
  return COMPASS8[(sector + 8) % 8] ?? 'here';
}

/** How far, in tiles, one steps along the longer way ("next to" for one). */
function distance(dx: number, dy: number): number {
  return Math.max(Math.abs(dx), Math.abs(dy));
}

/**
 * Places on `board` in words. `kinds` gives what a placed tile shows (its
 * features' kinds, none while its picture has not come); `square` names a
 * Chumak square.
 */
export function whereOn(board: Piece[], kinds: (p: Piece) => string[] = () => [], square: (x: number, y: number) => string = () => 'a Chumak square'): Where {
  const start = board[0];
  const last = board[board.length - 1];
  const at = (x: number, y: number, half: Corner | null = null): Piece | undefined => {
    const here = board.filter((p) => p.x === x && p.y === y);
    return here.find((p) => (p.half ?? null) === half) ?? here[0];
  };
  const tile = (x: number, y: number, half: Corner | null = null): string => {
    const p = at(x, y, half);
    const halfText = half ? `the ${cornerWords(half)} half of ` : '';
    if (p && p === last && board.length > 1) return `${halfText}the tile just placed`;
    if (p && p === start) return `${halfText}the start tile`;
    if (!start) return `${halfText}a tile`;
    const shows = p ? kinds(p) : [];
    const what = shows.length > 0 ? `the tile with ${tileContents(shows)}` : p ? `the tile (${tileWords(p.tile)})` : 'the empty square';
    const dx = x - start.x;
    const dy = y - start.y;
    const n = distance(dx, dy);
    return `${halfText}${what}, ${n === 1 ? '' : `${n} tiles `}${directionWords(dx, dy)} of the start tile`;
  };
  return {
    tile,
    cell(x, y) {
      // The neighbour a person finds first: the start tile, else the tile just placed, else the newest.
      const sides: [number, number][] = [[0, 1], [-1, 0], [0, -1], [1, 0]];
      const next = sides.flatMap(([dx, dy]) => {
        const p = at(x + dx, y + dy);
        return p ? [{ p, dx, dy }] : [];
      });
      if (next.length === 0) return start ? `${directionWords(x - start.x, y - start.y)} of the start tile, away from the tiles` : 'on the board';
      const rank = (p: Piece): number => (p === start ? -2 * board.length : p === last ? -board.length : -board.indexOf(p));
      const best = next.reduce((a, b) => (rank(b.p) < rank(a.p) ? b : a));
      return `${directionWords(-best.dx, -best.dy)} of ${tile(best.p.x, best.p.y, best.p.half)}`;
    },
    square,
  };
}

export { BY_COORDINATES } from './words';
