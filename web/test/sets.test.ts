import { describe, expect, it } from 'vitest';
import { PRESETS, SEAT_KINDS, SETS, setInfo, setWords, setsConfig, setsWords } from '../src/sets';
import { tileWords } from '../src/words';

describe('the sets, in one table', () => {
  it('names every set the engine knows, once, each with a sentence', () => {
    const ids = SETS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ['base', 'winter', 'river1', 'river2', 'river20', 'cutcassonne', 'inns-cathedrals', 'halfsies1', 'halfsies2', 'plague', 'gingerbread', 'map-chips']) {
      expect(setInfo(id)?.about.length ?? 0).toBeGreaterThan(20);
    }
    expect(setWords('river1')).toBe('the River I');
    // The words of a tile name say the lobby's name: "tile A of the Winter Edition".
    const plain = (t: string): string => { const u = t.replace(/\s*\(.*\)$/, '').replace(/^the /i, ''); return u.charAt(0).toLowerCase() + u.slice(1); };
    for (const x of SETS) expect(plain(x.words)).toContain(plain(x.name));
    expect(setWords('nope')).toBe('nope');
    expect(tileWords('gingerbread/B')).toBe('tile B of the Gingerbread Man');
  });

  it('gives the configuration: the Winter Edition for the gingerbread man, Ukraine for Map Chips', () => {
    expect(setsConfig('base', ['gingerbread'])).toEqual({ base: 'winter', expansions: ['gingerbread'] });
    expect(setsConfig('base', ['map-chips'])).toEqual({ base: 'base', expansions: ['map-chips'], map: 'ukraine' });
    expect(setsConfig('winter', [])).toEqual({ base: 'winter', expansions: [] });
  });

  it('presets name only known sets and say what they are', () => {
    for (const p of PRESETS) {
      expect(setInfo(p.base)?.kind).toBe('base');
      for (const e of p.expansions) expect(setInfo(e)?.kind).toBe('expansion');
      expect(p.about.length).toBeGreaterThan(10);
    }
    expect(PRESETS.map((p) => p.name)).toEqual(expect.arrayContaining(['Base game', 'Base + River', 'Winter with the Gingerbread Man', 'The Plague', 'Ukraine map']));
  });
});

describe('the lists of games and the seats', () => {
  it('name a game\'s sets', () => {
    expect(setsWords({ base: 'winter', expansions: ['gingerbread'] })).toBe('Winter Edition + Gingerbread Man');
    expect(setsWords({ base: 'base', expansions: [] })).toBe('Base game');
    expect(setsWords({})).toBe('Base game');
  });
  it('say how strong each bot is', () => {
    expect(SEAT_KINDS.map((k) => k.kind)).toEqual(['human', 'random', 'greedy', 'mcts:200', 'mcts:2000']);
    expect(SEAT_KINDS.find((k) => k.kind === 'mcts:2000')?.label).toMatch(/strongest/);
  });
  it('"Everything" asks for the Winter Edition and the Ukraine map', () => {
    const p = PRESETS.find((x) => x.id === 'everything');
    expect(p && setsConfig(p.base, p.expansions)).toMatchObject({ base: 'winter', map: 'ukraine' });
  });
});
