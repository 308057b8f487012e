// The waiting room: a game with people's seats still open waits, showing
// who has come, handing out invite links (never one's own seat's), and
// starts when every seat is taken.

import { h } from './dom';
import type { GameState } from './state';
import { inviteLink, invites } from './tokens';

/**
 * Whether this table should start the game now: it is open, every seat is
 * taken, and this is the first person's seat (one table asks, so that two
 * do not race; any seat may still press "Start now").
 */
export function shouldStart(s: GameState): boolean {
  const first = s.seats.find((x) => x.kind === 'human');
  return s.status === 'open' && s.seat !== null && first?.seat === s.seat && s.seats.every((x) => x.joined);
}

/** What the waiting room of a rated game needs: its seats go to signed-in players by `sit`. */
export interface Rated {
  /** Whether this visitor is signed in (a guest cannot take a rated seat). */
  signedIn: boolean;
  /** Takes the first free seat for this visitor's account. */
  take: () => void;
  /** Why taking the seat failed, or null. */
  failed: string | null;
}

/** Whether a person's seat is free: nobody joined it and no account holds it. */
function free(x: { kind: string; joined: boolean; player?: string | null }): boolean {
  return x.kind === 'human' && !x.joined && !x.player;
}

export interface WaitingRoom {
  game: string;
  /** This seat's token (none for a spectator: no start button). */
  token: string | null;
  start: () => void;
  /** The seat whose link was copied last, and what became of it (shown beside its button). */
  copied: { seat: number; text: string } | null;
  copy: (seat: number, link: string) => void;
  /** The server's sentence once the game is gone (`gone`: nobody joined in time), or null. */
  gone: string | null;
  /** Opens the lobby (without reloading the page). */
  toLobby: () => void;
  /** Set for a rated game (null: unrated, or not known yet). */
  rated: Rated | null;
}

export function waitingRoom(s: GameState, room: WaitingRoom): HTMLElement {
  // Gone: nothing to wait for any more; say so and lead back to the lobby.
  if (room.gone !== null) {
    return h('section', { class: 'panel', id: 'waiting', 'aria-label': 'Waiting room' },
      h('h2', {}, 'Waiting room'),
      h('p', { id: 'waiting-gone', role: 'status' }, room.gone.endsWith('.') ? room.gone : `${room.gone}.`),
      h('p', {}, h('a', { href: '/', id: 'gone-to-lobby', onclick: (e: Event) => { e.preventDefault(); room.toLobby(); } }, 'Back to the lobby')));
  }
  const people = s.seats.filter((x) => x.kind === 'human');
  const here = people.filter((x) => x.joined).length;
  // The other seats' tokens this browser keeps (it created the game); never this seat's own.
  const links = new Map(invites(room.game).filter((i) => i.seat !== s.seat).map((i) => [i.seat, inviteLink(location.origin, room.game, i.seat, i.token)]));
  // A rated game hands out no tokens: its address is every free seat's invite, taken by a signed-in player.
  const address = `${location.origin}/play/${encodeURIComponent(room.game)}`;
  if (room.rated && s.seat !== null) for (const x of s.seats) if (x.seat !== s.seat && free(x)) links.set(x.seat, address);
  const anyFree = s.seats.some(free);
  return h('section', { class: 'panel', id: 'waiting', 'aria-label': 'Waiting room' },
    h('h2', {}, 'Waiting room'),
    h('p', { id: 'waiting-count' }, `${here} of ${people.length} ${people.length === 1 ? 'person' : 'people'} here: the game starts when every seat is taken.`),
    h('ul', { class: 'seats' }, ...s.seats.map((x) => {
      const link = links.get(x.seat);
      const who = x.kind !== 'human' ? x.kind : x.seat === s.seat ? 'you' : x.joined ? 'here' : 'waiting…';
      return h('li', { 'data-seat': x.seat, 'data-joined': String(x.joined) }, `${s.players[x.seat] ?? `seat ${x.seat}`}: ${who}`,
        link && !x.joined ? [' ', h('button', { class: 'copy-invite', 'data-seat': x.seat, type: 'button', onclick: () => room.copy(x.seat, link) }, 'Copy invite link')] : null,
        room.copied?.seat === x.seat ? [' ', h('span', { class: 'copied', role: 'status' }, room.copied.text)] : null);
    })),
    room.rated && s.seat !== null && anyFree ? h('p', { id: 'rated-invite' }, 'A rated game: a signed-in player takes a seat by opening ', h('code', {}, address), '.') : null,
    room.rated && s.seat === null && anyFree ? seatOffer(room.rated, room.toLobby) : null,
    room.token ? h('button', { id: 'start', type: 'button', onclick: room.start }, 'Start now') : null);
}

/** A visitor's way into a free seat of a rated game: "Take this seat" when signed in, else where to sign in. */
function seatOffer(rated: Rated, toLobby: () => void): HTMLElement {
  if (!rated.signedIn) {
    return h('p', { id: 'sign-in-to-sit' }, 'This game is rated: ',
      h('a', { href: '/', onclick: (e: Event) => { e.preventDefault(); toLobby(); } }, 'sign in'), ' in the lobby, then open this address again to take a seat.');
  }
  return h('p', {}, h('button', { id: 'take-seat', type: 'button', onclick: rated.take }, 'Take this seat'),
    rated.failed ? [' ', h('span', { class: 'error', role: 'alert' }, rated.failed)] : null);
}
