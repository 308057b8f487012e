import { describe, expect, it } from 'vitest';
import { chartLayout, parseLeaderboard } from '../src/profile';
import { parseProfile } from '../src/account';

const point = (after: number, deviation: number, game = 'ab') => ({ game, class: 'duel', before: 1500, after, deviation, at: 0 });

describe('the profile page', () => {
  it('reads the rating history, oldest first, and none from an older server', () => {
    const base = { name: 'bob', games: 1, wins: 0, ratings: {}, recent: [] };
    expect(parseProfile(base).history).toEqual([]);
    const p = parseProfile({ ...base, history: [{ game: 'ab', class: 'duel', before: 1500, after: 1662.3, deviation: 290.3, at: 5 }] });
    expect(p.history).toEqual([point(1662.3, 290.3)].map((x) => ({ ...x, at: 5 })));
  });
  it('lays one game out in the middle, with a band around it', () => {
    const c = chartLayout([point(1662, 290)], 480, 160);
    expect(c.dots).toHaveLength(1);
    expect(c.dots[0]?.x).toBe(240);
    expect(c.low).toBe(1662 - 290);
    expect(c.high).toBe(1662 + 290);
    // The band's four corners: a short flat band either side of the dot.
    expect(c.band.split(' ')).toHaveLength(4);
    expect(c.dots[0]?.y).toBeCloseTo(80, 5);
  });
  it('spreads games along x and keeps the band in the box', () => {
    const c = chartLayout([point(1500, 350, 'a'), point(1600, 250, 'b'), point(1550, 200, 'c')], 480, 160);
    expect(c.dots.map((d) => d.x)).toEqual([10, 240, 470]);
    for (const xy of c.band.split(' ')) {
      const [x, y] = xy.split(',').map(Number);
      expect(x).toBeGreaterThanOrEqual(10); expect(x).toBeLessThanOrEqual(470);
      expect(y).toBeGreaterThanOrEqual(10 - 1e-9); expect(y).toBeLessThanOrEqual(150 + 1e-9);
    }
    // A higher rating is drawn higher up.
    expect(c.dots[1]?.y).toBeLessThan(c.dots[0]?.y ?? 0);
  });
  it('reads the leaderboard', () => {
    expect(parseLeaderboard({ class: 'duel', players: [{ name: 'a_b', rating: 1600, deviation: 80, volatility: 0.06, games: 3, wins: 2 }] }).players[0]?.name).toBe('a_b');
    expect(() => parseLeaderboard({ class: 'duel', players: [{ name: 1 }] })).toThrow();
  });
});
