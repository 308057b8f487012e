// Inner fields (places I1, I2: a field enclosed between cities, touching
// no side): offered and drawn at the spot the tile's layout gives them,
// named in words.
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../src/api';
import { spotPoint } from '../src/board';
import { parseAction, type Piece } from '../src/protocol';
import { describeAction } from '../src/words';

// The layout's shape as the server sends it (`/api/tiles/…json`), with the
// outer field's spot at N and the inner field's at I1, apart.
const layout = parseLayout({
  id: 'traders-builders/C', rotation: 0, width: 116, height: 116, origin: [8, 8], cells: [[0, 0]],
  spots: [
    { cell: [0, 0], place: 'N', feature: 2, kind: 'field', x: 58, y: 14, lying: false },
    { cell: [0, 0], place: 'W', feature: 0, kind: 'city', x: 58, y: 45, lying: false },
    { cell: [0, 0], place: 'I1', feature: 3, kind: 'field', x: 58, y: 76, lying: false },
  ],
});

describe('inner fields', () => {
  it('have a spot of their own where the follower is offered and drawn', () => {
    const layouts = new Map([['traders-builders/C@0', layout]]);
    const board: Piece[] = [{ tile: 'traders-builders/C', x: 0, y: -1, rotation: 0, half: null }];
    const inner = spotPoint({ x: 0, y: -1, place: 'I1', half: null }, board, layouts);
    const outer = spotPoint({ x: 0, y: -1, place: 'N', half: null }, board, layouts);
    expect(inner?.kind).toBe('field');
    expect(inner && outer && inner.y - outer.y).toBe(62);
    expect(spotPoint({ x: 0, y: -1, place: 'I2', half: null }, board, layouts)).toBeNull();
  });
  it('are named in words', () => {
    expect(describeAction(parseAction({ follower: { x: 0, y: -1, place: 'I1' } }))).toBe('Follower on the inner field of (0, -1)');
    expect(describeAction(parseAction({ follower: { x: 0, y: -1, place: 'I2' } }))).toBe('Follower on the second inner field of (0, -1)');
  });
});
