import { describe, expect, it } from 'vitest';
import { parseServerMessage } from '../src/protocol';
import { reduce, type GameState } from '../src/state';
import { shouldStart } from '../src/waiting';

const seats = (joined: boolean[], kinds = ['human', 'human', 'greedy']) => kinds.map((kind, seat) => ({ seat, kind, joined: joined[seat] ?? false }));
const welcome = (seat: number | null, joined: boolean[]) => JSON.stringify({ welcome: {
  game: 'abc', seat, status: 'open', version: 0, resigned: null, players: ['RED', 'BLUE', 'GREEN'],
  seats: seats(joined), config: {}, view: null,
} });
const status = (joined: boolean[], s = 'open') => JSON.stringify({ status: { status: s, version: 0, resigned: null, seats: seats(joined), view: null } });
const at = (seat: number | null, joined: boolean[]): GameState | null => reduce(null, parseServerMessage(welcome(seat, joined)));

describe('the waiting room', () => {
  it('a seat claimed or left before the start is read from the status message', () => {
    const s = reduce(at(0, [true, false, true]), parseServerMessage(status([true, true, true])));
    expect(s?.seats.map((x) => x.joined)).toEqual([true, true, true]);
    const left = reduce(s, parseServerMessage(status([true, false, true])));
    expect(left?.seats.map((x) => x.joined)).toEqual([true, false, true]);
    expect(left?.status).toBe('open');
  });
  it('the first person\'s table starts the game once every seat is taken', () => {
    const full = reduce(at(0, [true, false, true]), parseServerMessage(status([true, true, true])));
    expect(full && shouldStart(full)).toBe(true);
    const waiting = at(0, [true, false, true]);
    expect(waiting && shouldStart(waiting)).toBe(false);
    // Another seat's table, or a spectator's, leaves it to the first.
    const other = at(1, [true, true, true]);
    expect(other && shouldStart(other)).toBe(false);
    const spectator = at(null, [true, true, true]);
    expect(spectator && shouldStart(spectator)).toBe(false);
    // Started already: nothing to do.
    const started = full && reduce(full, parseServerMessage(status([true, true, true], 'playing')));
    expect(started && shouldStart(started)).toBe(false);
  });
  it('an expired game\'s `gone` message is read, and leaves the state as it was', () => {
    const m = parseServerMessage(JSON.stringify({ gone: { reason: 'expired', message: 'This game expired: nobody joined within an hour' } }));
    expect(m).toEqual({ type: 'gone', reason: 'expired', message: 'This game expired: nobody joined within an hour' });
    const s = at(0, [true, false, true]);
    expect(reduce(s, m)).toBe(s);
    expect(() => parseServerMessage(JSON.stringify({ gone: { reason: 'expired' } }))).toThrow();
  });
});
