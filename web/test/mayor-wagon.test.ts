// Abbey & Mayor's mayor and wagon: offered in the figure panel like the
// large follower, named, and the wagon step's targets lit as spots.
import { describe, expect, it } from 'vitest';
import { encodeAction, figureLook, figureName, parseAction } from '../src/protocol';
import { onBoard } from '../src/picks';
import { figureHint } from '../src/panels/choices';
import { describeAction, moveWords } from '../src/words';
import { figuresOffered, spotsFor } from '../src/table';
import { rulesCard } from '../src/rules';
import { mayorWagonInSupply, mayorWagonWords } from '../src/mayorwagon';
import { parseView } from '../src/protocol';

const at = { x: 1, y: 0, place: 'E' };
const mayor = parseAction({ follower: { x: 0, y: -1, place: 'S', figure: 'mayor' } });
const wagon = parseAction({ follower: { ...at, figure: 'wagon' } });
const follower = parseAction({ follower: at });

describe('the mayor and the wagon', () => {
  it('are offered after the follower and place the chosen figure', () => {
    const legal = [follower, mayor, wagon, parseAction({ pass: {} })];
    expect(figuresOffered(legal)).toEqual([null, 'mayor', 'wagon']);
    expect(spotsFor(legal, 'mayor')).toEqual([mayor]);
    expect(spotsFor(legal, 'wagon')).toEqual([wagon]);
    expect(figureName('mayor')).toBe('mayor');
    expect(figureName('wagon')).toBe('wagon');
    expect(figureHint('mayor')).toContain('city');
    expect(figureHint('wagon')).toContain('never a field');
    expect(describeAction(mayor)).toBe('Mayor on the south of (0, -1)');
  });
  it('are drawn by shapes of their own, not as the large follower', () => {
    expect(figureLook('mayor').shape).toBe('mayor');
    expect(figureLook('wagon').shape).toBe('wagon');
    expect(figureLook('big').shape).toBe('disc');
    expect(figureLook('wagon').className).toBe('fig fig-wagon');
  });
});

describe('the wagon step', () => {
  const move = parseAction({ wagon: { x: 1, y: 0, place: 'C' } });
  it('reads and writes the wagon move in record form', () => {
    expect(move).toEqual({ kind: 'wagon', at: { x: 1, y: 0, place: 'C', half: null } });
    expect(encodeAction(move)).toEqual({ wagon: { x: 1, y: 0, place: 'C' } });
    const half = parseAction({ wagon: { x: 2, y: 3, place: 'N', half: 'NE' } });
    expect(encodeAction(half)).toEqual({ wagon: { x: 2, y: 3, place: 'N', half: 'NE' } });
  });
  it('lights every target as a spot on the board, whatever figure is chosen', () => {
    const other = parseAction({ wagon: { x: -1, y: 0, place: 'S' } });
    const legal = [move, other, parseAction({ pass: {} })];
    expect(spotsFor(legal, null)).toEqual([move, other]);
    expect(onBoard(move)).toBe(true);
    expect(figuresOffered(legal)).toEqual([]);
  });
  it('says the move in words', () => {
    expect(describeAction(move)).toBe('Move the wagon to the centre of (1, 0)');
    expect(moveWords(move)).toBe('Move the wagon to the centre of its tile');
  });
  it('has a rules card', () => {
    expect(rulesCard('abbey-mayor')?.title).toBe('Abbey & Mayor');
  });
});

describe('the seats', () => {
  it('say where each mayor and wagon is', () => {
    expect(mayorWagonWords(true, true)).toBe('mayor and wagon in the supply');
    expect(mayorWagonWords(false, true)).toBe('mayor on the board, wagon in the supply');
    expect(mayorWagonWords(true, false)).toBe('mayor in the supply, wagon on the board');
    expect(mayorWagonWords(null, null)).toBe('');
  });
  it('read the supply from the view, and nothing without the set', () => {
    const base = { players: ['RED', 'BLUE'], scores: [0, 0], finished: false, current_player: 0, phase: 'wagon', drawn: null, board: [{ tile: 'base/D', x: 0, y: 0, rotation: 0 }] };
    const v = parseView({ ...base, mayors: [false, true], wagons: [true, true] });
    expect(v.phase).toBe('wagon');
    expect(mayorWagonInSupply(v, 'mayor')).toEqual([false, true]);
    expect(mayorWagonInSupply(v, 'wagon')).toEqual([true, true]);
    expect(mayorWagonInSupply(parseView(base), 'mayor')).toBeNull();
  });
});
