import { describe, expect, it } from 'vitest';
import { botThinking, fetchHistory, finalScoring, gains, gainsBySeat, hasGap, isFinalMove, lastTiles, mergeLog, parseLogPage, scoresDuring } from '../src/follow';
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

describe('the history read from the server\'s move log', () => {
  const move = (version: number): object => ({ version, seat: version % 2, action: { pass: {} }, events: [] });
  /** A server whose log holds `n` moves, `size` a page. */
  const server = (n: number, size: number, asked: string[]) => (path: string): Promise<unknown> => {
    asked.push(path);
    const since = Number(new URL(path, 'http://x').searchParams.get('since'));
    const last = Math.min(n, since + size);
    const moves = Array.from({ length: last - since }, (_, i) => move(since + i + 1));
    return Promise.resolve({ game: 'g', version: n, since, moves, next: last < n ? last : null });
  };

  it('follows each page\'s next until the last, each move once', async () => {
    const asked: string[] = [];
    const got = await fetchHistory('g', server(450, 200, asked));
    expect(got?.map((m) => m.version)).toEqual(Array.from({ length: 450 }, (_, i) => i + 1));
    expect(asked).toEqual(['/api/games/g/log?since=0', '/api/games/g/log?since=200', '/api/games/g/log?since=400']);
    expect(hasGap(got ?? [], 450)).toBe(false);
  });

  it('is nothing (asked again later) when a page is refused or not shaped as documented', async () => {
    expect(await fetchHistory('g', () => Promise.reject(new Error('503')))).toBeNull();
    expect(await fetchHistory('g', () => Promise.resolve({ version: 1, since: 0, moves: [{ version: 1 }], next: null }))).toBeNull();
    expect(() => parseLogPage({ version: 1, since: 0, moves: [] })).toThrow();
  });

  it('stops at a next page that does not move on', async () => {
    let calls = 0;
    const stuck = (): Promise<unknown> => { calls += 1; return Promise.resolve({ version: 5, since: 0, moves: [move(1)], next: 0 }); };
    expect((await fetchHistory('g', stuck))?.length).toBe(1);
    expect(calls).toBe(1);
  });
});

describe('the final scoring, one feature after another', () => {
  const end = (feature: string, x: number, points: number[]): object => ({ reason: 'game end', feature, x, y: 0, place: 'N', points });
  const last = entry(40, 1, { pass: {} }, [
    { reason: 'completed', feature: 'road', x: 9, y: 9, place: 'E', points: [0, 3] },
    end('field', 1, [9, 0]), end('city', 2, [0, 4]), end('road', 3, [0, 0]), end('field', 4, [0, 6]), end('monastery', 5, [5, 5]),
  ]);

  it('is the last move\'s, the one with the game end events', () => {
    expect(isFinalMove(last)).toBe(true);
    expect(isFinalMove(entry(3, 0, { pass: {} }, [{ reason: 'completed', points: [2, 0] }]))).toBe(false);
  });

  it('shows what scored in the engine\'s order, the farms last, each in its turn, then the result', () => {
    const f = finalScoring(last, false, 1000, 60_000);
    expect(f.steps.map((s) => [s.event.feature, s.event.x])).toEqual([['road', 9], ['city', 2], ['monastery', 5], ['field', 1], ['field', 4]]);
    expect(f.steps.map((s) => s.at)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(f.resultAt).toBe(5000);
    // Each step's "+N" over its own feature, for each seat it paid (the monastery shared).
    expect(f.steps[2]?.gains).toEqual([
      { seat: 0, points: 5, x: 5, y: 0, reason: 'game end', feature: 'monastery' },
      { seat: 1, points: 5, x: 5, y: 0, reason: 'game end', feature: 'monastery' },
    ]);
    expect(f.steps[4]?.gains).toEqual([{ seat: 1, points: 6, x: 4, y: 0, reason: 'game end', feature: 'field' }]);
  });

  it('takes shorter steps when there are many, so the whole stays within its bound', () => {
    const f = finalScoring(last, false, 1000, 2500);
    expect(f.stepMs).toBe(500);
    expect(f.resultAt).toBe(2500);
  });

  it('shows everything at once, the result with it, with reduced motion', () => {
    const f = finalScoring(last, true);
    expect(f.steps).toHaveLength(5);
    expect(f.steps.every((s) => s.at === 0)).toBe(true);
    expect(f.resultAt).toBe(0);
  });

  it('lets each seat\'s score climb with its steps, to the final one', () => {
    const f = finalScoring(last, false);
    // Final 14 and 18: the road 3, city 4, monastery 5 + 5, farms 9 and 6 still to come at first.
    expect(scoresDuring([14, 18], f.steps, 0)).toEqual([0, 0]);
    expect(scoresDuring([14, 18], f.steps, 1)).toEqual([0, 3]);
    expect(scoresDuring([14, 18], f.steps, 3)).toEqual([5, 12]);
    expect(scoresDuring([14, 18], f.steps, 5)).toEqual([14, 18]);
  });

  it('has no steps when nothing scored', () => {
    expect(finalScoring(entry(9, 0, { pass: {} }, [end('field', 1, [0, 0])]), false).steps).toEqual([]);
  });
});
