// Inns & Cathedrals' large follower: offered beside the follower, named,
// drawn bigger, parsed from the view.
import { describe, expect, it } from 'vitest';
import { figureLook, figureName, parseAction, parseView } from '../src/protocol';
import { describeAction } from '../src/words';
import { figuresOffered, moveText, spotsFor } from '../src/table';

const spot = { x: 1, y: 0, place: 'N' };
const normalN = parseAction({ follower: spot });
const bigN = parseAction({ follower: { ...spot, figure: 'big' } });
const legal = [
  normalN,
  parseAction({ follower: { x: 1, y: 0, place: 'S' } }),
  bigN,
  parseAction({ follower: { x: 1, y: 0, place: 'S', figure: 'big' } }),
  parseAction({ gingerbread: { x: 0, y: 0, place: 'E' } }),
  parseAction({ pass: {} }),
];

describe('the large follower', () => {
  it('is offered after the follower, and the markers place the chosen figure', () => {
    expect(figuresOffered(legal)).toEqual([null, 'big']);
    expect(figuresOffered(legal.slice(2))).toEqual(['big']);
    expect(figuresOffered([parseAction({ pass: {} })])).toEqual([]);
    const big = spotsFor(legal, 'big');
    expect(big.map((a) => a.kind)).toEqual(['follower', 'follower']);
    expect(big.every((a) => a.kind !== 'follower' || a.figure === 'big')).toBe(true);
    expect(spotsFor(legal, null).filter((a) => a.kind === 'follower')).toHaveLength(2);
  });
  it('has a name for buttons, the log and screen readers', () => {
    expect(figureName(null)).toBe('follower');
    expect(figureName('big')).toBe('large follower');
    expect(describeAction(normalN)).toBe('Follower on the north of (1, 0)');
    expect(describeAction(bigN)).toBe('Large follower on the north of (1, 0)');
    expect(moveText({ version: 3, seat: 1, action: bigN, events: [] }, ['RED', 'BLUE'])).toBe('BLUE: Large follower on the north of its tile');
  });
  it('is drawn bigger than a follower, with a ring and its own class', () => {
    const normal = figureLook(null);
    const big = figureLook('big');
    expect(big.radius).toBeGreaterThan(normal.radius * 1.3);
    expect(big.ring && !normal.ring).toBe(true);
    expect(big.className).toBe('fig fig-big');
    expect(normal.className).toBe('fig');
  });
  it('is read from the view: the figure on the board and who still holds one', () => {
    const v = parseView({
      players: ['RED', 'BLUE'], scores: [0, 0], finished: false, current_player: 1, phase: 'place', drawn: null,
      board: [{ tile: 'base/D', x: 0, y: 0, rotation: 0 }], big_followers: [false, true],
      followers: [
        { player: 'RED', seat: 0, x: 0, y: 0, place: 'N', feature: 'city', figure: 'big' },
        { player: 'BLUE', seat: 1, x: 0, y: 0, place: 'E', feature: 'road' },
      ],
    });
    expect(v.followers.map((f) => f.figure)).toEqual(['big', null]);
    expect(v.bigFollowers).toEqual([false, true]);
    expect(v.extras.big_followers).toBeUndefined();
    expect(parseView({ players: [], scores: [], finished: true, current_player: null, board: [] }).bigFollowers).toBeNull();
  });
});
