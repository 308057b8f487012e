import { describe, expect, it } from 'vitest';
import { CELL, cellAt, fit, screenToWorld, worldToScreen, zoomAt } from '../src/geometry';
import { InvalidMessage } from '../src/json';
import { encodeAction, parseAction, parseServerMessage } from '../src/protocol';
import { describeAction } from '../src/words';
import { pointsByCategory, reduce, scoreSeries, type GameState } from '../src/state';
import { featureText, rotateToNext, targetsFor, placeableTiles } from '../src/table';
import { inHalf } from '../src/board';
import { parseFragment } from '../src/tokens';

const view = (version: number) => ({
  players: ['RED', 'BLUE'], scores: [version, 0], finished: false, current_player: 0, phase: 'place', drawn: 'base/U',
  tiles_left: 3, supply: [7, 7], events: [], board: [{ tile: 'base/D', x: 0, y: 0, rotation: 0 }], followers: [], seat: 0,
});
const welcome = (v: object | null, version = 0) => JSON.stringify({ welcome: {
  game: 'abc', seat: 0, status: 'playing', version, resigned: null, players: ['RED', 'BLUE'],
  seats: [{ seat: 0, kind: 'human', joined: true }, { seat: 1, kind: 'greedy', joined: true }],
  config: { players: ['RED', 'BLUE'] }, view: v, legal: v ? [{ place: { tile: 'base/U', x: 1, y: 0, rotation: 0 } }] : undefined,
} });
const played = (version: number) => JSON.stringify({ played: { version, seat: 0, action: { pass: {} }, events: [{ reason: 'completed', points: [4, 0], feature: 'city', x: 0, y: 0, place: 'N' }], view: view(version) } });

describe('coordinates', () => {
  it('screen and world transforms are inverse', () => {
    const c = { x: -130, y: 40, scale: 0.7 };
    const p = { x: 321, y: -17 };
    const back = screenToWorld(c, worldToScreen(c, p));
    expect(back.x).toBeCloseTo(p.x);
    expect(back.y).toBeCloseTo(p.y);
  });
  it('zooming keeps the point under the pointer', () => {
    const c = { x: 10, y: 20, scale: 1 };
    const screen = { x: 200, y: 150 };
    const before = screenToWorld(c, screen);
    const after = screenToWorld(zoomAt(c, screen, 1.7), screen);
    expect(after.x).toBeCloseTo(before.x);
    expect(after.y).toBeCloseTo(before.y);
  });
  it('zoom is bounded', () => {
    expect(zoomAt({ x: 0, y: 0, scale: 1 }, { x: 0, y: 0 }, 1000).scale).toBe(4);
  });
  it('cells follow notation.md: y grows south, negatives floor', () => {
    expect(cellAt({ x: -1, y: CELL * 2 + 5 })).toEqual({ x: -1, y: 2 });
  });
  it('fit shows every cell', () => {
    const c = fit([{ x: -3, y: 0 }, { x: 4, y: 2 }], 800, 600);
    const tl = worldToScreen(c, { x: -3 * CELL, y: 0 });
    const br = worldToScreen(c, { x: 5 * CELL, y: 3 * CELL });
    expect(tl.x).toBeGreaterThanOrEqual(0);
    expect(br.x).toBeLessThanOrEqual(800);
    expect(br.y).toBeLessThanOrEqual(600);
  });
});

describe('actions', () => {
  const records = [
    { place: { tile: 'base/U', x: 1, y: -2, rotation: 270 } },
    { place: { tile: 'halfsies1/A', x: 0, y: -1, rotation: 90, half: 'NW' } },
    { follower: { x: 1, y: 0, place: 'W', half: 'SW' } },
    { follower: { x: 1, y: 0, place: 'C', figure: 'big' } },
    { draw: {} }, { pass: {} },
    { gingerbread: { x: 2, y: 1, place: 'N' } },
    { flea: { x: 6, y: 0 } },
    { flea: { x: 6, y: 0, from: { x: 1, y: -1, half: 'SW' } } },
    { flee: { from: { x: 1, y: 0, place: 'W', half: 'SW' }, to: { x: 0, y: 0, place: 'E' } } },
    { trade: { x: 12, y: 0, chips: [{ colour: 'orange', value: 2 }] } },
    { draft: { tile: 'halfsies2/C' } },
    { someday: { anything: [1, 2] } },
  ];
  it('every action of notation.md encodes back exactly as read', () => {
    for (const r of records) expect(encodeAction(parseAction(r))).toEqual(r);
  });
  it('every action has words', () => {
    // In words: no raw tile ids, rotations or place codes.
    const words = records.map((r) => describeAction(parseAction(r)));
    expect(words[0]).toBe('Place tile U of the base game at (1, -2), turned a quarter left');
    expect(words[10]).toBe('Trade orange 2 on the Chumak square at (12, 0)');
    expect(words[8]).toBe('Move the flea on the tile at (1, -1), its south-west half to the tile at (6, 0)');
    expect(words[9]).toBe('Flee from the west of (1, 0), south-west half to the east of (0, 0)');
    expect(words[11]).toBe('Take half tile C of Half-and-half 2');
    for (const w of words.slice(0, -1)) expect(w).not.toMatch(/[a-z0-9]+\/[A-Z]|°/);
  });
  it('malformed actions are refused', () => {
    expect(() => parseAction({ place: { tile: 'base/U', x: 1, y: 0, rotation: 45 } })).toThrow(InvalidMessage);
    expect(() => parseAction({ pass: {}, draw: {} })).toThrow(InvalidMessage);
    expect(() => parseAction({ follower: { x: '1', y: 0, place: 'N' } })).toThrow(InvalidMessage);
    expect(() => parseAction({ follower: { x: 1, y: 0, place: 'N', half: 'XX' } })).toThrow(InvalidMessage);
  });
  it('server messages are validated', () => {
    expect(parseServerMessage('{"pong": {}}')).toEqual({ type: 'pong' });
    expect(() => parseServerMessage('not json')).toThrow(InvalidMessage);
    expect(() => parseServerMessage('{"welcome": {"game": 3}}')).toThrow(InvalidMessage);
    expect(() => parseServerMessage('{"surprise": {}}')).toThrow(InvalidMessage);
  });
});

describe('state', () => {
  const start = (): GameState => {
    const s = reduce(null, parseServerMessage(welcome(view(0))));
    if (!s) throw new Error('no state');
    return s;
  };
  it('a welcome gives view and legal moves', () => {
    const s = start();
    expect(s.version).toBe(0);
    expect(s.legal).toHaveLength(1);
    expect(s.view?.board[0]?.tile).toBe('base/D');
  });
  it('played messages apply in order, duplicates are ignored, gaps ask for a resync', () => {
    let s = reduce(start(), parseServerMessage(played(1)));
    expect(s?.version).toBe(1);
    expect(s?.legal).toEqual([]);
    expect(s?.log).toHaveLength(1);
    s = reduce(s, parseServerMessage(played(1)));
    expect(s?.log).toHaveLength(1);
    s = reduce(s, parseServerMessage(played(3)));
    expect(s?.resync).toBe(true);
    expect(s?.version).toBe(1);
  });
  it('a reconnect welcome (since) keeps the view until the missed actions arrive', () => {
    let s = reduce(reduce(start(), parseServerMessage(played(1))), parseServerMessage(welcome(null, 2)));
    expect(s?.version).toBe(1);
    expect(s?.view?.scores[0]).toBe(1);
    s = reduce(s, parseServerMessage(played(2)));
    expect(s?.version).toBe(2);
  });
  it('a reconnect that missed nothing keeps the legal moves', () => {
    const s = reduce(start(), parseServerMessage(welcome(null, 0)));
    expect(s?.legal).toHaveLength(1);
    expect(s?.view?.board).toHaveLength(1);
  });
  it('errors are kept for display and change nothing else', () => {
    const s = reduce(start(), parseServerMessage('{"error": {"code": "illegal", "message": "no"}}'));
    expect(s?.error).toBe('illegal: no');
    expect(s?.version).toBe(0);
  });
  it('scores add up per event and per category', () => {
    const events = [
      { reason: 'completed', points: [4, 0], feature: 'city', x: 0, y: 0, place: 'N', raw: {} },
      { reason: 'game end', points: [1, 3], feature: 'field', x: 0, y: 0, place: 'S', raw: {} },
      { reason: 'completed', points: [2, 2], feature: 'city', x: 1, y: 0, place: 'N', raw: {} },
    ];
    expect(scoreSeries(events, 2)).toEqual([[0, 0], [4, 0], [5, 3], [7, 5]]);
    expect(pointsByCategory(events, 2).get('completed city')).toEqual([6, 2]);
  });
});

describe('table helpers', () => {
  const legal = [
    parseAction({ place: { tile: 'base/U', x: 1, y: 0, rotation: 90 } }),
    parseAction({ place: { tile: 'base/U', x: -1, y: 0, rotation: 90 } }),
    parseAction({ place: { tile: 'halfsies1/A', x: 0, y: 1, rotation: 180 } }),
  ];
  it('targets are the legal cells of the tile in its rotation', () => {
    expect(targetsFor(legal, 'base/U', 90).map((a) => a.x)).toEqual([1, -1]);
    expect(targetsFor(legal, 'base/U', 0)).toEqual([]);
    expect(placeableTiles(legal)).toEqual(['base/U', 'halfsies1/A']);
  });
  it('rotating skips rotations where the tile fits nowhere', () => {
    expect(rotateToNext(legal, 'base/U', 0)).toBe(90);
    expect(rotateToNext(legal, 'base/U', 90)).toBe(90);
    expect(rotateToNext([], 'base/U', 270)).toBe(0);
  });
  it('invite fragments are read and checked', () => {
    expect(parseFragment('#seat=1&token=9838bb1501e3ed69')).toEqual({ seat: 1, token: '9838bb1501e3ed69' });
    expect(parseFragment('#seat=x&token=<script>')).toEqual({ seat: null, token: null });
  });
});

describe('features', () => {
  it('a point of a cell lies in the half whose right angle is nearest', () => {
    expect(inHalf('SW', 0.1, 0.9)).toBe(true);
    expect(inHalf('NE', 0.1, 0.9)).toBe(false);
    expect(inHalf('NW', 0.2, 0.2)).toBe(true);
    expect(inHalf('SE', 0.2, 0.2)).toBe(false);
    expect(inHalf('SE', 0.9, 0.8)).toBe(true);
  });
  it('a feature is described with its value and owners', () => {
    const f = { kind: 'city', complete: false, points: 5, tiles: 4, extra: 1, cells: [[0, 0]] as [number, number][], followers: [1, 0] };
    expect(featureText(f, ['RED', 'BLUE'])).toBe('city (open): 4 tiles, 1 coat of arms, worth 5 now; followers: RED 1');
    expect(featureText({ ...f, kind: 'field', extra: 2, points: 6, followers: [0, 0] }, ['RED', 'BLUE'])).toBe('field: 4 tiles, 2 completed cities, worth 6 now; no followers');
  });
});

describe('the panel in words', () => {
  it('says seats, statuses, corners and unknown actions in words, not ids', async () => {
    const { seatKindWords, statusWords, cornerWords, otherWords } = await import('../src/words');
    expect(seatKindWords('human')).toBe('person');
    expect(seatKindWords('greedy')).toBe('greedy bot');
    expect(seatKindWords('mcts:2000')).toBe('look-ahead bot (2000 tries)');
    expect(statusWords('finished')).toBe('Game over');
    expect(statusWords('open')).toBe('Waiting for players');
    expect(cornerWords('NW')).toBe('north-west');
    expect(otherWords('volcano_choice', { x: 1, y: -2 })).toBe('Volcano choice: x 1, y -2');
    expect(otherWords('pass_turn', {})).toBe('Pass turn');
  });
});
