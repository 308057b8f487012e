import { describe, expect, it } from 'vitest';
import { handShown, handTiles, placeableTiles, targetsFor } from '../src/panels/hand';
import type { Action } from '../src/protocol';
import { ABBEY, describeAction, isHeld, tileWords } from '../src/words';
import { rulesCard } from '../src/rules';
import { setInfo } from '../src/sets';

const abbeyAt = (x: number, y: number): Action => ({ kind: 'place', tile: ABBEY, x, y, rotation: 0, half: null });

describe('the abbey (Abbey & Mayor) in the hand', () => {
  it('is offered as a tile held, with the pile beside it to draw instead', () => {
    // While the abbey is a choice the drawn tile is unseen: the legal
    // actions are the abbey's holes and `draw`.
    const legal: Action[] = [abbeyAt(0, 1), abbeyAt(2, 0), { kind: 'draw' }];
    const places = placeableTiles(legal);
    expect(places).toEqual([ABBEY]);
    const hand = handTiles(places, []);
    expect(handShown(hand)).toBe(true);
    expect(isHeld(ABBEY)).toBe(true);
    expect(isHeld('base/D')).toBe(false);
    // Its holes are lit in rotation 0 only.
    expect(targetsFor(legal, ABBEY, 0).map((a) => a.kind === 'place' && [a.x, a.y])).toEqual([[0, 1], [2, 0]]);
    expect(targetsFor(legal, ABBEY, 90)).toEqual([]);
  });

  it('is named in words, and the set has a lobby sentence and a rules card', () => {
    expect(tileWords(ABBEY)).toBe('the abbey of Abbey & Mayor');
    expect(describeAction(abbeyAt(0, 1))).toContain('the abbey of Abbey & Mayor at (0, 1)');
    expect(setInfo('abbey-mayor')?.kind).toBe('expansion');
    expect(rulesCard('abbey-mayor')?.lines.join(' ')).toContain('four neighbours');
  });
});
