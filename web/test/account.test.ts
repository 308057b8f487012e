import { describe, expect, it } from 'vitest';
import { changeText, parseMyGames, parseProfile, parseSession, ratingText } from '../src/account';

describe('the player panel', () => {
  it('reads who is signed in', () => {
    expect(parseSession({ signed_in: true, name: 'Alice', profile: '/api/players/Alice' })).toEqual({ name: 'Alice' });
    expect(parseSession({ signed_in: false, name: null })).toEqual({ name: null });
  });
  it('reads my games, your turn included', () => {
    const games = parseMyGames({ name: 'Alice', games: [
      { game: 'ab', seat: 0, status: 'playing', created: 1, rated: true, your_turn: true, record: '/r', replay: '/p', play: '/play/ab' },
      { game: 'cd', seat: 1, status: 'open', created: 0, rated: false, your_turn: false, record: '/r', replay: '/p', play: '/play/cd' },
    ] });
    expect(games.map((g) => [g.game, g.yourTurn])).toEqual([['ab', true], ['cd', false]]);
  });
  it('reads a profile with ratings and rating changes', () => {
    const p = parseProfile({ name: 'bob', games: 1, wins: 0, ratings: { duel: { rating: 1337.6, deviation: 290.3, volatility: 0.06, games: 1, wins: 0 } },
      recent: [{ game: 'ab', seat: 1, status: 'finished', created: 0, rated: true, place: 2, won: false,
        rating: { before: 1500, after: 1337.6, change: -162.4 }, record: '/api/games/ab/record', replay: '/replay/ab', play: '/play/ab' }] });
    expect(p.recent[0]?.change).toBeCloseTo(-162.4);
    expect(p.recent[0]?.place).toBe(2);
    const duel = p.ratings.duel;
    if (!duel) throw new Error('a duel rating');
    expect(ratingText(duel)).toBe('1338 ± 290 (1 game, 0 won)');
    expect(changeText(-162.4)).toBe('−162.4');
    expect(changeText(12.25)).toBe('+12.3');
  });
});

describe('the lobby\'s games', () => {
  it('name the players holding seats, and say which games are rated', async () => {
    const { parseSummary } = await import('../src/api');
    const g = parseSummary({ id: 'ab', status: 'open', version: 0, players: ['RED', 'BLUE'],
      seats: [{ seat: 0, kind: 'human', joined: true, player: 'Alice' }, { seat: 1, kind: 'greedy', joined: true, player: null }],
      scores: [0, 0], resigned: null, created: 0, config: {}, rated: true });
    expect(g.names).toEqual(['Alice', null]);
    expect(g.rated).toBe(true);
    // An older server's summary has neither.
    const old = parseSummary({ id: 'ab', status: 'open', version: 0, players: ['RED'], seats: [{ seat: 0, kind: 'human', joined: false }], scores: [0], resigned: null, created: 0, config: {} });
    expect(old.names).toEqual([null]);
    expect(old.rated).toBe(false);
  });
});
