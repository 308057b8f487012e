// The Princess & the Dragon at the table: where the dragon and the fairy
// stand (the view's `dragon` and `fairy` parts, notation.md), whose move
// of the dragon it is, what each tile it may enter would cost, and its
// events in words. Pure, tested in test/dragon.test.ts.

import { isObject } from './json';
import { BY_COORDINATES, featureAt } from './words';
import type { Where } from './where';
import { CORNERS, figureName, type Action, type Corner, type FeatureRef, type PlacedFollower, type ScoreEvent, type View } from './protocol';

/** Events of no points the log still shows: a figure the dragon ate, a knight the princess sent home. */
export const FIGURE_EVENTS = ['eaten', 'princess'];

/** Moves in one flight of the dragon, whatever the number of players (princess-dragon.md §3). */
export const DRAGON_MOVES = 6;

/** A tile on the board: its cell, and its corner for a half tile. */
export interface TileRef { x: number; y: number; half: Corner | null }

/** The dragon: its tile (null: beside the board, not in play yet), the dragon tiles set aside, the moves of the flight under way. */
export interface DragonInfo { tile: TileRef | null; setAside: number; moves: number }

/** The fairy: the follower's feature she stands by, and whose follower she is with (null: nobody's). */
export interface FairyInfo { at: FeatureRef; with: number | null }

const num = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
const corner = (v: unknown): Corner | null => ((CORNERS as readonly unknown[]).includes(v) ? (v as Corner) : null);

function tileRef(v: unknown): TileRef | null {
  if (!isObject(v) || typeof v.x !== 'number' || typeof v.y !== 'number') return null;
  return { x: v.x, y: v.y, half: corner(v.half) };
}

/** The dragon in a view (null: the game has no Princess & Dragon). */
export function dragonOf(view: View): DragonInfo | null {
  const d = view.extras.dragon;
  if (!isObject(d)) return null;
  return { tile: tileRef(d.tile), setAside: num(d.set_aside), moves: num(d.moves) };
}

/** The fairy in a view (null: not moved yet, or no Princess & Dragon). Her place is named on the tile the feature's anchor is (`at`). */
export function fairyOf(view: View): FairyInfo | null {
  const f = view.extras.fairy;
  if (!isObject(f) || typeof f.place !== 'string') return null;
  const at = tileRef(f.at) ?? tileRef(f);
  if (!at) return null;
  return { at: { x: at.x, y: at.y, place: f.place, half: corner(f.half) }, with: typeof f.with === 'number' ? f.with : null };
}

const onTile = (t: TileRef) => (f: { x: number; y: number; half: Corner | null }): boolean => f.x === t.x && f.y === t.y && (f.half ?? null) === (t.half ?? null);

/** The figures standing on a tile: those the dragon eats when it enters it. */
export function figuresOn(view: View, t: TileRef): PlacedFollower[] {
  return view.followers.filter(onTile(t));
}

/** What entering a tile would eat, in words: "eats RED's follower and BLUE's pig", "eats nothing". */
export function eatsWords(eaten: PlacedFollower[], players: string[]): string {
  if (eaten.length === 0) return 'eats nothing';
  const each = eaten.map((f) => `${players[f.seat] ?? `seat ${f.seat}`}'s ${figureName(f.figure)}`);
  const last = each.pop();
  return `eats ${each.length > 0 ? `${each.join(', ')} and ${String(last)}` : String(last)}`;
}

/**
 * The dragon step as the table says it: who moves the dragon now and
 * which move of the flight this is ("BLUE moves the dragon: move 2 of 6").
 * Null outside the dragon step.
 */
export function dragonStepWords(view: View, players: string[]): string | null {
  if (view.phase !== 'dragon') return null;
  const d = dragonOf(view);
  const who = view.currentPlayer === null ? 'Someone' : players[view.currentPlayer] ?? `seat ${view.currentPlayer}`;
  const n = Math.min(DRAGON_MOVES, (d?.moves ?? 0) + 1);
  return `${who} moves the dragon: move ${n} of ${DRAGON_MOVES}`;
}

/** The fairy in words: "the fairy is with RED's follower on …", "the fairy is on …, with nobody". */
export function fairyWords(f: FairyInfo, players: string[], place: string): string {
  return f.with === null ? `the fairy is on ${place}, with nobody` : `the fairy is with ${players[f.with] ?? `seat ${f.with}`}'s follower on ${place}`;
}

/** Whether an action is one of this expansion's played on the board (the dragon's tiles are marks; the fairy's and the princess's are spots). */
export function isDragonAction(a: Action): boolean {
  return a.kind === 'dragon' || a.kind === 'fairy' || a.kind === 'princess';
}

/**
 * Whether the follower spots lit reach beyond one tile: a magic portal
 * was placed, and a follower may go onto any lit feature of the board.
 */
export function portalOpen(legal: Action[]): boolean {
  const cells = new Set(legal.flatMap((a) => (a.kind === 'follower' ? [`${a.at.x},${a.at.y},${a.at.half ?? ''}`] : [])));
  return cells.size > 1;
}

/**
 * This expansion's events in words, for the log (null: not one of them):
 * a figure the dragon ate or the princess sent home (the event's
 * `followers` marks its owner, `feature` where it stood), the fairy's
 * points.
 */
export function dragonEventText(e: ScoreEvent, players: string[]): string | null {
  const owner = (): string => {
    const f = Array.isArray(e.raw.followers) ? e.raw.followers : [];
    const i = f.findIndex((n) => typeof n === 'number' && n > 0);
    return i < 0 ? 'a player' : players[i] ?? `seat ${i}`;
  };
  const where = e.feature ? ` on a ${e.feature}` : '';
  switch (e.reason) {
    case 'eaten': return `the dragon eats ${owner()}'s figure${where}; it goes back to the supply`;
    case 'princess': return `the princess sends ${owner()}'s knight home${where}`;
    case 'fairy': {
      const pts = e.points.map((p, i) => (p ? `${players[i] ?? i} +${p}` : '')).filter((s) => s).join(', ');
      const why = e.points.some((p) => p >= 3) ? 'the fairy by a scored feature' : 'the fairy at the start of the turn';
      return `${why}${pts ? `: ${pts}` : ''}`;
    }
    default: return null;
  }
}

/**
 * Where the neutral figures are, in words, for everyone at the table:
 * "The dragon waits beside the board (2 dragon tiles set aside).", "The
 * dragon rests on the start tile.", "The fairy is with RED's follower on
 * the east of …". Empty without the set.
 */
export function neutralsWords(view: View, players: string[], where: Where = BY_COORDINATES): string[] {
  const d = dragonOf(view);
  if (!d) return [];
  const aside = d.setAside > 0 ? ` (${d.setAside} dragon tile${d.setAside === 1 ? '' : 's'} set aside)` : '';
  const out = [d.tile ? `The dragon is on ${where.tile(d.tile.x, d.tile.y, d.tile.half)}${aside}.` : `The dragon waits beside the board for the first volcano${aside}.`];
  const f = fairyOf(view);
  if (f) out.push(`${fairyWords(f, players, featureAt(f.at, where)).replace(/^the/, 'The')}.`);
  return out;
}
