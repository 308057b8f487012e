import { describe, expect, it } from 'vitest';
import { rulesCard, rulesFor } from '../src/rules';
import { SETS } from '../src/sets';

describe('the rules cards', () => {
  it('has a short card for every base game and expansion', () => {
    for (const s of SETS) {
      const c = rulesCard(s.id);
      expect(c, s.id).not.toBeNull();
      expect(c?.title).toBe(s.name);
      expect(c?.lines.length, s.id).toBeGreaterThanOrEqual(3);
      expect(c?.lines.length, s.id).toBeLessThanOrEqual(6);
      for (const l of c?.lines ?? []) expect(l.length, l).toBeLessThan(200);
    }
  });
  it("gives a game's cards, its base game first, once each", () => {
    expect(rulesFor({ base: 'winter', expansions: ['gingerbread', 'river2'] }).map((c) => c.id)).toEqual(['winter', 'gingerbread', 'river2']);
    expect(rulesFor({ expansions: ['plague', 'plague', 'no-such-set'] }).map((c) => c.id)).toEqual(['base', 'plague']);
  });
});
