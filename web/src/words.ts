// Tiles, turns and hands in words, for the panel, the list of legal
// actions and screen readers (instead of raw ids such as `base/R, 90°`).

import { capitalise, figureName, type Action, type Chip, type ChipHand, type Corner, type Hand } from './protocol';
import { setInfo, setWords } from './sets';
import type { JsonObject } from './json';
import type { Where } from './where';

/** Whether a tile id names a half tile (Half-and-half). */
export function isHalf(id: string): boolean {
  return id.startsWith('halfsies');
}

/** The abbey's tile id (Abbey & Mayor): a tile held in hand, one per player. */
export const ABBEY = 'abbey-mayor/abbey';

/** Whether a tile id names a tile a player holds (a half, the abbey) rather than one drawn. */
export function isHeld(id: string): boolean {
  return isHalf(id) || id === ABBEY;
}

/**
 * A tile in words: "tile R of the base game", "half tile A of
 * Half-and-half 1" (the letters of the rule books); a tile without such a
 * letter (the Winter edition's animals) is "a tile of the Winter Edition",
 * never its catalogue id.
 */
export function tileWords(id: string): string {
  const i = id.indexOf('/');
  if (i < 0) return 'a tile';
  const set = id.slice(0, i);
  const letter = id.slice(i + 1);
  if (id === ABBEY) return `the abbey of ${setWords(set)}`;
  const kind = isHalf(id) ? 'half tile' : 'tile';
  return /^[A-Za-z]{1,2}\d?$/.test(letter) ? `${kind} ${letter} of ${setWords(set)}` : `a ${kind} of ${setWords(set)}`;
}

const COUNT = ['no', 'one', 'two', 'three', 'four', 'five', 'six'];

/**
 * What a tile shows, from the kinds of its features (its layout's follower
 * spots): "a city, two roads and three fields".
 */
export function tileContents(kinds: string[]): string {
  const order = ['city', 'road', 'monastery', 'field'];
  const counts = new Map<string, number>();
  for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
  const plural = (k: string): string => (k === 'city' ? 'cities' : k === 'monastery' ? 'monasteries' : `${k}s`);
  const names = [...counts.keys()].sort((a, b) => (order.indexOf(a) + 99) % 99 - (order.indexOf(b) + 99) % 99 || a.localeCompare(b));
  const parts = names.map((k) => {
    const n = counts.get(k) ?? 0;
    return n === 1 ? `a ${k}` : `${COUNT[n] ?? String(n)} ${plural(k)}`;
  });
  if (parts.length === 0) return 'nothing';
  return parts.length === 1 ? parts[0] ?? '' : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`;
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

/**
 * The line under the tile to place: "Tile R of the base game, turned a
 * quarter right: fits in 1 place"; with what it shows (`kinds`, its
 * features) when that is known: "A tile of the Winter Edition with a city,
 * a road and two fields, not turned: fits in 2 places".
 */
export function tileLine(id: string, rotation: number, fits: number, kinds: string[] = []): string {
  const t = tileWords(id);
  const shows = kinds.length > 0 ? ` with ${tileContents(kinds)}` : '';
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${shows}, ${rotationWords(rotation)}: ${fitWords(fits)}`;
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

/** A place of a tile in words: `N` "north", `ESE` "east-south-east", `C` "centre", a half's long side `H`, `H1`, `H2`, an inner field `I1`, `I2`. */
export function placeWords(place: string): string {
  if (place === 'C') return 'centre';
  if (place === 'I1') return 'inner field';
  if (place === 'I2') return 'second inner field';
  if (place === 'tower') return 'top of the tower';
  if (place === 'H') return 'long side';
  if (place === 'H1' || place === 'H2') return `long side (${place === 'H1' ? 'first' : 'second'} part)`;
  const parts = [...place].map((c) => COMPASS[c]);
  return parts.every((x) => x !== undefined) && parts.length > 0 ? parts.join('-') : place;
}

/** A feature of a placed tile in words: "the north of (1, 0)", "the east of (2, 1), NW half". */
export function featureWords(r: { x: number; y: number; place: string; half: Corner | null }): string {
  return `the ${placeWords(r.place)} of (${r.x}, ${r.y})${r.half ? `, ${cornerWords(r.half)} half` : ''}`;
}

/**
 * A move in the log, without coordinates (a person finds a feature by
 * clicking it, not by its cell): "Place tile R of the base game, turned a
 * quarter right", "Follower on the north of its tile".
 */
export function moveWords(a: Action, players: string[] = []): string {
  const on = (r: { place: string }): string => `the ${placeWords(r.place)} of its tile`;
  switch (a.kind) {
    case 'place': return `Place ${tileWords(a.tile)}, ${rotationWords(a.rotation)}${a.half ? `, in the ${cornerWords(a.half)} half` : ''}`;
    case 'follower': return `${capitalise(figureName(a.figure))} on ${on(a.at)}`;
    case 'gingerbread': return 'Move the gingerbread man to another city';
    case 'flea': return a.from ? 'Move a flea to another tile' : 'Spread a flea to a tile';
    case 'flee': return `Flee from ${on(a.from)} to the ${placeWords(a.to.place)} of a tile`;
    case 'trade': return `Trade ${a.chips[0]?.colour ?? ''} ${a.chips.map((c) => c.value).join(' and ')} on a Chumak square`;
    case 'dragon': return 'Move the dragon one tile';
    case 'fairy': return `Move the fairy next to the follower on ${on(a.at)}`;
    case 'wagon': return `Move the wagon to ${on(a.at)}`;
    case 'princess': return `The princess sends home ${seatWords(a.seat, players)}'s ${figureName(a.figure)} on ${on(a.at)}`;
    case 'barn': return `Barn on the ${cornerWords(a.corner)} corner of its tile`;
    case 'tower': return 'A floor on a tower';
    case 'capture': return `Capture ${seatWords(a.seat, players)}'s ${figureName(a.figure)} on ${on(a.at)}${exchangeWords(a.exchange)}`;
    case 'ransom': return `Pay 3 points to ${seatWords(a.seat, players)} for the ${figureName(a.figure)} held`;
    default: return describeAction(a);
  }
}

/** The Tower: which of one's own followers the prisoner exchange brings back, where the capture names it. */
function exchangeWords(exchange: string | null): string {
  return exchange ? `, taking back your ${figureName(exchange === 'normal' ? null : exchange)}` : '';
}

/** A seat by its player's name, or where no names are at hand "player 2" (seats count from 1 for people). */
export function seatWords(seat: number, players: string[] = []): string {
  return players[seat] ?? `player ${seat + 1}`;
}

/** Places by their coordinates (where no board is known: a test, a record without its view). */
export const BY_COORDINATES: Where = {
  tile: (x, y, half) => `the tile at (${x}, ${y})${half ? `, its ${cornerWords(half)} half` : ''}`,
  cell: (x, y) => `at (${x}, ${y})`,
  square: () => 'a Chumak square',
};

/** A feature of a placed tile in words, where it is: "the north of the start tile". */
export function featureAt(r: { x: number; y: number; place: string; half: Corner | null }, where: Where = BY_COORDINATES): string {
  return where === BY_COORDINATES ? featureWords(r) : `the ${placeWords(r.place)} of ${where.tile(r.x, r.y, r.half)}`;
}

/**
 * The action in words, for buttons, the list of legal moves and screen
 * readers; `where` says places in words ("east of the start tile"), by
 * coordinates without it.
 */
export function describeAction(a: Action, where: Where = BY_COORDINATES, players: string[] = []): string {
  switch (a.kind) {
    case 'place': return `Place ${tileWords(a.tile)} ${where.cell(a.x, a.y)}, ${rotationWords(a.rotation)}${a.half ? `, in the ${cornerWords(a.half)} half` : ''}`;
    case 'follower': return `${capitalise(figureName(a.figure))} on ${featureAt(a.at, where)}`;
    case 'draw': return 'Draw a tile';
    case 'pass': return 'Pass';
    case 'gingerbread': return `Move the gingerbread man to the city at ${featureAt(a.at, where)}`;
    case 'flea': {
      const to = where.tile(a.x, a.y, a.half);
      return a.from ? `Move the flea on ${where.tile(a.from.x, a.from.y, a.from.half)} to ${to}` : `Spread a flea to ${to}`;
    }
    case 'flee': return `Flee from ${featureAt(a.from, where)} to ${featureAt(a.to, where)}`;
    case 'trade': return `Trade ${a.chips[0]?.colour ?? ''} ${a.chips.map((c) => c.value).join(' and ')} on ${where === BY_COORDINATES ? `the Chumak square at (${a.x}, ${a.y})` : where.square(a.x, a.y)}`;
    case 'draft': return `Take ${tileWords(a.tile)}`;
    case 'dragon': return `Move the dragon to ${where.tile(a.x, a.y, a.half)}`;
    case 'fairy': return `Move the fairy next to your follower on ${featureAt(a.at, where)}`;
    case 'wagon': return `Move the wagon to ${featureAt(a.at, where)}`;
    case 'princess': return `The princess sends home ${seatWords(a.seat, players)}'s ${figureName(a.figure)} on ${featureAt(a.at, where)}`;
    case 'barn': return `Barn on the ${cornerWords(a.corner)} corner of ${where.tile(a.x, a.y, a.half)}`;
    case 'tower': return `A floor on the tower of ${where.tile(a.x, a.y, null)}`;
    case 'capture': return `Capture ${seatWords(a.seat, players)}'s ${figureName(a.figure)} on ${featureAt(a.at, where)}${exchangeWords(a.exchange)}`;
    case 'ransom': return `Pay 3 points to ${seatWords(a.seat, players)} to take back your ${figureName(a.figure)}`;
    case 'other': return otherWords(a.name, a.body);
  }
}

/**
 * A game's name, as a person tells games apart: its players and its sets
 * ("RED vs BLUE · Base game + The Plague"), never its id.
 */
export function gameName(players: string[], config: JsonObject): string {
  const base = typeof config.base === 'string' ? config.base : 'base';
  const exps = Array.isArray(config.expansions) ? config.expansions.filter((e): e is string => typeof e === 'string') : [];
  const sets = [base, ...exps].map((id) => setInfo(id)?.name ?? id).join(' + ');
  return `${players.join(' vs ')} · ${sets}`;
}
