// An action sent and not answered yet. A connection can drop between the
// click and the server's answer (a restart, a lost network): the action
// may or may not have reached the server. After the reconnect the server
// says which — its version, and the `played` messages of what it
// committed — and the client either sends the action again (once, if it
// is still legal where it was sent) or tells the player it was lost,
// instead of waiting for an answer that will never come.

import { encodeAction, type Action, type ServerMessage } from './protocol';
import type { GameState } from './state';

/** An action sent at `version`, with the legal actions it was chosen from (offered again if it is refused). */
export interface Unacked { action: Action; version: number; legal: Action[]; resent: boolean }

/** What the player is told when their action is lost. */
export const LOST = 'your move was not received — play again';

export function sameAction(a: Action, b: Action): boolean {
  return JSON.stringify(encodeAction(a)) === JSON.stringify(encodeAction(b));
}

/**
 * After a reconnect's welcome at the server's `version`, with this seat's
 * `legal` actions: send it again (the server is where it was sent and
 * still allows it, and it was not sent again already), `lost` (the
 * server is where it was sent, and will not take it), or `wait` (the
 * server moved on: the `played` message after `sent.version` says whose
 * action it was — see `onPlayed`).
 */
export function onWelcome(sent: Unacked, version: number, legal: Action[]): 'resend' | 'lost' | 'wait' {
  if (version > sent.version) return 'wait';
  if (version === sent.version && !sent.resent && legal.some((a) => sameAction(a, sent.action))) return 'resend';
  return 'lost';
}

/**
 * A `played` message while `sent` is unanswered: `acked` (it is this
 * seat's action, committed), `lost` (another action took that version),
 * or `pending` (an older version being caught up).
 */
export function onPlayed(sent: Unacked, played: { version: number; seat: number; action: Action }, seat: number | null): 'acked' | 'lost' | 'pending' {
  if (played.version <= sent.version) return 'pending';
  return played.version === sent.version + 1 && played.seat === seat && sameAction(played.action, sent.action) ? 'acked' : 'lost';
}

/** How long to wait before sending again an action the server ignored for its message rate. */
export const RATE_RETRY_MS = 1000;

/**
 * An error answering `sent`: `retry` (the server ignored it for its
 * message rate, and it was not sent again already: send it again after
 * `RATE_RETRY_MS`, a click is not lost for being quick) or `offer` (it was
 * refused: offer the legal actions it was chosen from again).
 */
export function onRefused(sent: Unacked, code: string): 'retry' | 'offer' {
  return code === 'rate_limited' && !sent.resent ? 'retry' : 'offer';
}

/** What the connection must do after `settle`: nothing, send the action again now, reconnect, or send it again after `RATE_RETRY_MS`. */
export type Effect = 'none' | 'resend' | 'reconnect' | 'retry';

/**
 * What a server message makes of the unanswered `sent`: the action still
 * waited for (null: answered, lost or refused), the state as the player
 * is to see it (its legal moves offered again, or "lost"), and what the
 * connection must do.
 */
export function settle(sent: Unacked, m: ServerMessage, state: GameState): { unacked: Unacked | null; state: GameState; effect: Effect } {
  const keep = { unacked: sent, state, effect: 'none' as Effect };
  switch (m.type) {
    case 'welcome': {
      const next = onWelcome(sent, m.version, state.legal);
      if (next === 'resend') return { unacked: { ...sent, resent: true }, state: { ...state, legal: [] }, effect: 'resend' };
      return next === 'lost' ? { unacked: null, state: { ...state, error: LOST }, effect: 'none' } : keep;
    }
    case 'played': {
      const next = onPlayed(sent, m, state.seat);
      return { unacked: next === 'pending' ? sent : null, state: next === 'lost' ? { ...state, error: LOST } : state, effect: 'none' };
    }
    case 'status': return { ...keep, unacked: null };
    case 'error':
      // Someone acted first: reconnect with `since` to catch up.
      if (m.code === 'stale_version') return { unacked: null, state, effect: 'reconnect' };
      // (A lagged connection reconnects: its welcome settles the action.)
      if (m.code === 'lagged') return keep;
      if (onRefused(sent, m.code) === 'retry') return { unacked: { ...sent, resent: true }, state: { ...state, error: null, legal: [] }, effect: 'retry' };
      return { unacked: null, state: { ...state, legal: sent.legal }, effect: 'none' };
    default: return keep;
  }
}
