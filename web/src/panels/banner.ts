// The banner over the board while the server is away ("The server is
// away: reconnecting…", and "Your move is waiting to be sent."). It
// waits a moment before it shows: a reconnect that takes no time is no news.

import { h } from '../dom';
import type { ConnectionState } from '../net';
import type { GameState } from '../state';

/** How long the connection must be lost before the banner says so (ms). */
export const BANNER_MS = 1000;

export interface Banner {
  element: HTMLElement;
  /** The connection changed; `redraw` is called once the banner's wait is over. */
  connection(c: ConnectionState, redraw: () => void): void;
  /** `welcomed`: a connection was made (a page still making its first is connecting, not cut off). */
  update(s: GameState, welcomed: boolean, sending: boolean): void;
  readonly state: ConnectionState;
}

export function connectionBanner(): Banner {
  const element = h('p', { id: 'connection-banner', class: 'connection-banner', role: 'status', hidden: true });
  let conn: ConnectionState = 'connecting';
  // When the connection was last lost.
  let awaySince = 0;
  return {
    element,
    get state() { return conn; },
    connection(c, redraw) {
      if (c !== 'open' && conn === 'open') { awaySince = Date.now(); window.setTimeout(redraw, BANNER_MS + 50); }
      conn = c;
    },
    update(s, welcomed, sending) {
      const away = conn !== 'open' && welcomed && Date.now() - awaySince >= BANNER_MS && s.status !== 'finished' && s.status !== 'resigned';
      element.hidden = !away;
      element.textContent = away ? `The server is away: reconnecting…${sending ? ' Your move is waiting to be sent.' : ''}` : '';
    },
  };
}
