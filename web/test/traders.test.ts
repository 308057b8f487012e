import { describe, expect, it } from 'vitest';
import { figuresOffered, spotsFor } from '../src/table';
import { figureHint, figuresPanelShown } from '../src/panels/choices';
import { eventText } from '../src/panels/log';
import { optionsConfig } from '../src/options';
import { figureLook, figureName, parseAction, parseEvent, parseView } from '../src/protocol';
import { rulesFor } from '../src/rules';
import { PRESETS, setsWords } from '../src/sets';
import { goodsOf, goodsWords, herdCounts, herds, inSupply, secondTile, specialsWords } from '../src/traders';
import { describeAction, moveWords } from '../src/words';

const view = (extras: Record<string, unknown>, board: unknown[] = [{ tile: 'base/D', x: 0, y: 0, rotation: 0 }]) => parseView({
  players: ['RED', 'BLUE'], scores: [0, 0], finished: false, current_player: 0, phase: 'builder', board, ...extras,
});

describe('Traders & Builders at the table', () => {
  it('reads each seat\'s goods and whether its builder and pig are at home', () => {
    const v = view({ goods: [{ wine: 2, grain: 0, cloth: 1 }, { wine: 0, grain: 0, cloth: 0 }], builders: [false, true], pigs: [true, true] });
    expect(goodsOf(v)).toEqual([{ wine: 2, grain: 0, cloth: 1 }, { wine: 0, grain: 0, cloth: 0 }]);
    expect(goodsWords({ wine: 2, grain: 0, cloth: 1 })).toBe('wine 2, cloth 1');
    expect(goodsWords({ wine: 0, grain: 0, cloth: 0 })).toBe('no goods');
    expect(inSupply(v, 'builder')).toEqual([false, true]);
    expect(specialsWords(false, true)).toBe('builder on the board, pig in the supply');
    expect(specialsWords(true, true)).toBe('builder and pig in the supply');
    // A game without the set has neither.
    const plain = view({});
    expect(goodsOf(plain)).toBeNull();
    expect(inSupply(plain, 'pig')).toBeNull();
  });

  it('offers the builder\'s second tile only in the builder step', () => {
    const draw = parseAction({ draw: {} });
    const pass = parseAction({ pass: {} });
    expect(secondTile('builder', [draw, pass])).toEqual({ draw, pass });
    // The pile is empty: only the pass.
    expect(secondTile('builder', [pass])).toEqual({ draw: null, pass });
    expect(secondTile('follower', [pass])).toBeNull();
    expect(secondTile('place', [draw])).toBeNull();
  });

  it('names the builder and the pig as figures, not followers, and draws them apart', () => {
    expect(figureName('builder')).toBe('builder');
    expect(figureName('pig')).toBe('pig');
    expect(figureName('big')).toBe('large follower');
    expect(figureLook('builder').shape).toBe('builder');
    expect(figureLook('pig').shape).toBe('pig');
    expect(figureLook(null).shape).toBe('disc');
    const b = parseAction({ follower: { x: 1, y: 0, place: 'N', figure: 'builder' } });
    const p = parseAction({ follower: { x: 1, y: 0, place: 'S', figure: 'pig' } });
    const f = parseAction({ follower: { x: 1, y: 0, place: 'N' } });
    expect(describeAction(b)).toBe('Builder on the north of (1, 0)');
    expect(moveWords(p)).toBe('Pig on the south of its tile');
    // The figures offered: the follower first; the spots place the chosen one only.
    expect(figuresOffered([b, p, f])).toEqual([null, 'builder', 'pig']);
    expect(spotsFor([b, p, f], 'pig')).toEqual([p]);
    expect(figureHint('builder')).toMatch(/road or city of this tile where you already have a follower/);
    // No follower left, the builder still may go: the panel says which figure the spots take.
    expect(figuresPanelShown(figuresOffered([b]))).toBe(true);
    expect(figuresPanelShown(figuresOffered([f]))).toBe(false);
    expect(figuresPanelShown(figuresOffered([f, p]))).toBe(true);
  });

  it('says goods in the log by kind and player', () => {
    const taken = parseEvent({ reason: 'goods taken', points: [0, 0], goods: 'wine', tokens: [2, 0], x: 1, y: 0, place: 'N', feature: 'city' }, 'e');
    expect(eventText(taken, ['RED', 'BLUE'])).toBe('goods taken: RED takes 2 wine');
    const most = parseEvent({ reason: 'goods', points: [10, 10], goods: 'cloth', tokens: [1, 1] }, 'e');
    expect(eventText(most, ['RED', 'BLUE'])).toBe('most cloth: RED +10, BLUE +10');
  });

  it('shows the pig herd where it counts: with the set, unless the house rule switches it off', () => {
    const board = [{ tile: 'river2/A', x: 0, y: 0, rotation: 0 }, { tile: 'river2/F', x: 0, y: 1, rotation: 90 }];
    const v = view({}, board);
    expect(herds(v, { expansions: ['river2', 'traders-builders'] })).toEqual([{ x: 0, y: 1 }]);
    expect(herds(v, { expansions: ['river2'] })).toEqual([]);
    expect(herdCounts({ expansions: ['river2', 'traders-builders'], options: { pig_herd_bonus: false } })).toBe(false);
    // The lobby's house rule writes the engine's switch off, and only with the set.
    expect(optionsConfig({ followers: 7, on: ['pig_herd_bonus'] }, ['river2', 'traders-builders'])).toEqual({ pig_herd_bonus: false });
    expect(optionsConfig({ followers: 7, on: ['pig_herd_bonus'] }, ['river2'])).toEqual({});
  });

  it('is in the lobby\'s sets and presets, with a rules card', () => {
    expect(setsWords({ base: 'base', expansions: ['river2', 'traders-builders'] })).toBe('Base game + River II + Traders & Builders');
    expect(PRESETS.find((p) => p.id === 'traders-river')?.expansions).toEqual(['river2', 'traders-builders']);
    const cards = rulesFor({ base: 'base', expansions: ['traders-builders'] });
    expect(cards.map((c) => c.title)).toEqual(['Base game', 'Traders & Builders']);
    expect(cards[1]?.lines.join(' ')).toMatch(/second tile/);
  });
});
