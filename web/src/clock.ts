// The clocks of a timed game at the table (docs/server.md, "Clocks"): the
// time each seat has left now, counted down from what the server last
// sent with this browser's own clock, and how it is written. The lobby's
// time controls are here too. Pure functions, tested in test/clock.test.ts.

import type { Clock } from './protocol';
import type { JsonObject } from './json';

/** One seat's clock as shown: its time left (ms, null: none to show), whether it runs, whether time is short. */
export interface SeatClock { seat: number; ms: number | null; running: boolean; low: boolean }

/** Time short: under 20 s, or under a tenth of the time given (game or turn). */
export function isLow(ms: number, given: number | null): boolean {
  return ms < 20_000 || (given !== null && ms < given / 10);
}

/**
 * Each seat's clock at `now` (Unix ms, this browser's clock, taken as the
 * server's): a seat's game time as of `since`, less the time since for
 * the seat whose time runs; with a turn limit, the running seat never
 * shows more than its deadline leaves. Without game time (turn limit
 * only) only the running seat has a time.
 */
export function seatClocks(c: Clock, seats: number, now: number): SeatClock[] {
  return Array.from({ length: seats }, (_, seat) => {
    const running = c.running === seat;
    const game = c.remainingMs?.[seat] ?? null;
    let ms: number | null = game === null ? null : running && c.since !== null ? game - Math.max(0, now - c.since) : game;
    if (running && c.deadline !== null) ms = Math.min(ms ?? Number.POSITIVE_INFINITY, c.deadline - now);
    if (ms !== null) ms = Math.max(0, ms);
    const given = game !== null ? c.spec.initialMs : c.spec.turnMs;
    return { seat, ms, running, low: ms !== null && running && isLow(ms, given) };
  });
}

/** A time left in words of a clock: "4:05", "0:09.3" under 10 s, "1:02:03", "2 d 3 h". */
export function formatClock(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) return `0:0${(Math.floor(t / 100) / 10).toFixed(1)}`;
  const s = Math.floor(t / 1000);
  const [d, hh, mm, ss] = [Math.floor(s / 86400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60];
  const two = (n: number): string => String(n).padStart(2, '0');
  if (d > 0) return `${d} d ${hh} h`;
  if (hh > 0) return `${hh}:${two(mm)}:${two(ss)}`;
  return `${mm}:${two(ss)}`;
}

/** The lobby's time controls: an id, its words, and the `clock` of the create request (null: untimed). */
export const TIME_CONTROLS: { id: string; label: string; clock: JsonObject | null }[] = [
  { id: 'none', label: 'No clock', clock: null },
  { id: 'blitz', label: '3 min + 5 s a turn', clock: { initial_ms: 180_000, increment_ms: 5_000 } },
  { id: 'rapid', label: '10 min + 10 s a turn', clock: { initial_ms: 600_000, increment_ms: 10_000 } },
  { id: 'slow', label: '30 min + 30 s a turn', clock: { initial_ms: 1_800_000, increment_ms: 30_000 } },
  { id: 'turn', label: '1 minute a turn', clock: { turn_ms: 60_000 } },
  { id: 'daily', label: 'Correspondence: 1 day a turn', clock: { turn_ms: 86_400_000 } },
];

/** The create request's `clock` for a time control and what happens on time out (`lose` or `bot`). */
export function clockRequest(id: string, onTimeout: string): JsonObject | null {
  const c = TIME_CONTROLS.find((t) => t.id === id)?.clock ?? null;
  return c ? { ...c, on_timeout: onTimeout === 'bot' ? 'bot' : 'lose' } : null;
}

/** A duration in words for a time control: "3 min", "5 s", "1 day", "90 min". */
function spanWords(ms: number): string {
  const day = 86_400_000;
  if (ms >= day && ms % day === 0) return `${ms / day} day${ms === day ? '' : 's'}`;
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * A game's time control in words, for the lists of games: the lobby's own
 * label when it is one of `TIME_CONTROLS` ("3 min + 5 s a turn"), else
 * made from its parts; "no clock" for none.
 */
export function clockWords(spec: JsonObject | null): string {
  if (!spec) return 'no clock';
  const n = (k: string): number | null => (typeof spec[k] === 'number' ? spec[k] : null);
  const [initial, increment, turn] = [n('initial_ms'), n('increment_ms') ?? 0, n('turn_ms')];
  const same = TIME_CONTROLS.find((t) => t.clock !== null && (t.clock.initial_ms ?? null) === initial && (t.clock.increment_ms ?? 0) === increment && (t.clock.turn_ms ?? null) === turn);
  if (same) return same.label;
  const parts: string[] = [];
  if (initial !== null) parts.push(`${spanWords(initial)}${increment > 0 ? ` + ${spanWords(increment)} a turn` : ''}`);
  if (turn !== null) parts.push(`${spanWords(turn)} a turn`);
  return parts.join(', at most ') || 'no clock';
}
