import { describe, expect, it } from 'vitest';
import { spreadSpots } from '../src/board';
import { withoutSteps } from '../src/panels/end';
import { turnPreview, type Place } from '../src/panels/hand';
import { statusLine } from '../src/panels/header';
import type { Action, ScoreEvent } from '../src/protocol';
import type { GameState } from '../src/state';

const place = (x: number, y: number, rotation: 0 | 90 | 180 | 270): Place => ({ kind: 'place', tile: 'base/U', x, y, rotation, half: null });
const event = (feature: string, x: number, points: number[], reason = 'game end'): ScoreEvent => ({ reason, points, feature, x, y: 0, place: 'N', raw: {} });

describe('a calm table', () => {
  it('spreads spots that would overlap, and leaves the others where they are', () => {
    const out = spreadSpots([{ x: 0, y: 0 }, { x: 5, y: 0 }, { x: 100, y: 100 }, { x: 100, y: 100 }], 32);
    const d = (i: number, j: number): number => Math.hypot((out[i]?.x ?? 0) - (out[j]?.x ?? 0), (out[i]?.y ?? 0) - (out[j]?.y ?? 0));
    expect(d(0, 1)).toBeGreaterThanOrEqual(32);
    expect(d(2, 3)).toBeGreaterThanOrEqual(32);
    expect(d(0, 2)).toBeGreaterThan(100);
    expect(spreadSpots([{ x: 0, y: 0 }, { x: 50, y: 0 }], 32)).toEqual([{ x: 0, y: 0 }, { x: 50, y: 0 }]);
  });
  it('turns a previewed placement where it lies, to the next rotation that fits there', () => {
    const legal: Action[] = [place(1, 0, 0), place(1, 0, 180), place(0, 1, 90), place(1, 0, 270)];
    expect(turnPreview(legal, place(1, 0, 0))).toEqual(place(1, 0, 180));
    expect(turnPreview(legal, place(1, 0, 180))).toEqual(place(1, 0, 270));
    expect(turnPreview(legal, place(1, 0, 270))).toEqual(place(1, 0, 0));
    // Only one way fits that cell: the preview stays as it is.
    expect(turnPreview(legal, place(0, 1, 90))).toEqual(place(0, 1, 90));
  });
  it('lists no final score in the log before its step is shown', () => {
    const early = event('city', 3, [4, 0], 'completed');
    const steps = [event('road', 1, [2, 0]), event('field', 2, [0, 3])];
    const all = [early, ...steps];
    expect(withoutSteps(all, steps)).toEqual([early]);
    expect(withoutSteps(all, steps.slice(1))).toEqual([early, steps[0]]);
    expect(withoutSteps(all, [])).toEqual(all);
  });
  it('says a move on its way as such, never "RED to play" to RED', () => {
    const s = { status: 'playing', legal: [], players: ['RED', 'BLUE'], seats: [], seat: 0, view: { currentPlayer: 0, tilesLeft: 5 } } as unknown as GameState;
    expect(statusLine(s, 'open', null, true)).toMatch(/^Your move is being sent/);
    expect(statusLine(s, 'closed', null, true)).toMatch(/^Your move is waiting to be sent/);
    expect(statusLine(s, 'open', null, false)).toMatch(/^RED to play/);
  });
});

describe('words on the table', () => {
  it('says what a tile shows, never its catalogue id', async () => {
    const { tileContents, tileLine, tileWords, moveWords, gameName } = await import('../src/words');
    expect(tileWords('winter/animal07')).toBe('a tile of the Winter Edition');
    expect(tileWords('base/R')).toBe('tile R of the base game');
    expect(tileContents(['city', 'road', 'field', 'field'])).toBe('a city, a road and two fields');
    expect(tileLine('winter/animal07', 0, 2, ['city', 'road', 'field', 'field'])).toBe('A tile of the Winter Edition with a city, a road and two fields, not turned: fits in 2 places');
    expect(moveWords({ kind: 'place', tile: 'base/R', x: 3, y: -1, rotation: 90, half: null })).toBe('Place tile R of the base game, turned a quarter right');
    expect(moveWords({ kind: 'follower', figure: null, at: { x: 3, y: -1, place: 'N', half: null } })).not.toMatch(/\(/);
    expect(gameName(['RED', 'BLUE'], { base: 'base', expansions: ['plague'] })).toBe('RED vs BLUE · Base game + The Plague');
  });
});

describe('the map', () => {
  it('outlines a map by the sides of its cells that border no other', async () => {
    const { mapOutline } = await import('../src/board');
    // Two cells side by side: six outer sides, the shared one not drawn.
    const d = mapOutline([[0, 0], [1, 0]], 10);
    expect(d.match(/M/g)?.length).toBe(6);
    expect(d).not.toContain('M10 0V10');
  });

  it('draws a land border from its corners in tenths of a square, and fits the cells it reaches', async () => {
    const { landOutline, mapFitCells } = await import('../src/board');
    expect(landOutline([[-5, -5], [25, -5], [25, 15]], 100)).toBe('M-50 -50L250 -50L250 150Z');
    expect(landOutline([[0, 0], [10, 0]], 100)).toBe('');
    const map = { name: 'm', title: 'M', cells: [[0, 0], [1, 0]] as [number, number][], starts: [], chumak: [], outline: [[-5, -5], [25, -5], [25, 15]] as [number, number][] };
    const fit = mapFitCells(map);
    expect(fit).toContainEqual({ x: -1, y: -1 });
    expect(fit).toContainEqual({ x: 2, y: 1 });
  });
});

describe('score events on the board', () => {
  it('looks up the feature of a feature\'s score only, never of chips traded at a Chumak square', async () => {
    const { eventRef } = await import('../src/panels/log');
    expect(eventRef(event('city', 3, [4, 0], 'completed'))).toEqual({ x: 3, y: 0, place: 'N', half: null });
    expect(eventRef({ reason: 'trade', points: [3, 0], feature: null, x: 2, y: 1, place: 'C', raw: {} })).toBeNull();
  });
});
