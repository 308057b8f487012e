// The table's head: the game's name, whose turn it is and the connection,
// the seats (src/panels/seats.ts), and the buttons that change the view
// (fit, how to play, schematic tiles, record, replay). One section of the
// side panel.

import { isSchematic, setSchematic } from '../art';
import { h } from '../dom';
import type { ConnectionState } from '../net';
import { isMyTurn, type GameState } from '../state';
import { gameName, seatKindWords, statusWords } from '../words';
import { touchScreen } from './touch';

/** What the head needs of the table. */
export interface HeaderContext {
  game: string;
  /** The seats' list, kept in the head across its redraws. */
  seats: HTMLElement;
  refit(): void;
  rules(s: GameState): void;
  /** The tiles' look changed: the table draws the pictures again. */
  changed(): void;
}

export interface HeaderPanel {
  element: HTMLElement;
  /** `sending`: this seat's move was sent and the server has not answered yet. */
  update(s: GameState, conn: ConnectionState, thinking: number | null, sending: boolean): void;
}

/**
 * The status line: whose turn it is, tiles left, the connection. A move of
 * this seat on its way is said as such (never "RED to play" to RED).
 */
export function statusLine(s: GameState, conn: ConnectionState, thinking: number | null, sending = false): string {
  const view = s.view;
  const sent = conn === 'open' ? 'Your move is being sent' : 'Your move is waiting to be sent';
  const turn = s.status !== 'playing' ? statusWords(s.status)
    : isMyTurn(s) ? 'Your turn'
    : sending ? sent
    : `${s.players[view?.currentPlayer ?? 0] ?? ''} ${thinking !== null ? `(${seatKindWords(s.seats[thinking]?.kind ?? 'bot')}) is thinking` : 'to play'}`;
  return `${turn} · ${view?.tilesLeft ?? 0} tiles left · ${conn === 'open' ? 'connected' : 'reconnecting…'}`;
}

export function headerPanel(ctx: HeaderContext): HeaderPanel {
  const title = h('h2', { id: 'game-name' });
  const status = h('p', { class: 'status', role: 'status', id: 'status' });
  const buttons = h('p', {});
  const element = h('section', { class: 'panel' }, title, status, ctx.seats, buttons);
  return {
    element,
    update(s, conn, thinking, sending) {
      const mine = isMyTurn(s);
      // The tab's title tells a player in another tab that it is their turn.
      const name = gameName(s.players, s.config);
      document.title = `${mine ? '▶ Your turn — ' : ''}${name} — Bastide`;
      title.textContent = name;
      status.textContent = statusLine(s, conn, thinking, sending);
      status.dataset.status = s.status;
      status.dataset.mine = String(mine);
      status.dataset.version = String(s.version);
      buttons.replaceChildren(h('button', { id: 'fit-board', onclick: () => ctx.refit() }, touchScreen() ? 'Fit board' : 'Fit board (F)'), ' ',
        h('button', { id: 'how-to-play', type: 'button', 'aria-haspopup': 'dialog', onclick: () => ctx.rules(s) }, 'How to play'), ' ',
        h('button', { id: 'schematic', type: 'button', 'aria-pressed': String(isSchematic()), title: 'Plain flat tiles instead of the drawn ones', onclick: () => { setSchematic(!isSchematic()); ctx.changed(); } }, 'Schematic tiles'), ' ',
        h('a', { href: `/api/games/${ctx.game}/record`, download: `bastide-${ctx.game}.json` }, 'record'), ' ', h('a', { href: `/replay/${ctx.game}` }, 'replay'));
    },
  };
}
