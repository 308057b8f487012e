// Moves a player can follow: each seat's last tile, the points an action
// scored and where, and the game's move history rebuilt from the server's
// own log (`GET /api/games/ID/log`), so that a reload does not empty it.
// Pure functions, tested in test/follow.test.ts, and the one fetch of the
// history.

import { call } from './api';
import { arr, int, obj } from './json';
import type { Corner, ScoreEvent } from './protocol';
import { parseAction, parseEvent } from './protocol';
import type { LogEntry } from './state';

/** The last tile a seat placed: its cell (and half). */
export interface LastTile { seat: number; x: number; y: number; half: Corner | null }

/** Each seat's last placement in `log` (oldest first), in seat order. */
export function lastTiles(log: LogEntry[]): LastTile[] {
  const by = new Map<number, LastTile>();
  for (const m of log) if (m.action.kind === 'place') by.set(m.seat, { seat: m.seat, x: m.action.x, y: m.action.y, half: m.action.half });
  return [...by.values()].sort((a, b) => a.seat - b.seat);
}

/** "+N" shown for a while: over a feature's cell, or (no cell) at the seat's panel only. */
export interface Gain { seat: number; points: number; x: number | null; y: number | null; reason: string; feature: string | null }

/**
 * The points an action scored, per seat and event: where the event names
 * its feature (its cell), the "+N" goes over it; an event without a place
 * (the gingerbread man's, the end's) only at the seat panel, and over the
 * tile placed last (`fallback`) when there is one.
 */
export function gains(entry: LogEntry, fallback: { x: number; y: number } | null = null): Gain[] {
  const out: Gain[] = [];
  for (const e of entry.events) {
    e.points.forEach((p, seat) => {
      if (p <= 0) return;
      const at = e.x !== null && e.y !== null ? { x: e.x, y: e.y } : fallback;
      out.push({ seat, points: p, x: at?.x ?? null, y: at?.y ?? null, reason: e.reason, feature: e.feature });
    });
  }
  return out;
}

/** One feature of the final scoring, shown in its turn: its event, the "+N" it gives, and when it starts (ms after the last move came). */
export interface FinalStep { index: number; event: ScoreEvent; gains: Gain[]; at: number }

/** The final scoring as shown: its steps, how long each stays lit, and when the result (the end panel) comes. */
export interface Finale { steps: FinalStep[]; stepMs: number; resultAt: number }

/** Whether a move ended the game by the rules: its events hold the final scoring. */
export function isFinalMove(entry: LogEntry): boolean {
  return entry.events.some((e) => e.reason === 'game end');
}

/**
 * The events of the game's last move that scored, one step each: first
 * what the move itself completed and the roads, cities and monasteries
 * left open (the engine's order), the farms last, as at a table where
 * they are counted after everything else. A step lasts `stepMs`, shorter
 * when there are many so that the whole stays within `maxMs`; then the
 * result. With `reduced` motion (prefers-reduced-motion) every step is at
 * once and the result with them.
 */
export function finalScoring(entry: LogEntry, reduced: boolean, stepMs = 1200, maxMs = 9000): Finale {
  const scored = entry.events.filter((e) => e.points.some((p) => p > 0));
  const ordered = [...scored.filter((e) => e.feature !== 'field'), ...scored.filter((e) => e.feature === 'field')];
  const step = reduced ? 0 : Math.min(stepMs, Math.floor(maxMs / Math.max(1, ordered.length)));
  const steps = ordered.map((event, index) => ({ index, event, gains: gains({ ...entry, events: [event] }), at: index * step }));
  return { steps, stepMs: step, resultAt: steps.length * step };
}

/**
 * The scores the seats show while the final scoring runs: the final ones
 * (the view's, which the last move brought at once) less what the steps
 * not yet shown will add, so that each seat's score climbs with its steps.
 */
export function scoresDuring(scores: number[], steps: FinalStep[], shown: number): number[] {
  const pending = gainsBySeat(steps.slice(shown).flatMap((st) => st.gains));
  return scores.map((p, seat) => Math.max(0, p - (pending.get(seat) ?? 0)));
}

/** Points per seat in a list of gains (the seat panels' "+N"). */
export function gainsBySeat(gs: Gain[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const g of gs) out.set(g.seat, (out.get(g.seat) ?? 0) + g.points);
  return out;
}

/**
 * The whole history: what the server's log gave (`history`, versions 1..n)
 * and what this page saw since (`live`), each version once, in order.
 */
export function mergeLog(history: LogEntry[], live: LogEntry[]): LogEntry[] {
  const by = new Map<number, LogEntry>();
  for (const m of history) by.set(m.version, m);
  for (const m of live) by.set(m.version, m);
  return [...by.values()].sort((a, b) => a.version - b.version);
}

/** One page of the server's move log (`GET /api/games/ID/log`, docs/server.md, "The move log"). */
export interface LogPage { version: number; since: number; moves: LogEntry[]; next: number | null }

/** Validates a page of the move log; throws `InvalidMessage` on anything else. */
export function parseLogPage(v: unknown): LogPage {
  const o = obj(v, 'log');
  return {
    version: int(o.version, 'log.version'), since: int(o.since, 'log.since'),
    moves: arr(o.moves, 'log.moves', (m, p) => {
      const e = obj(m, p);
      return { version: int(e.version, `${p}.version`), seat: int(e.seat, `${p}.seat`), action: parseAction(e.action, `${p}.action`), events: arr(e.events, `${p}.events`, parseEvent) };
    }),
    // Always there: null says this page is the last, so a missing one is a fault, not an end.
    next: o.next === null ? null : int(o.next, 'log.next'),
  };
}

/** Pages read at most: far more than the longest game (a page holds some hundreds of moves), so a server that never says "no more" cannot keep a page fetching. */
const MAX_LOG_PAGES = 50;

/**
 * The game's moves from the server's log, page after page (each page's
 * `next` is where the following one starts), each move as a spectator is
 * told of it. Null when it cannot be had (a refusal, a network failure,
 * an answer not shaped as documented): the caller asks again later.
 */
export async function fetchHistory(game: string, get: (path: string) => Promise<unknown> = call): Promise<LogEntry[] | null> {
  const out: LogEntry[] = [];
  let since: number | null = 0;
  try {
    for (let pages = 0; since !== null && pages < MAX_LOG_PAGES; pages++) {
      const page = parseLogPage(await get(`/api/games/${encodeURIComponent(game)}/log?since=${since}`));
      out.push(...page.moves);
      // A next page that does not move on would loop: stop there.
      since = page.next !== null && page.next > since ? page.next : null;
    }
  } catch {
    return null;
  }
  return out;
}

/**
 * The bot seat that is thinking now: a running game whose seat to act is
 * a bot's (the server computes its move; the protocol says no more, so
 * this is all a client can know). Null when a person is to act.
 */
export function botThinking(status: string, current: number | null, seats: { seat: number; kind: string }[]): number | null {
  if (status !== 'playing' || current === null) return null;
  const s = seats.find((x) => x.seat === current);
  return s && s.kind !== 'human' ? current : null;
}

/** Whether a history misses moves: its versions are not 1, 2, … up to `version`. */
export function hasGap(log: LogEntry[], version: number): boolean {
  return log.length !== version || log.some((m, i) => m.version !== i + 1);
}
