import { describe, expect, it } from 'vitest';
import { RULE_PRESETS, optionsConfig } from '../src/options';

describe('the lobby\'s rule options', () => {
  it('writes only what differs from the rules as printed, for the sets played', () => {
    expect(optionsConfig({ followers: 7, on: [] }, [])).toEqual({});
    expect(optionsConfig({ followers: 9, on: ['draft', 'river_no_followers'] }, ['halfsies1'])).toEqual({ followers: 9, draft: true });
    expect(optionsConfig({ followers: 99, on: ['halfsies_scoring'] }, ['halfsies2'])).toEqual({ followers: 20, halfsies_scoring: '2014' });
    expect(optionsConfig({ followers: 7, on: ['river_no_followers'] }, ['river20'])).toEqual({ river_no_followers: true });
  });
  it('a preset checks the sets its options are about', () => {
    for (const p of RULE_PRESETS) expect(Object.keys(optionsConfig(p.choice, p.expansions)).length).toBe(p.choice.on.length + (p.choice.followers === 7 ? 0 : 1));
  });
});
