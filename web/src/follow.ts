// Moves a player can follow: each seat's last tile, the points an action
// scored and where, and the game's move history rebuilt from the server's
// own log (a spectator's catch-up from version 0), so that a reload does
// not empty it. Pure functions, tested in test/follow.test.ts, and the
// one fetch of the history.

import type { Corner } from './protocol';
import { parseServerMessage } from './protocol';
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

/**
 * The game's moves from the server: a spectator's connection that asks
 * for everything after version 0 (`since: 0`), whose `played` messages
 * are the log (seat, action, events), closed once it has caught up.
 * Null when it cannot be had (no WebSocket, a refusal, 15 s).
 */
export function fetchHistory(game: string): Promise<LogEntry[] | null> {
  return new Promise((done) => {
    if (typeof WebSocket === 'undefined') { done(null); return; }
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(game)}/ws`);
    const out: LogEntry[] = [];
    let target: number | null = null;
    const finish = (v: LogEntry[] | null): void => { window.clearTimeout(timer); ws.onclose = null; ws.close(); done(v); };
    const timer = window.setTimeout(() => finish(null), 15_000);
    ws.onopen = () => ws.send(JSON.stringify({ hello: { token: null, since: 0 } }));
    ws.onclose = () => { window.clearTimeout(timer); done(target !== null && out.length >= target ? out : null); };
    ws.onmessage = (e: MessageEvent<unknown>) => {
      if (typeof e.data !== 'string') return;
      let m;
      try { m = parseServerMessage(e.data); } catch { finish(null); return; }
      if (m.type === 'welcome') target = m.version;
      else if (m.type === 'played') out.push({ version: m.version, seat: m.seat, action: m.action, events: m.events });
      else if (m.type === 'error') { finish(null); return; }
      if (target !== null && (out[out.length - 1]?.version ?? 0) >= target) finish(out);
    };
  });
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
