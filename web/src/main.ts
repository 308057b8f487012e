// Routes by the address: / lobby, /play/ID (a seat: token from the invite
// link's fragment or this browser), /watch/ID (spectate), /replay[/ID].

import './style.css';
import { joinGame } from './api';
import { lobby } from './lobby';
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

function route(): void {
  if (!app) return;
  leave?.();
  leave = null;
  const parts = location.pathname.split('/').filter((p) => p.length > 0);
  const id = parts[1] && /^[0-9a-f]{1,64}$/i.test(parts[1]) ? parts[1] : null;
  if (parts[0] === 'play' && id) {
    const f = parseFragment(location.hash);
    const held = f.token !== null && f.seat !== null ? { seat: f.seat, token: f.token } : findToken(id, f.seat);
    if (held) {
      saveToken(id, held.seat, held.token);
      // Joining marks the seat as taken in the lobby; failing (already joined) is fine.
      void joinGame(id, held.token).catch(() => undefined);
    }
    leave = table(app, id, held?.token ?? null);
  } else if (parts[0] === 'watch' && id) {
    leave = table(app, id, null);
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
