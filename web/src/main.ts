// Routes by the address: / lobby, /play/ID (a seat: token from the invite
// link's fragment or this browser), /watch/ID (spectate), /replay[/ID],
// /players (the leaderboard) and /players/NAME (a player's page).

import './style.css';
import { ApiError, getGame, joinGame } from './api';
import { h } from './dom';
import { capitalise } from './protocol';
import { lobby } from './lobby';
import { leaderboardPage, profilePage } from './profile';
import { replay } from './replay';
import { table } from './table';
import { findToken, parseFragment, saveToken } from './tokens';

// For docs/performance.md: when the client starts running.
performance.mark('bastide:script');

const app = document.getElementById('app');
let leave: (() => void) | null = null;

function navigate(path: string): void {
  history.pushState(null, '', path);
  route();
}

/**
 * Replaces the page with "no such game" or "no such page" (the server
 * answered this address with a 404) and a link to the lobby.
 */
function missing(root: HTMLElement, what: string): void {
  leave?.();
  leave = null;
  document.title = `Bastide — ${what}`;
  root.replaceChildren(h('section', { class: 'panel missing', role: 'alert', id: 'missing' },
    h('h1', {}, capitalise(what)), h('p', {}, `There is nothing at ${location.pathname}.`),
    h('p', {}, h('a', { href: '/', id: 'to-lobby', onclick: (e: Event) => { e.preventDefault(); navigate('/'); } }, 'Go to the lobby'))));
}

/**
 * Shows "no such game" if the server has no game `id` (a mistyped or
 * outdated link): the table or the viewer would otherwise wait for it
 * forever. A game whose board the server drew into the page exists.
 */
function checkGame(root: HTMLElement, id: string): void {
  if (document.querySelector(`svg.board[data-game="${CSS.escape(id)}"]`)) return;
  const path = location.pathname;
  getGame(id).catch((e: unknown) => {
    if (e instanceof ApiError && e.code === 'not_found' && location.pathname === path) missing(root, 'no such game');
  });
}

function route(): void {
  if (!app) return;
  leave?.();
  leave = null;
  const parts = location.pathname.split('/').filter((p) => p.length > 0);
  const game = ['play', 'watch', 'replay'].includes(parts[0] ?? '');
  const id = parts.length === 2 && parts[1] && /^[0-9a-f]{1,64}$/i.test(parts[1]) ? parts[1] : null;
  // An account's name (crates/server/src/players.rs, check_name).
  const player = parts[0] === 'players' && parts.length === 2 && /^[A-Za-z0-9_-]{3,20}$/.test(decodeURIComponent(parts[1] ?? '')) ? decodeURIComponent(parts[1] ?? '') : null;
  const fixed = parts.length === 1 && (parts[0] === 'replay' || parts[0] === 'players');
  // The addresses the server answers with a 404 (crates/server/src/assets.rs, client_page).
  if (parts.length > 0 && !fixed && !(game && id) && player === null) {
    missing(app, game && parts.length === 2 ? 'no such game' : 'no such page');
    return;
  }
  if (player !== null) {
    profilePage(app, player, navigate);
    return;
  }
  if (parts[0] === 'players') {
    leaderboardPage(app, navigate);
    return;
  }
  if (id) checkGame(app, id);
  if (parts[0] === 'play' && id) {
    const f = parseFragment(location.hash);
    const held = f.token !== null && f.seat !== null ? { seat: f.seat, token: f.token } : findToken(id, f.seat);
    if (held) {
      saveToken(id, held.seat, held.token);
      // Joining marks the seat as taken in the lobby; failing (already joined) is fine.
      void joinGame(id, held.token).catch(() => undefined);
    }
    leave = table(app, id, held?.token ?? null, navigate);
  } else if (parts[0] === 'watch' && id) {
    leave = table(app, id, null, navigate);
  } else if (parts[0] === 'replay') {
    leave = replay(app, id);
  } else {
    lobby(app, navigate);
  }
}

window.addEventListener('popstate', route);
if (document.documentElement.hasAttribute('data-board')) {
  // The server drew the board into the page (src/page.ts): let the browser
  // paint it first — the page's markup alone, the board at the size of its
  // viewport — and take it over once that frame is out (the next one has
  // begun), so that the client's work does not hold the first paint back
  // nor compete with it for the CPU. A hidden tab runs no frames: then
  // after a short wait.
  let done = false;
  const start = (): void => { if (!done) { done = true; route(); } };
  requestAnimationFrame(() => requestAnimationFrame(() => { window.setTimeout(start, 0); }));
  window.setTimeout(start, 300);
} else {
  route();
}
