// The lobby's player panel (docs/server.md, "Players"): sign up, sign in
// and out, the signed-in player's games ("your turn" first) and profile:
// ratings per class and recent games with their replay and record.
// The session is an HttpOnly cookie: this code never sees it, the
// browser sends it with every same-origin request.

import { call } from './api';
import { h, errorText } from './dom';
import { arr, bool, int, num, obj, opt, str } from './json';

export interface Session { name: string | null }

export interface MyGame { game: string; seat: number; status: string; rated: boolean; yourTurn: boolean }

export interface Standing { rating: number; deviation: number; games: number; wins: number }

export interface RecentGame {
  game: string; status: string; rated: boolean; place: number | null; change: number | null; record: string; replay: string;
}

/** What one rated game did to the rating: a point of the profile's chart. */
export interface RatingPoint { game: string; class: string; before: number; after: number; deviation: number; at: number }

export interface Profile { name: string; ratings: Record<string, Standing>; games: number; wins: number; recent: RecentGame[]; history: RatingPoint[] }

export function parseSession(v: unknown): Session {
  const o = obj(v, 'session');
  return { name: bool(o.signed_in, 'signed_in') ? str(o.name, 'name') : null };
}

export function parseMyGames(v: unknown): MyGame[] {
  const o = obj(v, 'my games');
  return arr(o.games, 'games', (g, p) => {
    const x = obj(g, p);
    return {
      game: str(x.game, `${p}.game`), seat: int(x.seat, `${p}.seat`), status: str(x.status, `${p}.status`),
      rated: bool(x.rated, `${p}.rated`), yourTurn: opt(x.your_turn, `${p}.your_turn`, bool) ?? false,
    };
  });
}

function parseStanding(v: unknown, p: string): Standing {
  const o = obj(v, p);
  return { rating: num(o.rating, `${p}.rating`), deviation: num(o.deviation, `${p}.deviation`), games: int(o.games, `${p}.games`), wins: int(o.wins, `${p}.wins`) };
}

export function parseProfile(v: unknown): Profile {
  const o = obj(v, 'profile');
  const ratings: Record<string, Standing> = {};
  for (const [k, s] of Object.entries(obj(o.ratings, 'ratings'))) ratings[k] = parseStanding(s, `ratings.${k}`);
  return {
    name: str(o.name, 'name'), ratings, games: int(o.games, 'games'), wins: int(o.wins, 'wins'),
    recent: arr(o.recent, 'recent', (g, p) => {
      const x = obj(g, p);
      const rating = opt(x.rating, `${p}.rating`, obj);
      return {
        game: str(x.game, `${p}.game`), status: str(x.status, `${p}.status`), rated: bool(x.rated, `${p}.rated`),
        place: opt(x.place, `${p}.place`, int), change: rating ? num(rating.change, `${p}.rating.change`) : null,
        record: str(x.record, `${p}.record`), replay: str(x.replay, `${p}.replay`),
      };
    }),
    // Oldest first; a server from before the chart sends none.
    history: opt(o.history, 'history', (v, q) => arr(v, q, (x, p) => {
      const y = obj(x, p);
      return {
        game: str(y.game, `${p}.game`), class: str(y.class, `${p}.class`), before: num(y.before, `${p}.before`),
        after: num(y.after, `${p}.after`), deviation: num(y.deviation, `${p}.deviation`), at: int(y.at, `${p}.at`),
      };
    })) ?? [],
  };
}

/** The signed-in player's open and running games (none when signed out). */
export async function myGames(): Promise<MyGame[]> {
  const session = parseSession(await call('/api/session'));
  return session.name === null ? [] : parseMyGames(await call('/api/me/games'));
}

/** The address of a player's page. */
export function profileHref(name: string): string {
  return `/players/${encodeURIComponent(name)}`;
}

/**
 * A link to a player's page that stays in the client (`navigate`) on a
 * plain click; other clicks (a new tab) follow the address.
 */
export function playerLink(name: string, navigate: (path: string) => void, attrs: Record<string, string> = {}): HTMLAnchorElement {
  const href = profileHref(name);
  return h('a', {
    ...attrs, href, class: `player-link${attrs.class ? ` ${attrs.class}` : ''}`,
    onclick: (e: Event) => {
      const m = e as MouseEvent;
      if (m.button !== 0 || m.ctrlKey || m.metaKey || m.shiftKey || m.altKey) return;
      e.preventDefault();
      navigate(href);
    },
  }, name);
}

/** A rating as people read it: whole points, ± the deviation. */
export function ratingText(s: Standing): string {
  return `${Math.round(s.rating)} ± ${Math.round(s.deviation)} (${s.games} game${s.games === 1 ? '' : 's'}, ${s.wins} won)`;
}

/** A rating change with its sign: "+12.3", "−4.0". */
export function changeText(change: number): string {
  return `${change < 0 ? '−' : '+'}${Math.abs(change).toFixed(1)}`;
}

function send(path: string, method: string, body?: unknown): Promise<unknown> {
  return call(path, body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/**
 * The player panel: a sign-up and sign-in form for a guest; for a
 * signed-in player their name, sign-out, their games and their profile.
 * `changed` is called after signing in or out (the lobby redraws).
 */
export function accountPanel(navigate: (path: string) => void, changed: () => void): HTMLElement {
  const panel = h('section', { class: 'panel account', id: 'account', 'aria-label': 'Your account' });
  const draw = async (): Promise<void> => {
    let session: Session;
    try {
      session = parseSession(await call('/api/session'));
    } catch (err) {
      panel.replaceChildren(h('p', { class: 'error' }, `Could not read your session: ${errorText(err)}`));
      return;
    }
    if (session.name === null) signedOut();
    else await signedIn(session.name);
  };
  const signedOut = (): void => {
    const name = h('input', { id: 'account-name', autocomplete: 'username', required: true, minlength: 3, maxlength: 20, 'aria-label': 'Name' });
    const password = h('input', { id: 'account-password', type: 'password', autocomplete: 'current-password', required: true, minlength: 8, maxlength: 128, 'aria-label': 'Password' });
    const message = h('p', { role: 'status', class: 'status' });
    const act = async (create: boolean): Promise<void> => {
      const body = { name: name.value, password: password.value };
      try {
        if (create) await send('/api/accounts', 'POST', body);
        await send('/api/sessions', 'POST', body);
        changed();
        await draw();
      } catch (err) {
        message.textContent = errorText(err);
      }
    };
    panel.replaceChildren(h('form', { onsubmit: (e: Event) => { e.preventDefault(); void act(false); }, 'aria-label': 'Sign in' },
      h('h2', {}, 'Play as yourself'),
      h('p', {}, 'Guests play with one click; an account keeps your games, your history and your rating.'),
      h('label', {}, 'Name ', name), ' ', h('label', {}, 'Password ', password), ' ',
      h('button', { type: 'submit', id: 'sign-in' }, 'Sign in'), ' ',
      h('button', { type: 'button', id: 'sign-up', onclick: () => { void act(true); } }, 'Sign up'), message));
  };
  const signedIn = async (name: string): Promise<void> => {
    const out = h('button', { id: 'sign-out', onclick: () => { void send('/api/sessions', 'DELETE').then(() => { changed(); return draw(); }).catch((err: unknown) => { panel.append(h('p', { class: 'error' }, errorText(err))); }); } }, 'Sign out');
    const link = (href: string, text: string): HTMLElement => h('a', { href, onclick: (e: Event) => { e.preventDefault(); navigate(href); } }, text);
    let profile: Profile | null = null;
    try {
      profile = await call(`/api/players/${encodeURIComponent(name)}`).then(parseProfile);
    } catch (err) {
      panel.append(h('p', { class: 'error' }, `Could not read your games: ${errorText(err)}`));
    }
    const ratings = profile ? Object.entries(profile.ratings) : [];
    // Changing the password needs the current one; it ends every other
    // session of the account (the server's rule), this one stays.
    const current = h('input', { id: 'password-current', type: 'password', autocomplete: 'current-password', required: true, maxlength: 128, 'aria-label': 'Current password' });
    const fresh = h('input', { id: 'password-new', type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 128, 'aria-label': 'New password' });
    const said = h('p', { role: 'status', class: 'status', id: 'account-status' });
    const change = async (): Promise<void> => {
      try {
        const r = await send('/api/me/password', 'POST', { current: current.value, new: fresh.value });
        const ended = typeof r === 'object' && r !== null && 'signed_out' in r ? Number(r.signed_out) : 0;
        current.value = '';
        fresh.value = '';
        said.textContent = `Password changed${ended > 0 ? `; ${ended} other session${ended === 1 ? '' : 's'} signed out` : ''}.`;
      } catch (err) {
        said.textContent = errorText(err);
      }
    };
    const everywhere = h('button', { type: 'button', id: 'sign-out-everywhere', onclick: () => { void send('/api/me/sessions', 'DELETE').then(() => { changed(); return draw(); }).catch((err: unknown) => { said.textContent = errorText(err); }); } }, 'Sign out everywhere');
    const manage = h('details', { id: 'account-manage' }, h('summary', {}, 'Password and sessions'),
      h('form', { onsubmit: (e: Event) => { e.preventDefault(); void change(); }, 'aria-label': 'Change password' },
        h('label', {}, 'Current password ', current), ' ', h('label', {}, 'New password ', fresh), ' ',
        h('button', { type: 'submit', id: 'change-password' }, 'Change password')),
      everywhere, said);
    panel.replaceChildren(
      h('h2', {}, 'Signed in as ', playerLink(name, navigate, { id: 'my-profile' })), out, ' ',
      h('a', { href: '/players', id: 'to-leaderboard', onclick: (e: Event) => { e.preventDefault(); navigate('/players'); } }, 'Leaderboard'),
      h('h3', {}, 'Ratings'),
      ratings.length === 0 ? h('p', {}, 'No rated games yet.') : h('ul', { id: 'my-ratings' }, ...ratings.map(([c, s]) => h('li', {}, `${c === 'duel' ? 'Two players' : 'Three to six'}: ${ratingText(s)}`))),
      h('h3', {}, 'Recent games'),
      !profile || profile.recent.length === 0 ? h('p', {}, 'None finished yet.') : h('ul', { id: 'my-history' }, ...profile.recent.map((g) => h('li', { 'data-game': g.game },
        `${g.rated ? 'Rated game' : 'Game'}: ${g.place === null ? g.status : g.place === 1 ? 'won' : `place ${g.place}`}`, g.change === null ? '' : ` (${changeText(g.change)})`, ' ',
        link(g.replay, 'replay'), ' ', h('a', { href: g.record, download: `bastide-${g.game}.json` }, 'record')))),
      manage);
  };
  void draw();
  return panel;
}
