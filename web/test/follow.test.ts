import { describe, expect, it } from 'vitest';
import { botThinking, gains, gainsBySeat, hasGap, lastTiles, mergeLog } from '../src/follow';
import { parseAction, parseEvent } from '../src/protocol';
import type { LogEntry } from '../src/state';

const entry = (version: number, seat: number, action: object, events: object[] = []): LogEntry => ({
  version, seat, action: parseAction(action), events: events.map((e, i) => parseEvent(e, `e${i}`)),
});
const place = (x: number, y: number, half?: string): object => ({ place: { tile: 'base/U', x, y, rotation: 0, ...(half ? { half } : {}) } });

describe('moves one can follow', () => {
  const log = [
    entry(1, 0, place(1, 0)), entry(2, 0, { pass: {} }),
    entry(3, 1, place(2, 0, 'NW')), entry(4, 1, { follower: { x: 2, y: 0, place: 'N', half: 'NW' } }),
    entry(5, 0, place(0, 1)), entry(6, 0, { pass: {} }, [{ reason: 'completed', points: [4, 0], feature: 'city', x: 0, y: 1, place: 'N' }, { reason: 'gingerbread', points: [0, 2] }]),
  ];

  it('outlines each seat\'s last tile', () => {
    expect(lastTiles(log)).toEqual([{ seat: 0, x: 0, y: 1, half: null }, { seat: 1, x: 2, y: 0, half: 'NW' }]);
    expect(lastTiles([])).toEqual([]);
  });

  it('shows "+N" over the scored feature, and one without a place over the last tile and at the seat', () => {
    const last = log[5];
    if (!last) throw new Error('log');
    expect(gains(last, { x: 0, y: 1 })).toEqual([
      { seat: 0, points: 4, x: 0, y: 1, reason: 'completed', feature: 'city' },
      { seat: 1, points: 2, x: 0, y: 1, reason: 'gingerbread', feature: null },
    ]);
    expect(gains(last)[1]).toMatchObject({ x: null, y: null });
    expect([...gainsBySeat(gains(last))]).toEqual([[0, 4], [1, 2]]);
    expect(gains(log[0] as LogEntry)).toEqual([]);
  });

  it('rebuilds the history from the server\'s log and what came live, each version once', () => {
    const merged = mergeLog(log.slice(0, 4), log.slice(2));
    expect(merged.map((m) => m.version)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(mergeLog([], log.slice(4)).map((m) => m.version)).toEqual([5, 6]);
  });
});

describe('a bot thinking', () => {
  const seats = [{ seat: 0, kind: 'human' }, { seat: 1, kind: 'mcts:200' }];
  it('is the bot seat to act in a running game', () => {
    expect(botThinking('playing', 1, seats)).toBe(1);
    expect(botThinking('playing', 0, seats)).toBeNull();
    expect(botThinking('finished', 1, seats)).toBeNull();
    expect(botThinking('playing', null, seats)).toBeNull();
  });
});

describe('a history with a gap is asked for again', () => {
  const e = (v: number): LogEntry => ({ version: v, seat: 0, action: parseAction({ pass: {} }), events: [] });
  it('is whole only with every version from 1', () => {
    expect(hasGap([e(1), e(2), e(3)], 3)).toBe(false);
    expect(hasGap([e(1), e(3)], 3)).toBe(true);
    expect(hasGap([e(2), e(3)], 3)).toBe(true);
    expect(hasGap([], 0)).toBe(false);
    expect(hasGap([e(1)], 2)).toBe(true);
  });
});
