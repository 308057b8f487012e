import { describe, expect, it } from 'vitest';
import type { GameSummary } from '../src/api';
import { openFor, turnWords, unusedRoom } from '../src/gamelist';

const game = (over: Partial<GameSummary>): GameSummary => ({
  id: 'g', status: 'playing', version: 3, players: ['RED', 'BLUE'], scores: [0, 0], resigned: null, created: 0, config: {},
  seats: [{ seat: 0, kind: 'human', joined: true }, { seat: 1, kind: 'human', joined: true }], names: [null, null], rated: false,
  clock: null, private: false, toMove: 1, ...over,
});

describe('"Your games" rows', () => {
  it('say whose turn it is, a guest\'s games too', () => {
    expect(turnWords(game({ toMove: 0 }), 0, false)).toBe('Your turn: ');
    expect(turnWords(game({ toMove: 1 }), 0, false)).toBe('BLUE to play: ');
    // The account's word counts even before the summary says it.
    expect(turnWords(game({ toMove: 1 }), 0, true)).toBe('Your turn: ');
    expect(turnWords(game({ status: 'open', toMove: null }), 0, false)).toBeNull();
  });

  it('tell a waiting room nobody joined from one someone came to', () => {
    const open = game({ status: 'open', toMove: null, seats: [{ seat: 0, kind: 'human', joined: true }, { seat: 1, kind: 'human', joined: false }, { seat: 2, kind: 'greedy', joined: true }] });
    expect(unusedRoom(open, 0)).toBe(true);
    // Not the creator's seat: not theirs to cancel.
    expect(unusedRoom(open, 1)).toBe(false);
    expect(unusedRoom({ ...open, seats: open.seats.map((x) => ({ ...x, joined: true })) }, 0)).toBe(false);
    expect(unusedRoom(game({}), 0)).toBe(false);
  });

  it('say how long a room has been open', () => {
    expect(openFor(0, 30_000)).toBe('open for a moment');
    expect(openFor(0, 12 * 60_000 + 5)).toBe('open for 12 min');
  });
});
