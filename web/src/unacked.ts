// An action sent and not answered yet. A connection can drop between the
// click and the server's answer (a restart, a lost network): the action
// may or may not have reached the server. After the reconnect the server
// says which — its version, and the `played` messages of what it
// committed — and the client either sends the action again (once, if it
// is still legal where it was sent) or tells the player it was lost,
// instead of waiting for an answer that will never come.

import { encodeAction, type Action } from './protocol';

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
