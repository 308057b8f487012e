// The rule options the lobby offers (the engine's `config.options`,
// docs/expansions.md "Options"), in words, with presets of them; and the
// options object a choice gives. Pure, tested in test/options.test.ts.

import type { JsonObject } from './json';

/** A rule option: the engine's name, its words, and the set it is about (none: any game). */
export interface RuleOption { id: string; label: string; about: string; set?: string; also?: string }

/** The switches (false unless chosen). `halfsies_scoring` is written as "2014" when chosen; `pig_herd_bonus` and `volcano_extra_turn` (true in the engine) as false. */
export const RULE_OPTIONS: RuleOption[] = [
  { id: 'draft', label: 'Half-and-half draft', set: 'halfsies1', about: 'the halves are drafted face up before the first turn, last player first, two rounds' },
  { id: 'halfsies_scoring', label: 'Half-and-half 2014 scoring', set: 'halfsies1', about: 'two halves in one square count as one tile' },
  { id: 'river_no_followers', label: 'No followers on the river', set: 'river', about: 'house rule: no followers until the river is complete' },
  { id: 'river_shuffle_all', label: 'Shuffle the whole river', set: 'river', about: 'house rule: the spring and lakes are shuffled with the river; the first drawn starts it' },
  { id: 'river_lake_to_source', label: 'River from the lake', set: 'river', about: 'house rule: build from the lake up to the spring' },
  { id: 'river_both_lakes', label: 'Both lakes', set: 'river', about: 'River I and River II: keep both lakes' },
  { id: 'pig_herd_bonus', label: 'No pig herd bonus', set: 'traders-builders', about: 'house rule: River II\'s pig herd gives the farmers nothing' },
  { id: 'volcano_extra_turn', label: 'No extra turn after the volcano lake', set: 'princess-dragon', also: 'river2', about: 'River II\'s volcano lake brings the dragon but gives no second turn' },
  { id: 'gingerbread_misprint', label: 'First print of the Gingerbread Man', set: 'gingerbread', about: 'no tile D, two tiles C' },
];

/** The switches the engine has on unless told: choosing them in the lobby turns them off. */
const ON_BY_DEFAULT = ['pig_herd_bonus', 'volcano_extra_turn'];

/** Followers per player: the engine's bounds and default. */
export const FOLLOWERS = { min: 1, max: 20, standard: 7 };

/** The rule options chosen: followers per player and the switches on. */
export interface RuleChoice { followers: number; on: string[] }

/** A preset of rule options, with the expansions it needs checked. */
export interface RulePreset { id: string; name: string; about: string; choice: RuleChoice; expansions: string[] }

export const RULE_PRESETS: RulePreset[] = [
  { id: 'standard', name: 'Standard rules', about: '7 followers each, the rules as printed.', choice: { followers: FOLLOWERS.standard, on: [] }, expansions: [] },
  { id: 'draft', name: 'Half-and-half draft', about: 'Both sets of halves, drafted face up before the first turn.', choice: { followers: FOLLOWERS.standard, on: ['draft'] }, expansions: ['halfsies1', 'halfsies2'] },
  { id: 'maps', name: 'Nine followers', about: 'Nine followers each, as the Maps of Carcassonne recommend.', choice: { followers: 9, on: [] }, expansions: [] },
  { id: 'calm-river', name: 'Calm river', about: 'The River, no followers on it until it is complete.', choice: { followers: FOLLOWERS.standard, on: ['river_no_followers'] }, expansions: ['river1'] },
];

/** Whether a rule option is about a set among `sets` (River I, II and the anniversary river are all "river"). */
export function applies(o: RuleOption, sets: string[]): boolean {
  if (!o.set) return true;
  if (o.also && !sets.includes(o.also)) return false;
  if (o.set === 'river') return sets.some((s) => s.startsWith('river'));
  if (o.set === 'halfsies1') return sets.some((s) => s.startsWith('halfsies'));
  return sets.includes(o.set);
}

/**
 * The configuration's `options` for a choice among the sets played: the
 * followers when not the standard number, each switch that is on and is
 * about a set in the game (a switch about a set not played is left out).
 */
export function optionsConfig(choice: RuleChoice, sets: string[]): JsonObject {
  const out: JsonObject = {};
  const n = Math.round(choice.followers);
  if (Number.isFinite(n) && n !== FOLLOWERS.standard) out.followers = Math.min(FOLLOWERS.max, Math.max(FOLLOWERS.min, n));
  for (const o of RULE_OPTIONS) {
    if (!choice.on.includes(o.id) || !applies(o, sets)) continue;
    out[o.id] = o.id === 'halfsies_scoring' ? '2014' : !ON_BY_DEFAULT.includes(o.id);
  }
  return out;
}
