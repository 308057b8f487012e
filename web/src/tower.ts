// The Tower at the table: the view's `tower` part (notation.md, "Replay
// output"; the engine's state JSON: floors per seat, every foundation with
// its height and the follower on top, the prisoners with their holders),
// where a tower stands on its tile, and the prisoners and ransoms of each
// seat in words. Pure, tested in test/tower.test.ts.

import { isObject } from './json';
import { CORNERS, figureName, type Action, type Corner, type ScoreEvent, type View } from './protocol';
import { seatWords } from './words';

/** A foundation on the board: its cell, its floors (0: no tower yet), and the follower on top (null: open). */
export interface TowerInfo { x: number; y: number; height: number; top: { seat: number; figure: string | null } | null }

/** A follower held by another player: its holder, its owner, and which figure it is. */
export interface PrisonerInfo { holder: number; seat: number; figure: string | null }

const count = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
const figureOf = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The foundations and towers in a view (none without The Tower; malformed entries are left out). */
export function towersOf(view: View): TowerInfo[] {
  const t = view.extras.tower;
  if (!isObject(t) || !Array.isArray(t.towers)) return [];
  const out: TowerInfo[] = [];
  for (const w of t.towers) {
    if (!isObject(w) || typeof w.x !== 'number' || typeof w.y !== 'number') continue;
    const top = isObject(w.top) && typeof w.top.seat === 'number' ? { seat: w.top.seat, figure: figureOf(w.top.figure) } : null;
    out.push({ x: w.x, y: w.y, height: count(w.height), top });
  }
  return out;
}

/** The prisoners in a view, in the order they were taken. */
export function prisonersOf(view: View): PrisonerInfo[] {
  const t = view.extras.tower;
  if (!isObject(t) || !Array.isArray(t.prisoners)) return [];
  const out: PrisonerInfo[] = [];
  for (const p of t.prisoners) {
    if (!isObject(p) || typeof p.holder !== 'number' || typeof p.seat !== 'number') continue;
    out.push({ holder: p.holder, seat: p.seat, figure: figureOf(p.figure) });
  }
  return out;
}

/** The tiles in reach of the tower being raised, in the capture step (empty otherwise): where its capture reach is drawn. */
export function reachOf(view: View): { x: number; y: number; half: Corner | null }[] {
  const t = view.extras.tower;
  if (!isObject(t) || !Array.isArray(t.reach)) return [];
  const out: { x: number; y: number; half: Corner | null }[] = [];
  for (const c of t.reach) {
    if (!isObject(c) || typeof c.x !== 'number' || typeof c.y !== 'number') continue;
    const half = typeof c.half === 'string' && (CORNERS as readonly string[]).includes(c.half) ? c.half as Corner : null;
    out.push({ x: c.x, y: c.y, half });
  }
  return out;
}

/** Each seat's floors left (null without The Tower). */
export function floorsOf(view: View): number[] | null {
  const t = view.extras.tower;
  if (!isObject(t) || !Array.isArray(t.floors)) return null;
  return t.floors.map(count);
}

/**
 * Where on its tile a tower stands, in world units: of a few points of the
 * cell (its corners' and sides' insides, never the centre, where the
 * gingerbread man stands, nor the plague tokens' corners), the one farthest
 * from the tile's follower spots, so that a tower never hides a follower
 * or a spot. `spots` are the follower spots of the cell, in world units.
 */
export function towerPoint(x: number, y: number, cell: number, spots: { x: number; y: number }[]): { x: number; y: number } {
  const candidates: [number, number][] = [[0.25, 0.3], [0.75, 0.75], [0.5, 0.3], [0.3, 0.5], [0.7, 0.5], [0.5, 0.72]];
  let best = { x: (x + 0.25) * cell, y: (y + 0.3) * cell };
  let bestD = -1;
  for (const [fx, fy] of candidates) {
    const p = { x: (x + fx) * cell, y: (y + fy) * cell };
    const d = spots.reduce((m, s) => Math.min(m, Math.hypot(s.x - p.x, s.y - p.y)), Number.POSITIVE_INFINITY);
    if (d > bestD + 1e-6) { best = p; bestD = d; }
  }
  return best;
}

/** How high a floor is drawn (world units); a tall tower is drawn up to MAX_DRAWN floors, its height written beside it. */
export const FLOOR_PX = 6;
export const MAX_DRAWN = 8;

/** Where the follower on top of a tower of `height` floors stands, above the tower drawn at `at`. */
export function topPoint(at: { x: number; y: number }, height: number): { x: number; y: number } {
  return { x: at.x, y: at.y - FLOOR_PX * Math.min(height, MAX_DRAWN) - 10 };
}

/** A seat's prisoners in words: "holds BLUE's follower and BLUE's large follower" ('' for none). */
export function prisonersWords(prisoners: PrisonerInfo[], holder: number, players: string[]): string {
  const held = prisoners.filter((p) => p.holder === holder);
  if (held.length === 0) return '';
  return `holds ${held.map((p) => `${seatWords(p.seat, players)}'s ${figureName(p.figure)}`).join(', ')}`;
}

/** The ransoms offered now whose prisoner `holder` holds: the buttons at that seat. */
export function ransomsAt(legal: Action[], holder: number): Extract<Action, { kind: 'ransom' }>[] {
  return legal.filter((a): a is Extract<Action, { kind: 'ransom' }> => a.kind === 'ransom' && a.seat === holder);
}

/** The Tower's events of no points the log still shows: a capture, a prisoner exchange. */
export const TOWER_EVENTS = ['capture', 'exchange'];

/**
 * The Tower's events in words, for the log (null: not one of them): a
 * capture (`seat`: the capturer, `followers`: the owner marked, `feature`:
 * where it stood, none on top of a tower), an exchange (both players
 * marked), a ransom (`seat`: the payer, the holder's +3 in `points`).
 */
export function towerEventText(e: ScoreEvent, players: string[]): string | null {
  const marked = (): number[] => (Array.isArray(e.raw.followers) ? e.raw.followers : []).flatMap((n, i) => (typeof n === 'number' && n > 0 ? [i] : []));
  const actor = typeof e.raw.seat === 'number' ? seatWords(e.raw.seat, players) : 'a player';
  switch (e.reason) {
    case 'capture': {
      const owner = marked()[0];
      const whose = owner === undefined ? 'a' : `${seatWords(owner, players)}'s`;
      return `${actor} captures ${whose} follower ${e.place === 'tower' || !e.feature ? 'on top of a tower' : `on a ${e.feature}`}`;
    }
    case 'exchange': return `${marked().map((i) => seatWords(i, players)).join(' and ')} exchange prisoners: both go home`;
    case 'ransom': {
      const holder = e.points.findIndex((p) => p > 0);
      return `${actor} pays ${holder < 0 ? 'the holder' : seatWords(holder, players)} 3 points to take back a prisoner`;
    }
    default: return null;
  }
}

/**
 * Where a tile picture prints a tag (its `<g data-tag>`), in the picture's
 * own units: the tag's `translate(x,y)` taken through the tile group's
 * `translate(tx,ty) rotate(r cx cy)` (the renderer turns the tile in its
 * picture). Null when a transform is not of that form.
 */
export function tagPoint(tileTransform: string, tagTransform: string): { x: number; y: number } | null {
  const num = '(-?[\\d.]+(?:e-?\\d+)?)';
  const tag = new RegExp(`translate\\(\\s*${num}[ ,]+${num}\\s*\\)`).exec(tagTransform);
  if (!tag) return null;
  let x = Number(tag[1]);
  let y = Number(tag[2]);
  const rot = new RegExp(`rotate\\(\\s*${num}(?:[ ,]+${num}[ ,]+${num})?\\s*\\)`).exec(tileTransform);
  if (rot) {
    const a = (Number(rot[1]) * Math.PI) / 180;
    const cx = Number(rot[2] ?? 0);
    const cy = Number(rot[3] ?? 0);
    const [dx, dy] = [x - cx, y - cy];
    x = cx + dx * Math.cos(a) - dy * Math.sin(a);
    y = cy + dx * Math.sin(a) + dy * Math.cos(a);
  }
  const move = new RegExp(`translate\\(\\s*${num}[ ,]+${num}\\s*\\)`).exec(tileTransform);
  if (move) { x += Number(move[1]); y += Number(move[2]); }
  if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
  return { x, y };
}
