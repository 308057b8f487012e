import { describe, expect, it } from 'vitest';
import { parseAction, type Piece } from '../src/protocol';
import { boardMarks } from '../src/picks';
import { directionWords, whereOn } from '../src/where';
import { describeAction } from '../src/words';

const piece = (tile: string, x: number, y: number): Piece => ({ tile, x, y, rotation: 0, half: null });
const board = [piece('base/D', 0, 0), piece('base/U', 1, 0), piece('base/E', 1, -1), piece('base/K', -1, 2), piece('base/V', 0, 1)];
const kinds = (p: Piece): string[] => (p.tile === 'base/E' ? ['city', 'field'] : p.tile === 'base/K' ? ['road', 'field', 'field'] : []);

describe('places on the board in words, never coordinates', () => {
  const where = whereOn(board, kinds, () => 'the Chumak square Kyiv');

  it('names the compass directions with north up', () => {
    expect(directionWords(0, -1)).toBe('north');
    expect(directionWords(1, 1)).toBe('south-east');
    expect(directionWords(-3, -1)).toBe('west');
    expect(directionWords(-2, -2)).toBe('north-west');
  });

  it('names the start tile, the tile just placed, and others by what they show and where they lie', () => {
    expect(where.tile(0, 0)).toBe('the start tile');
    expect(where.tile(0, 1)).toBe('the tile just placed');
    expect(where.tile(1, -1)).toBe('the tile with a city and a field, north-east of the start tile');
    expect(where.tile(-1, 2)).toBe('the tile with a road and two fields, 2 tiles south-west of the start tile');
    // Without its picture yet, the tile's name.
    expect(where.tile(1, 0)).toBe('the tile (tile U of the base game), east of the start tile');
  });

  it('says an empty cell by the tile next to it, the start tile first, then the tile just placed', () => {
    expect(where.cell(0, -1)).toBe('north of the start tile');
    expect(where.cell(0, 2)).toBe('south of the tile just placed');
    expect(where.cell(1, -2)).toBe('north of the tile with a city and a field, north-east of the start tile');
  });

  it('gives the board its labels: a placement, a follower, a flea, a trade', () => {
    const place = parseAction({ place: { tile: 'base/A', x: 0, y: -1, rotation: 90 } });
    expect(describeAction(place, where)).toBe('Place tile A of the base game north of the start tile, turned a quarter right');
    const follower = parseAction({ follower: { x: 0, y: 1, place: 'N' } });
    expect(describeAction(follower, where)).toBe('Follower on the north of the tile just placed');
    const flea = parseAction({ flea: { x: 1, y: -1 } });
    expect(boardMarks([flea], null, where)[0]?.label).toBe('Spread a flea to the tile with a city and a field, north-east of the start tile');
    const trade = parseAction({ trade: { x: 5, y: 5, chips: [{ colour: 'blue', value: 2 }] } });
    expect(describeAction(trade, where)).toBe('Trade blue 2 on the Chumak square Kyiv');
    for (const a of [place, follower, flea, trade]) expect(describeAction(a, where)).not.toMatch(/\(-?\d+, -?\d+\)/);
  });
});
