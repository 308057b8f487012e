// The waiting room's part of the table (src/waiting.ts draws it): starting
// the game once, the invite link copied last, and the server's sentence
// once an open game is gone; in a rated game, its address handed out as
// the invite and a signed-in visitor's "Take this seat". One slot of the
// side panel.

import { parseSession } from '../account';
import { call, getGame, sitGame, startGame } from '../api';
import { errorText, h } from '../dom';
import type { GameState } from '../state';
import { saveToken } from '../tokens';
import { waitingRoom, type Rated } from '../waiting';

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
export function room(game: string, token: string | null, ctx: { failed(text: string): void; changed(): void; toLobby(): void; navigate(path: string): void }): Room {
  const element = h('div', { class: 'slot', id: 'waiting-slot' });
  let asked = false;
  let gone: string | null = null;
  let copied: { seat: number; text: string } | null = null;
  // Whether the game is rated, and whether this visitor is signed in: asked
  // once, while the game is open (a rated game's seats go to accounts).
  let rated: Rated | null = null;
  let sitting = false;
  let asking = false;
  const ask = (): void => {
    if (asking) return;
    asking = true;
    Promise.all([getGame(game), call('/api/session').then(parseSession)]).then(([g, session]) => {
      rated = g.rated ? { signedIn: session.name !== null, take, failed: null } : null;
      ctx.changed();
    }, () => undefined);
  };
  // Takes the first free seat (`POST sit`, the session's account holding it) and plays in it.
  const take = (): void => {
    if (sitting) return;
    sitting = true;
    sitGame(game).then((s) => {
      saveToken(game, s.seat, s.token);
      ctx.navigate(`/play/${game}#seat=${s.seat}`);
    }, (e: unknown) => {
      sitting = false;
      if (rated) rated = { ...rated, failed: `Could not take the seat: ${errorText(e)}` };
      ctx.changed();
    });
  };
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
      if (s.status === 'open') ask();
      element.replaceChildren(...(s.status === 'open' ? [waitingRoom(s, { game, token, start, copied, copy, gone, toLobby: ctx.toLobby, rated })] : []));
    },
  };
}
