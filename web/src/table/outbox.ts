// The action this seat sent, until the server answers (src/unacked.ts):
// nothing else is legal meanwhile (no double sends); a refusal brings the
// legal moves back; a reconnect re-sends it or reports it lost; a
// message-rate refusal sends it once more a moment later.

import type { Connection } from '../net';
import { actionMessage, type Action, type ServerMessage } from '../protocol';
import type { GameState } from '../state';
import { RATE_RETRY_MS, settle, type Unacked } from '../unacked';

export interface Outbox {
  /** Sends `a` at `s`'s version; the state to show meanwhile (nothing legal). */
  send(a: Action, s: GameState): GameState;
  /** What `m` means for the action sent (answered, lost, refused, to send again); the state to show. */
  settle(m: ServerMessage, s: GameState): GameState;
  /** Whether an action is on its way. */
  readonly sending: boolean;
}

/** `socket` is the connection now; `reconnect` opens a new one. */
export function outbox(socket: () => Connection, reconnect: () => void): Outbox {
  let unacked: Unacked | null = null;
  return {
    get sending() { return unacked !== null; },
    send(a, s) {
      // A closed socket drops it: the reconnect's welcome then re-sends it.
      socket().send(actionMessage(a, s.version));
      unacked = { action: a, version: s.version, legal: s.legal, resent: false };
      return { ...s, legal: [] };
    },
    settle(m, s) {
      if (!unacked) return s;
      const sent = unacked;
      const settled = settle(sent, m, s);
      unacked = settled.unacked;
      if (settled.effect === 'resend') socket().send(actionMessage(sent.action, sent.version));
      else if (settled.effect === 'reconnect') reconnect();
      else if (settled.effect === 'retry') {
        window.setTimeout(() => {
          if (unacked === null || unacked.action !== sent.action) return;
          socket().send(actionMessage(sent.action, sent.version));
        }, RATE_RETRY_MS);
      }
      return settled.state;
    },
  };
}
