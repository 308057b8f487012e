// The game as the client knows it, changed only by server messages
// (reduce) — the client never guesses the rules: legal actions come from
// the server.

import type { Action, Clock, GameStatus, ScoreEvent, SeatInfo, ServerMessage, View } from './protocol';
import type { JsonObject } from './json';

export interface LogEntry { version: number; seat: number; action: Action; events: ScoreEvent[] }

export interface GameState {
  game: string;
  seat: number | null;
  status: GameStatus;
  version: number;
  resigned: number | null;
  players: string[];
  seats: SeatInfo[];
  config: JsonObject;
  view: View | null;
  /** Legal actions for this seat now (empty when it is not its turn). */
  legal: Action[];
  /** Actions seen on this connection's history, oldest first. */
  log: LogEntry[];
  /** The last refusal or problem, shown to the player. */
  error: string | null;
  /** Set when a message arrived out of order: the client must reconnect. */
  resync: boolean;
  /** A timed game's clocks as last sent (catch-up messages carry none: the welcome's hold), and when this page got them (Date.now()). */
  clock: Clock | null;
  clockAt: number;
  /** The seat that ran out of time, once the server called it. */
  timeout: number | null;
}

export function reduce(state: GameState | null, msg: ServerMessage): GameState | null {
  switch (msg.type) {
    case 'welcome': {
      const keep = state !== null && state.game === msg.game;
      return {
        game: msg.game, seat: msg.seat, status: msg.status, version: msg.version, resigned: msg.resigned,
        players: msg.players, seats: msg.seats, config: msg.config,
        // A welcome after `since` has no view: the `played` messages that follow bring it.
        view: msg.view ?? (keep ? state.view : null),
        // A reconnect that missed nothing gets no `played`, hence no legal
        // moves: the ones we had still hold.
        legal: msg.legal ?? (keep && msg.view === null && msg.version === state.version ? state.legal : []),
        log: keep ? state.log : [],
        error: null,
        resync: false,
        clock: msg.clock ?? (keep ? state.clock : null),
        clockAt: msg.clock ? Date.now() : (keep ? state.clockAt : 0),
        timeout: keep ? state.timeout : null,
        // With `since`, version is the server's; ours moves on as `played` arrive.
        ...(msg.view === null && keep ? { version: state.version } : {}),
      };
    }
    case 'played': {
      if (state === null) return state;
      if (msg.version <= state.version) return state; // already have it
      if (msg.version !== state.version + 1) return { ...state, resync: true };
      return {
        ...state,
        version: msg.version,
        view: msg.view,
        legal: msg.legal ?? [],
        log: [...state.log, { version: msg.version, seat: msg.seat, action: msg.action, events: msg.events }],
        error: null,
        ...(msg.clock ? { clock: msg.clock, clockAt: Date.now() } : {}),
      };
    }
    case 'status': {
      if (state === null) return state;
      const over = msg.status === 'finished' || msg.status === 'resigned';
      return {
        ...state, status: msg.status, resigned: msg.resigned,
        view: msg.view ?? state.view,
        legal: over ? [] : (msg.legal ?? state.legal),
        ...(msg.clock ? { clock: msg.clock, clockAt: Date.now() } : {}),
        timeout: msg.timeout ?? state.timeout,
        // Before the start, a seat claimed or left is told with the seats (the waiting room).
        seats: msg.seats ?? state.seats.map((s) => ({ ...s, joined: s.joined || msg.status === 'playing' })),
      };
    }
    // A rematch changes nothing of this game (the table offers it); nor
    // does `gone` (the waiting room says it, src/waiting.ts).
    case 'pong': case 'rematch': case 'chat': case 'gone': return state;
    case 'error': return state === null ? state : { ...state, error: `${msg.code}: ${msg.message}` };
  }
}

export function isMyTurn(s: GameState): boolean {
  return s.status === 'playing' && s.legal.length > 0;
}

/** The events that scored: a feature worth nothing (a field of no city at the end) is no news in the score log. */
export function scoringEvents(events: ScoreEvent[]): ScoreEvent[] {
  return events.filter((e) => e.points.some((p) => p !== 0));
}

/** The events the log lists: those that scored, and those of no points that say where a figure went (`keep`: Princess & Dragon's eaten figures and the princess's knights). */
export function logEvents(events: ScoreEvent[], keep: string[]): ScoreEvent[] {
  return events.filter((e) => e.points.some((p) => p !== 0) || keep.includes(e.reason));
}

/** Scores after every event, per seat: the score graph's lines. */
export function scoreSeries(events: ScoreEvent[], seats: number): number[][] {
  const totals = new Array<number>(seats).fill(0);
  const out: number[][] = [totals.slice()];
  for (const e of events) {
    for (let i = 0; i < seats; i++) totals[i] = (totals[i] ?? 0) + (e.points[i] ?? 0);
    out.push(totals.slice());
  }
  return out;
}

/** Points per seat per category (`completed city`, `game end field`, …). */
export function pointsByCategory(events: ScoreEvent[], seats: number): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const e of scoringEvents(events)) {
    const key = e.feature ? `${e.reason} ${e.feature}` : e.reason;
    const row = out.get(key) ?? new Array<number>(seats).fill(0);
    e.points.forEach((p, i) => { if (i < seats) row[i] = (row[i] ?? 0) + p; });
    out.set(key, row);
  }
  return out;
}
