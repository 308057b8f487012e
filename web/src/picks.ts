// The expansion actions played on the board: which places the board
// lights for the legal actions (marks), and what a click on one of them
// does (choose). Pure functions of the server's legal list and the
// player's half-made choice (a pick), tested in test/picks.test.ts; the
// board only draws the marks and reports which one was clicked.

import type { Action, Chip, Corner, FeatureRef } from './protocol';
import { BY_COORDINATES, cornerWords, describeAction, featureAt } from './words';
import type { Where } from './where';

export type Flea = Extract<Action, { kind: 'flea' }>;
export type Flee = Extract<Action, { kind: 'flee' }>;
export type Trade = Extract<Action, { kind: 'trade' }>;
export type Ginger = Extract<Action, { kind: 'gingerbread' }>;
export type DragonMove = Extract<Action, { kind: 'dragon' }>;
export type BarnAt = Extract<Action, { kind: 'barn' }>;
export type Floor = Extract<Action, { kind: 'tower' }>;
export type Capture = Extract<Action, { kind: 'capture' }>;

/** A tile on the board: its cell, and its corner for a half tile. */
export interface CellRef { x: number; y: number; half: Corner | null }

/** A choice begun on the board: the follower that is to flee, the tile a flea is to move to, the Chumak square to trade on. */
export type Pick =
  | { kind: 'flee'; from: FeatureRef }
  | { kind: 'flea'; to: CellRef }
  | { kind: 'trade'; x: number; y: number };

/** A place the board lights, with what clicking it means. */
export type Mark =
  /** A tile that may take a flea. */
  | { kind: 'flea-to'; cell: CellRef; label: string }
  /** A flea on the board that may move to the picked tile. */
  | { kind: 'flea-from'; cell: CellRef; action: Flea; label: string }
  /** A follower of this player that may flee (selected: the picked one). */
  | { kind: 'flee-from'; ref: FeatureRef; selected: boolean; label: string }
  /** Where the picked follower may flee to. */
  | { kind: 'flee-to'; ref: FeatureRef; action: Flee; label: string }
  /** A Chumak square one may trade on (selected: its chip choices are open). */
  | { kind: 'trade-at'; x: number; y: number; selected: boolean; label: string }
  /** One trade offered at the picked square: chips of one colour. */
  | { kind: 'trade-chips'; x: number; y: number; colour: string; text: string; action: Trade; label: string }
  /** A city the gingerbread man may move to: the city's tiles are lit and a click on any of them moves him there. */
  | { kind: 'ginger-city'; ref: FeatureRef; action: Ginger; label: string }
  /** A tile the dragon may enter (Princess & Dragon): a click moves it there. */
  | { kind: 'dragon-to'; cell: CellRef; action: DragonMove; label: string }
  /** A corner where the barn may go (Abbey & Mayor): a click puts it there. */
  | { kind: 'barn-at'; x: number; y: number; corner: Corner; action: BarnAt; label: string }
  /** A foundation or open tower that may take a floor (The Tower): its tile lit, a click puts the floor there. */
  | { kind: 'tower-at'; x: number; y: number; action: Floor; label: string }
  /** A follower in the new tower's reach (The Tower, capture step): a ring round it, a click captures it. */
  | { kind: 'capture-at'; ref: FeatureRef; action: Capture; label: string };

const sameCell = (a: CellRef, b: CellRef): boolean => a.x === b.x && a.y === b.y && (a.half ?? null) === (b.half ?? null);
const sameRef = (a: FeatureRef, b: FeatureRef): boolean => a.x === b.x && a.y === b.y && a.place === b.place && (a.half ?? null) === (b.half ?? null);
const fleaTo = (a: Flea): CellRef => ({ x: a.x, y: a.y, half: a.half });


/** The chips of one trade: their colour (one per trade) and values ("1+2"). */
export function chipText(chips: Chip[]): { colour: string; text: string } {
  return { colour: chips[0]?.colour ?? '', text: chips.map((c) => c.value).join('+') };
}

/** Points a trade scores at once (map-chips-ukraine.md: 1, 3, 6 or 10 for 1–4 chips). */
export function tradePoints(n: number): number {
  return [0, 1, 3, 6, 10][n] ?? 0;
}

function distinct<T>(items: T[], same: (a: T, b: T) => boolean): T[] {
  const out: T[] = [];
  for (const i of items) if (!out.some((o) => same(o, i))) out.push(i);
  return out;
}

/**
 * What the board lights for `legal` with `pick` begun: with nothing
 * picked, every tile a flea may go to, every follower that may flee and
 * every square one may trade on; with a pick, only what completes it.
 */
export function boardMarks(legal: Action[], pick: Pick | null, where: Where = BY_COORDINATES, eats: (c: CellRef) => string = () => '', players: string[] = []): Mark[] {
  const cellWords = (c: CellRef): string => where.tile(c.x, c.y, c.half);
  const refWords = (r: FeatureRef): string => featureAt(r, where);
  const names = (x: number, y: number): string => where.square(x, y);
  const fleas = legal.filter((a): a is Flea => a.kind === 'flea');
  const flees = legal.filter((a): a is Flee => a.kind === 'flee');
  const trades = legal.filter((a): a is Trade => a.kind === 'trade');
  const gingers = legal.filter((a): a is Ginger => a.kind === 'gingerbread');
  const dragons = legal.filter((a): a is DragonMove => a.kind === 'dragon');
  const barns = legal.filter((a): a is BarnAt => a.kind === 'barn');
  const floors = legal.filter((a): a is Floor => a.kind === 'tower');
  const captures = legal.filter((a): a is Capture => a.kind === 'capture');
  if (pick?.kind === 'flee') {
    const to = flees.filter((a) => sameRef(a.from, pick.from));
    return [
      { kind: 'flee-from', ref: pick.from, selected: true, label: `Your follower on ${refWords(pick.from)}, chosen to flee (click again to cancel)` },
      ...to.map((a): Mark => ({ kind: 'flee-to', ref: a.to, action: a, label: `Flee to ${refWords(a.to)}` })),
    ];
  }
  if (pick?.kind === 'flea') {
    return fleas.filter((a) => sameCell(fleaTo(a), pick.to)).map((a): Mark => {
      const from = a.from ? { x: a.from.x, y: a.from.y, half: a.from.half } : pick.to;
      return { kind: 'flea-from', cell: from, action: a, label: a.from ? `Move the flea on ${cellWords(from)} to ${cellWords(pick.to)}` : `Spread a flea from the supply to ${cellWords(pick.to)}` };
    });
  }
  if (pick?.kind === 'trade') {
    const here = trades.filter((a) => a.x === pick.x && a.y === pick.y);
    const name = names(pick.x, pick.y);
    return [
      { kind: 'trade-at', x: pick.x, y: pick.y, selected: true, label: `Trade on ${name} (click again to close)` },
      ...here.map((a): Mark => {
        const { colour, text } = chipText(a.chips);
        return { kind: 'trade-chips', x: a.x, y: a.y, colour, text, action: a, label: `Trade ${colour} ${a.chips.map((c) => c.value).join(' and ')} on ${name}: ${tradePoints(a.chips.length)} point${a.chips.length === 1 ? '' : 's'}` };
      }),
    ];
  }
  return [
    ...distinct(fleas.map(fleaTo), sameCell).map((cell): Mark => ({ kind: 'flea-to', cell, label: `Spread a flea to ${cellWords(cell)}` })),
    ...distinct(flees.map((a) => a.from), sameRef).map((ref): Mark => ({ kind: 'flee-from', ref, selected: false, label: `Your follower on ${refWords(ref)} may flee: choose it, then where to` })),
    ...distinct(trades.map((a) => ({ x: a.x, y: a.y })), (a, b) => a.x === b.x && a.y === b.y).map((p): Mark => ({ kind: 'trade-at', x: p.x, y: p.y, selected: false, label: `Trade chips on ${names(p.x, p.y)}` })),
    ...gingers.map((a): Mark => ({ kind: 'ginger-city', ref: a.at, action: a, label: `Move the gingerbread man to the city at ${refWords(a.at)}` })),
    ...dragons.map((a): Mark => {
      const cell = { x: a.x, y: a.y, half: a.half };
      const cost = eats(cell);
      return { kind: 'dragon-to', cell, action: a, label: `Move the dragon to ${cellWords(cell)}${cost ? `: it ${cost}` : ''}` };
    }),
    ...barns.map((a): Mark => ({ kind: 'barn-at', x: a.x, y: a.y, corner: a.corner, action: a, label: `Put your barn on the ${cornerWords(a.corner)} corner of ${cellWords({ x: a.x, y: a.y, half: a.half })}` })),
    ...floors.map((a): Mark => ({ kind: 'tower-at', x: a.x, y: a.y, action: a, label: `Put a floor on the tower of ${cellWords({ x: a.x, y: a.y, half: null })}` })),
    ...captures.map((a): Mark => ({ kind: 'capture-at', ref: a.at, action: a, label: describeAction(a, where, players) })),
  ];
}

/**
 * A click on `mark`: the action to send, or the pick that follows (null:
 * nothing picked any more). A tile that only one flea can reach spreads it
 * at once; several (fleas that may move there) light those fleas.
 */
export function choose(legal: Action[], pick: Pick | null, mark: Mark): { pick: Pick | null; send: Action | null } {
  switch (mark.kind) {
    case 'flea-to': {
      const here = legal.filter((a): a is Flea => a.kind === 'flea' && sameCell(fleaTo(a), mark.cell));
      if (here.length === 1 && here[0]) return { pick: null, send: here[0] };
      return here.length === 0 ? { pick: null, send: null } : { pick: { kind: 'flea', to: mark.cell }, send: null };
    }
    case 'flee-from':
      return mark.selected ? { pick: null, send: null } : { pick: { kind: 'flee', from: mark.ref }, send: null };
    case 'trade-at':
      return mark.selected ? { pick: null, send: null } : { pick: { kind: 'trade', x: mark.x, y: mark.y }, send: null };
    case 'flea-from': case 'flee-to': case 'trade-chips': case 'ginger-city': case 'dragon-to': case 'barn-at': case 'tower-at': case 'capture-at':
      return legal.includes(mark.action) ? { pick: null, send: mark.action } : { pick, send: null };
  }
}

/** A pick that the legal actions still allow, or null (a new turn, a refused move). */
export function keepPick(legal: Action[], pick: Pick | null): Pick | null {
  if (!pick) return null;
  return boardMarks(legal, pick).some((m) => m.kind === 'flee-to' || m.kind === 'flea-from' || m.kind === 'trade-chips') ? pick : null;
}

/** The actions the board offers through marks or spots (the rest are placements, followers, and buttons): the fairy's and the princess's are spots by the follower they name, the wagon's moves spots on its targets, the Tower's floors and captures marks. */
export function onBoard(a: Action): boolean {
  return a.kind === 'flea' || a.kind === 'flee' || a.kind === 'trade' || a.kind === 'gingerbread' || a.kind === 'dragon' || a.kind === 'fairy' || a.kind === 'princess' || a.kind === 'barn' || a.kind === 'wagon' || a.kind === 'tower' || a.kind === 'capture';
}

/** A city the gingerbread man may go to, with the cells of its tiles (the server's feature lookup; none until it answers). */
export interface CityArea { mark: Extract<Mark, { kind: 'ginger-city' }>; cells: [number, number][] }

/** The key of a feature reference (a city's cells are kept by it). */
export function refKey(r: FeatureRef): string {
  return `${r.x},${r.y},${r.place},${r.half ?? ''}`;
}

/**
 * The city a click at world point `w` (cell units: 1 per tile) chooses:
 * the one lit city whose tiles hold that cell; where two lit cities share
 * the tile, the one whose follower spot (`spot`, in cell units) is
 * nearest to the click. Null when the click is on no lit city.
 */
export function cityAt(cities: CityArea[], w: { x: number; y: number }, spot: (r: FeatureRef) => { x: number; y: number } | null): CityArea | null {
  const cx = Math.floor(w.x);
  const cy = Math.floor(w.y);
  const here = cities.filter((c) => c.cells.some(([x, y]) => x === cx && y === cy) || (c.mark.ref.x === cx && c.mark.ref.y === cy));
  if (here.length <= 1) return here[0] ?? null;
  const dist = (c: CityArea): number => {
    const p = spot(c.mark.ref);
    return p ? Math.hypot(p.x - w.x, p.y - w.y) : Number.POSITIVE_INFINITY;
  };
  return here.reduce((best, c) => (dist(c) < dist(best) ? c : best));
}

/** The draft of Half-and-half: the halves one may take, once each, in the order offered. */
export function draftTiles(legal: Action[]): { tile: string; action: Extract<Action, { kind: 'draft' }> }[] {
  const out: { tile: string; action: Extract<Action, { kind: 'draft' }> }[] = [];
  for (const a of legal) if (a.kind === 'draft' && !out.some((o) => o.tile === a.tile)) out.push({ tile: a.tile, action: a });
  return out;
}

/** The triangle of a half tile's cell with its right angle at `corner`, as polygon points in world units. */
export function halfPolygon(x: number, y: number, corner: Corner, cell: number): [number, number][] {
  const [l, t, r, b] = [x * cell, y * cell, (x + 1) * cell, (y + 1) * cell];
  switch (corner) {
    case 'NW': return [[l, t], [r, t], [l, b]];
    case 'NE': return [[l, t], [r, t], [r, b]];
    case 'SE': return [[r, t], [r, b], [l, b]];
    case 'SW': return [[l, t], [r, b], [l, b]];
  }
}
