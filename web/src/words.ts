// Tiles, turns and hands in words, for the panel, the list of legal
// actions and screen readers (instead of raw ids such as `base/R, 90°`).

import { capitalise, figureName, type Action, type Chip, type ChipHand, type Corner, type Hand } from './protocol';
import { setWords } from './sets';

/** Whether a tile id names a half tile (Half-and-half). */
export function isHalf(id: string): boolean {
  return id.startsWith('halfsies');
}

/** A tile in words: "tile R of the base game", "half tile A of Half-and-half 1". */
export function tileWords(id: string): string {
  const i = id.indexOf('/');
  if (i < 0) return `tile ${id}`;
  const set = id.slice(0, i);
  const letter = id.slice(i + 1);
  return `${isHalf(id) ? 'half tile' : 'tile'} ${letter} of ${setWords(set)}`;
}

/** A rotation in words. */
export function rotationWords(r: number): string {
  switch (r) {
    case 0: return 'not turned';
    case 90: return 'turned a quarter right';
    case 180: return 'turned upside down';
    case 270: return 'turned a quarter left';
    default: return `turned ${r}°`;
  }
}

/** A half tile's corner (where its right angle is) in words: `SW` "south-west". */
export function cornerWords(c: string): string {
  const w = { NW: 'north-west', NE: 'north-east', SW: 'south-west', SE: 'south-east' }[c];
  return w ?? c;
}

/** A seat's kind in words, for the panel and the status line: "person", "greedy bot", "look-ahead bot (2000 tries)". */
export function seatKindWords(kind: string): string {
  if (kind === 'human') return 'person';
  const m = /^mcts:(\d+)$/.exec(kind);
  if (m) return `look-ahead bot (${m[1] ?? ''} tries)`;
  if (kind === 'mcts') return 'look-ahead bot';
  return /^[a-z]+$/.test(kind) ? `${kind} bot` : kind;
}

/** A game's status in words ("playing" is said by whose turn it is). */
export function statusWords(status: string): string {
  switch (status) {
    case 'open': return 'Waiting for players';
    case 'finished': return 'Game over';
    case 'resigned': return 'Game over (resigned)';
    default: return status.charAt(0).toUpperCase() + status.slice(1);
  }
}

/** An action this client has no words for: its name and fields in words ("volcano: x 1, y 2"), not JSON. */
export function otherWords(name: string, body: unknown): string {
  const said = (v: unknown): string => (v === null || v === undefined ? 'none' : typeof v === 'object' ? (Array.isArray(v) ? v.map(said).join(', ') : Object.entries(v).map(([k, x]) => `${k.replace(/_/g, ' ')} ${said(x)}`).join(', ')) : typeof v === 'string' ? v : JSON.stringify(v));
  const fields = body && typeof body === 'object' && Object.keys(body).length > 0 ? `: ${said(body)}` : '';
  const n = name.replace(/_/g, ' ');
  return `${n.charAt(0).toUpperCase()}${n.slice(1)}${fields}`;
}

/** How many places a tile fits in, in words. */
export function fitWords(n: number): string {
  return n === 0 ? 'fits nowhere' : `fits in ${n} place${n === 1 ? '' : 's'}`;
}

/** The line under the tile to place: "Tile R of the base game, turned a quarter right: fits in 1 place". */
export function tileLine(id: string, rotation: number, fits: number): string {
  const t = tileWords(id);
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}, ${rotationWords(rotation)}: ${fitWords(fits)}`;
}

/** A hand of halves in words, as the seat panel says it ("2 halves", "no halves"). */
export function halvesWords(h: Hand): string {
  const n = 'hidden' in h ? h.hidden : h.tiles.length;
  return n === 0 ? 'no halves' : `${n} ${n === 1 ? 'half' : 'halves'}`;
}

/** Chips by colour, in the order the rules name them: `[['purple', [1, 2]], …]`. */
export function chipsByColour(chips: Chip[]): [string, number[]][] {
  const order = ['purple', 'blue', 'orange'];
  const colours = [...new Set(chips.map((c) => c.colour))].sort((a, b) => {
    const [i, j] = [order.indexOf(a), order.indexOf(b)];
    return (i < 0 ? 99 : i) - (j < 0 ? 99 : j) || a.localeCompare(b);
  });
  return colours.map((c) => [c, chips.filter((x) => x.colour === c).map((x) => x.value).sort((a, b) => a - b)]);
}

/** A hand of chips in words: one's own by colour ("purple 1, 2; orange 2"), another's only how many. */
export function chipsWords(h: ChipHand): string {
  if ('hidden' in h) return h.hidden === 0 ? 'no chips' : `${h.hidden} chip${h.hidden === 1 ? '' : 's'}`;
  if (h.chips.length === 0) return 'no chips';
  return chipsByColour(h.chips).map(([c, vs]) => `${c} ${vs.join(', ')}`).join('; ');
}

const COMPASS: Record<string, string> = { N: 'north', E: 'east', S: 'south', W: 'west' };

/** A place of a tile in words: `N` "north", `ESE` "east-south-east", `C` "centre", a half's long side `H`, `H1`, `H2`. */
export function placeWords(place: string): string {
  if (place === 'C') return 'centre';
  if (place === 'H') return 'long side';
  if (place === 'H1' || place === 'H2') return `long side (${place === 'H1' ? 'first' : 'second'} part)`;
  const parts = [...place].map((c) => COMPASS[c]);
  return parts.every((x) => x !== undefined) && parts.length > 0 ? parts.join('-') : place;
}

/** A feature of a placed tile in words: "the north of (1, 0)", "the east of (2, 1), NW half". */
export function featureWords(r: { x: number; y: number; place: string; half: Corner | null }): string {
  return `the ${placeWords(r.place)} of (${r.x}, ${r.y})${r.half ? `, ${cornerWords(r.half)} half` : ''}`;
}

/** The action in words, for buttons, the log and screen readers. */
export function describeAction(a: Action): string {
  switch (a.kind) {
    case 'place': return `Place ${tileWords(a.tile)} at (${a.x}, ${a.y}), ${rotationWords(a.rotation)}${a.half ? `, in the ${cornerWords(a.half)} half` : ''}`;
    case 'follower': return `${capitalise(figureName(a.figure))} on ${featureWords(a.at)}`;
    case 'draw': return 'Draw a tile';
    case 'pass': return 'Pass';
    case 'gingerbread': return `Move the gingerbread man to the city at ${featureWords(a.at)}`;
    case 'flea': {
      const to = `the tile at (${a.x}, ${a.y})${a.half ? `, ${cornerWords(a.half)} half` : ''}`;
      return a.from ? `Move the flea on the tile at (${a.from.x}, ${a.from.y}) to ${to}` : `Spread a flea to ${to}`;
    }
    case 'flee': return `Flee from ${featureWords(a.from)} to ${featureWords(a.to)}`;
    case 'trade': return `Trade ${a.chips[0]?.colour ?? ''} ${a.chips.map((c) => c.value).join(' and ')} on the Chumak square at (${a.x}, ${a.y})`;
    case 'draft': return `Take ${tileWords(a.tile)}`;
    case 'other': return otherWords(a.name, a.body);
  }
}
