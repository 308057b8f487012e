// Seat tokens kept in this browser, so the creator of a game and a player
// who reloads find their seat without the invite link.

const KEY = 'bastide.tokens';
/**
 * The other seats' tokens of games created here, kept apart from this
 * browser's own seats: they are handed on as invite links, never played
 * from here (a seat found for `/play/ID` is always one's own).
 */
const INVITES = 'bastide.invites';

type Tokens = Record<string, Record<string, string>>;

function load(key = KEY): Tokens {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? '{}');
    return typeof v === 'object' && v !== null ? (v as Tokens) : {};
  } catch {
    return {};
  }
}

export function saveToken(game: string, seat: number, token: string, key = KEY): void {
  const t = load(key);
  t[game] = { ...(t[game] ?? {}), [String(seat)]: token };
  localStorage.setItem(key, JSON.stringify(t));
}

function held(game: string, seat: number | null, key: string): { seat: number; token: string }[] {
  const g = load(key)[game] ?? {};
  return Object.entries(g).filter(([s, tok]) => typeof tok === 'string' && (seat === null || Number(s) === seat)).map(([s, token]) => ({ seat: Number(s), token }));
}

/** The token of `seat` (or of the first seat held here) for `game`. */
export function findToken(game: string, seat: number | null): { seat: number; token: string } | null {
  return held(game, seat, KEY)[0] ?? null;
}

/** Every game this browser holds a seat of, with the seat and its token (one seat per game: the first kept). */
export function heldGames(): { game: string; seat: number; token: string }[] {
  return Object.keys(load(KEY)).flatMap((game) => {
    const t = findToken(game, null);
    return t ? [{ game, ...t }] : [];
  });
}

/** Forgets this browser's seats of `game` (a game the server no longer has). */
export function forgetGame(game: string): void {
  const t = Object.fromEntries(Object.entries(load(KEY)).filter(([g]) => g !== game));
  localStorage.setItem(KEY, JSON.stringify(t));
}

/** Keeps another seat's token of a game created here, to invite its player. */
export function saveInvite(game: string, seat: number, token: string): void {
  saveToken(game, seat, token, INVITES);
}

/** The other seats' tokens of `game` kept here (see `INVITES`). */
export function invites(game: string): { seat: number; token: string }[] {
  return held(game, null, INVITES);
}

/** The invite link for a seat: this server's address, the seat and its token in the fragment (never sent to a server). */
export function inviteLink(origin: string, game: string, seat: number, token: string): string {
  return `${origin}/play/${encodeURIComponent(game)}#seat=${seat}&token=${token}`;
}

/** Reads `#seat=N&token=T` from an invite link. */
export function parseFragment(hash: string): { seat: number | null; token: string | null } {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const seat = p.get('seat');
  const token = p.get('token');
  return { seat: seat !== null && /^\d+$/.test(seat) ? Number(seat) : null, token: token && /^[0-9a-f]{1,128}$/i.test(token) ? token : null };
}
