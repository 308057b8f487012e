// The base games and expansions the engine knows, in one table: the name
// the lobby shows, the words tile names use ("tile R of the River"), one
// sentence of what a game with it is like, and what it needs. The lobby's
// presets are here too. (docs/expansions.md is the list the engine reads.)

import type { JsonObject } from './json';

export interface SetInfo {
  id: string;
  /** The name in the lobby. */
  name: string;
  /** In a tile's words: "tile R of the base game" (the name itself, in running text: an article, a base game in lower case). */
  words: string;
  /** One sentence for the lobby. */
  about: string;
  kind: 'base' | 'expansion';
  /** The base game it needs (the Gingerbread Man: the Winter Edition). */
  needsBase?: string;
  /** The map it is played on (Map Chips: Ukraine). */
  map?: string;
}

export const SETS: SetInfo[] = [
  { id: 'base', name: 'Base game', words: 'the base game', kind: 'base', about: '72 tiles of cities, roads, fields and monasteries: claim them with your followers and score them when they are complete.' },
  { id: 'winter', name: 'Winter Edition', words: 'the Winter Edition', kind: 'base', about: 'The base game under snow, with twelve more tiles showing winter animals.' },
  { id: 'river1', name: 'River I', words: 'the River I', kind: 'expansion', about: 'The game opens with a river: its twelve tiles are laid first, from the spring to the lake.' },
  { id: 'river2', name: 'River II', words: 'the River II', kind: 'expansion', about: 'A longer river that forks in two, with an inn, a pig herd and a volcano by its banks.' },
  { id: 'river20', name: 'River (20th anniversary)', words: 'the River (20th anniversary)', kind: 'expansion', about: 'The anniversary river of 17 tiles, with a double spring and small bridges.' },
  { id: 'cutcassonne', name: 'CutCassonne', words: 'CutCassonne', kind: 'expansion', about: 'Three more river tiles (bridges, a hamlet) shuffled into whichever river you play.' },
  { id: 'inns-cathedrals', name: 'Inns & Cathedrals', words: 'Inns & Cathedrals', kind: 'expansion', about: 'Inns double a road, cathedrals a city — if finished; and each player has one large follower that counts twice.' },
  { id: 'traders-builders', name: 'Traders & Builders', words: 'Traders & Builders', kind: 'expansion', about: 'Wine, grain and cloth for the cities you finish, a builder that gives you a second tile, and a pig that fattens your farm.' },
  { id: 'princess-dragon', name: 'The Princess & the Dragon', words: 'the Princess & the Dragon', kind: 'expansion', about: 'A volcano brings a dragon that every player steers in turn and that eats the figures it meets; a fairy guards one follower, portals and princesses change the board.' },
  { id: 'abbey-mayor', name: 'Abbey & Mayor', words: 'Abbey & Mayor', kind: 'expansion', about: 'Twelve more tiles; an abbey in each hand, dropped into a hole closed on all four sides instead of drawing; a mayor as strong as its city\'s coats of arms; a wagon that rolls on after its feature scores; a barn set on a corner where fields meet: it scores the farmers there, then the field is the barn\'s.' },
  { id: 'tower', name: 'The Tower', words: 'the Tower', kind: 'expansion', about: 'Eighteen tiles with tower foundations: raise a tower anywhere on the board to capture a follower in its reach, hold it prisoner until it is exchanged or ransomed for 3 points.' },
  { id: 'halfsies1', name: 'Half-and-half 1', words: 'Half-and-half 1', kind: 'expansion', about: 'Triangular half tiles in your hand: play one instead of drawing, two halves fill one square.' },
  { id: 'halfsies2', name: 'Half-and-half 2', words: 'Half-and-half 2', kind: 'expansion', about: 'Twelve more half tiles, with vineyards, sheep, hills and a crop circle drawn on them.' },
  { id: 'plague', name: 'The Plague', words: 'the Plague', kind: 'expansion', about: 'Outbreaks break out and spread fleas from tile to tile; followers where a flea lands go home, so flee in time.' },
  { id: 'gingerbread', name: 'Gingerbread Man', words: 'the Gingerbread Man', kind: 'expansion', needsBase: 'winter', about: 'The gingerbread man visits cities: every knight in the city he leaves scores a point a tile (Winter Edition only).' },
  { id: 'map-chips', name: 'Map Chips (Ukraine map)', words: 'Map Chips', kind: 'expansion', map: 'ukraine', about: 'Play on the map of Ukraine, collect chips from the land and trade them on the Chumak squares for points.' },
];

/** A set by id. */
export function setInfo(id: string): SetInfo | undefined {
  return SETS.find((s) => s.id === id);
}

/** A set's name in a tile's words ("the River"), the id itself for one this client does not know. */
export function setWords(id: string): string {
  return setInfo(id)?.words ?? id;
}

/** A preset: a base game and expansions chosen together, with what it is. */
export interface Preset { id: string; name: string; about: string; base: string; expansions: string[] }

export const PRESETS: Preset[] = [
  { id: 'base', name: 'Base game', base: 'base', expansions: [], about: 'Carcassonne as it comes in the box: the best first game.' },
  { id: 'river', name: 'Base + River', base: 'base', expansions: ['river1'], about: 'The base game opened by the River: a calm start along the water.' },
  { id: 'winter-gingerbread', name: 'Winter with the Gingerbread Man', base: 'winter', expansions: ['gingerbread'], about: 'The Winter Edition, and the gingerbread man scoring knights as he leaves their city.' },
  { id: 'river-winter-gingerbread', name: 'River II + Winter + Gingerbread', base: 'winter', expansions: ['river2', 'gingerbread'], about: 'The forked river under snow, and the gingerbread man.' },
  { id: 'plague', name: 'The Plague', base: 'base', expansions: ['plague'], about: 'The base game with outbreaks and fleas: keep your followers clear of the plague.' },
  { id: 'ukraine', name: 'Ukraine map', base: 'base', expansions: ['map-chips'], about: 'The base tiles on the map of Ukraine, with chips to collect and trade.' },
  { id: 'halves', name: 'Half-and-half', base: 'base', expansions: ['halfsies1', 'halfsies2'], about: 'Both sets of half tiles: a hand to plan with.' },
  { id: 'inns', name: 'Inns & Cathedrals', base: 'base', expansions: ['inns-cathedrals'], about: 'Bigger stakes: inns, cathedrals and the large follower.' },
  { id: 'traders', name: 'Traders & Builders', base: 'base', expansions: ['traders-builders'], about: 'Goods for finishing cities, the builder\'s double turns and the pig: the most played expansion.' },
  { id: 'traders-river', name: 'Traders & Builders + River II', base: 'base', expansions: ['river2', 'traders-builders'], about: 'The forked river with its pig herd, which fattens every farm it lies in, and the traders and builders.' },
  { id: 'princess-dragon', name: 'The Princess & the Dragon', base: 'base', expansions: ['princess-dragon'], about: 'The dragon, steered by everyone in turn, the fairy, magic portals and princesses: the wildest expansion.' },
  { id: 'tower', name: 'The Tower', base: 'base', expansions: ['tower'], about: 'Towers raised anywhere on the board capture the followers in their reach: prisoners, exchanges and ransoms.' },
  { id: 'everything', name: 'Everything', base: 'winter', expansions: ['river1', 'river2', 'cutcassonne', 'inns-cathedrals', 'traders-builders', 'princess-dragon', 'halfsies1', 'halfsies2', 'plague', 'gingerbread', 'map-chips'], about: 'Every expansion at once, on the map of Ukraine: a long, busy game.' },
];

/** A game's sets in words, for the lists of games: "Winter Edition + Gingerbread Man". */
export function setsWords(config: JsonObject): string {
  const base = typeof config.base === 'string' ? config.base : 'base';
  const exps = Array.isArray(config.expansions) ? config.expansions.filter((e): e is string => typeof e === 'string') : [];
  return [base, ...exps].map((id) => setInfo(id)?.name ?? id).join(' + ');
}

/** The seats' kinds in the lobby, with how strong each bot plays. */
export const SEAT_KINDS: { kind: string; label: string }[] = [
  { kind: 'human', label: 'person' },
  { kind: 'random', label: 'bot: random (plays any legal move)' },
  { kind: 'greedy', label: 'bot: greedy (quick, takes the most points now)' },
  { kind: 'mcts:200', label: 'bot: mcts:200 (looks ahead a little)' },
  { kind: 'mcts:2000', label: 'bot: mcts:2000 (strongest, takes its time)' },
];

/**
 * The configuration a choice of sets gives: the base game (the Winter
 * Edition whenever an expansion needs it) and the map an expansion is
 * played on.
 */
export function setsConfig(base: string, expansions: string[]): JsonObject {
  const needs = expansions.map((e) => setInfo(e)?.needsBase).find((b) => b !== undefined);
  const config: JsonObject = { base: needs ?? base, expansions };
  const map = expansions.map((e) => setInfo(e)?.map).find((m) => m !== undefined);
  if (map) config.map = map;
  return config;
}
