import { describe, expect, it } from 'vitest';
import { parseServerMessage, type ScoreEvent } from '../src/protocol';
import { scoringEvents } from '../src/state';
import { parseRatings, rankingText, ratingWords } from '../src/summary';

describe('the end of a game', () => {
  it('names the winner and ranks everyone', () => {
    expect(rankingText(['RED', 'BLUE', 'GREEN'], [20, 34, 7], null)).toBe('BLUE wins with 34 points · 1. BLUE 34, 2. RED 20, 3. GREEN 7');
    expect(rankingText(['RED', 'BLUE'], [1, 0], null)).toBe('RED wins with 1 point · 1. RED 1, 2. BLUE 0');
  });
  it('equal scores share a place, and a shared first place is a shared win', () => {
    expect(rankingText(['RED', 'BLUE', 'GREEN'], [30, 30, 12], null)).toBe('RED and BLUE share the win with 30 points · 1. RED 30, 1. BLUE 30, 3. GREEN 12');
    expect(rankingText(['RED', 'BLUE', 'GREEN'], [40, 12, 12], null)).toBe('RED wins with 40 points · 1. RED 40, 2. BLUE 12, 2. GREEN 12');
  });
  it('a player who resigned is last, whatever their score', () => {
    expect(rankingText(['RED', 'BLUE'], [50, 10], 0)).toBe('BLUE wins with 10 points · 1. BLUE 10, 2. RED 50 (resigned)');
  });
  it('zero-point events stay out of the score log', () => {
    const m = parseServerMessage(JSON.stringify({ played: { version: 1, seat: 0, action: { pass: {} }, view: {
      players: ['RED', 'BLUE'], scores: [4, 0], finished: true, current_player: 0, phase: 'place', tiles_left: 0, supply: [7, 7], board: [], followers: [], seat: null,
      events: [
        { reason: 'completed', points: [4, 0], feature: 'city', x: 0, y: 0, place: 'N' },
        { reason: 'game end', points: [0, 0], feature: 'field', x: 0, y: -6, place: 'S' },
      ],
    }, events: [] } }));
    if (m.type !== 'played') throw new Error('a played message');
    const shown: ScoreEvent[] = scoringEvents(m.view.events);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.points).toEqual([4, 0]);
  });
});

describe('rating changes at the end of a rated game', () => {
  it('reads the server\'s answer and says each change with its sign', () => {
    const r = parseRatings({ rated: true, changes: [{ seat: 1, player: 'anna', before: 1500, after: 1661.96, change: 161.96 }, { seat: 0, player: 'bert', before: 1500, after: 1338.04 }] });
    expect(r.rated).toBe(true);
    expect(ratingWords(['RED', 'BLUE'], r.changes)).toBe('BLUE (anna): 1500 → 1662 (+162.0), RED (bert): 1500 → 1338 (−162.0)');
    expect(parseRatings({ rated: false, changes: [] }).changes).toEqual([]);
  });
});
