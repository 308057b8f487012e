// Seat tokens kept in this browser, so the creator of a game and a player
// who reloads find their seat without the invite link.

const KEY = 'bastide.tokens';

type Tokens = Record<string, Record<string, string>>;

function load(): Tokens {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return typeof v === 'object' && v !== null ? (v as Tokens) : {};
  } catch {
    return {};
  }
}

export function saveToken(game: string, seat: number, token: string): void {
  const t = load();
  t[game] = { ...(t[game] ?? {}), [String(seat)]: token };
  localStorage.setItem(KEY, JSON.stringify(t));
}

/** The token of `seat` (or of the first seat held here) for `game`. */
export function findToken(game: string, seat: number | null): { seat: number; token: string } | null {
  const g = load()[game] ?? {};
  const entries = Object.entries(g).filter(([s, tok]) => typeof tok === 'string' && (seat === null || Number(s) === seat));
  const first = entries[0];
  return first ? { seat: Number(first[0]), token: first[1] } : null;
}

/** Reads `#seat=N&token=T` from an invite link. */
export function parseFragment(hash: string): { seat: number | null; token: string | null } {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const seat = p.get('seat');
  const token = p.get('token');
  return { seat: seat !== null && /^\d+$/.test(seat) ? Number(seat) : null, token: token && /^[0-9a-f]{1,128}$/i.test(token) ? token : null };
}
