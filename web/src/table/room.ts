// The waiting room's part of the table (src/waiting.ts draws it): starting
// the game once, the invite link copied last, and the server's sentence
// once an open game is gone. One slot of the side panel.

import { startGame } from '../api';
import { errorText, h } from '../dom';
import type { GameState } from '../state';
import { waitingRoom } from '../waiting';

export interface Room {
  element: HTMLElement;
  /** Asks the server to start the game (once; again only after a failure). */
  start(): void;
  /** The game is gone (an open game expired): the room says so. */
  gone(message: string): void;
  update(s: GameState): void;
}

/**
 * `failed` is told why a start failed (the table shows it while the game
 * is still open); `changed` redraws the table; `toLobby` opens the lobby.
 */
export function room(game: string, token: string | null, ctx: { failed(text: string): void; changed(): void; toLobby(): void }): Room {
  const element = h('div', { class: 'slot', id: 'waiting-slot' });
  let asked = false;
  let gone: string | null = null;
  let copied: { seat: number; text: string } | null = null;
  const start = (): void => {
    if (!token || asked) return;
    asked = true;
    startGame(game, token).catch((e: unknown) => {
      asked = false;
      ctx.failed(`Could not start: ${errorText(e)}`);
    });
  };
  const copy = (seat: number, link: string): void => {
    const done = (text: string): void => { copied = { seat, text }; ctx.changed(); };
    // Without the clipboard (refused, or an insecure page), the link to copy by hand.
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!clipboard) { done(link); return; }
    clipboard.writeText(link).then(() => done('copied'), () => done(link));
  };
  return {
    element,
    start,
    gone(message) { gone = message; ctx.changed(); },
    update(s) {
      element.replaceChildren(...(s.status === 'open' ? [waitingRoom(s, { game, token, start, copied, copy, gone, toLobby: ctx.toLobby })] : []));
    },
  };
}
