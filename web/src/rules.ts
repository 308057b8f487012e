// "How to play": a short card for the base game and each expansion in a
// game, in our own words (summarised from the project's rule pages,
// shared/rules/*.md), and the first turn's hint, shown once per browser.

import type { JsonObject } from './json';
import { setInfo } from './sets';

export interface RulesCard { id: string; title: string; lines: string[] }

const BASE_LINES = [
  'On your turn, draw a tile and lay it next to the board: every side that touches a tile must match (city to city, road to road, field to field).',
  'Then you may put one of your followers on a road, city, monastery or field of that tile — only if no one holds the rest of that feature yet.',
  'A finished road scores 1 a tile, a finished city 2 a tile and 2 a coat of arms, a monastery with all 8 neighbours 9; the follower comes home.',
  'Whoever has the most followers on a feature takes its points (a tie: everyone tied scores them all).',
  'At the end, unfinished features score a little (cities 1 a tile), and each field scores 3 for every finished city it touches.',
];

const CARDS: Record<string, string[]> = {
  base: BASE_LINES,
  winter: [...BASE_LINES.slice(0, 4), 'The same rules as the base game, under snow; the winter animals on twelve tiles are only pictures.'],
  river1: [
    'The river tiles are laid first, one a turn, from the spring to the lake, before any other tile.',
    'Each must continue the river at its open end, and it may not turn back on itself in a U.',
    'Followers go on the roads, cities and fields beside the water, never on the river: it scores nothing, and it divides the fields.',
  ],
  river2: [
    'A longer river laid before the other tiles: it starts at a fork, so there are two ends to continue.',
    'It may not turn back on itself; followers go beside the water, never on it, and the river divides the fields.',
    'No follower may go on the volcano lake.',
    'With Traders & Builders, the pig herd by the river fattens its field: whoever wins that field scores 1 more for each finished city.',
  ],
  river20: [
    'The anniversary river: a double spring and two lakes, laid before the other tiles.',
    'Each tile continues an open end of the river, and the river may not turn back on itself in a U.',
    'Followers go beside the water, never on it; small bridges cross it but do not join the fields on either bank.',
  ],
  cutcassonne: [
    'Three more river tiles (bridges, a hamlet) shuffled into the river you play.',
    'They are laid like any river tile, continuing an open end of the river before the land tiles.',
    'A bridge carries its road over the water; the fields on the two banks stay apart.',
  ],
  'inns-cathedrals': [
    'A finished road with an inn by it scores 2 a tile instead of 1 — but nothing if it is unfinished at the end.',
    'A finished city with a cathedral scores 3 a tile and 3 a coat of arms — but nothing if it is unfinished at the end.',
    'Each player has one large follower: it counts as two followers when deciding who holds a feature (its points are not doubled).',
  ],
  'traders-builders': [
    'A city with wine, grain or cloth on it gives the player who finishes it one token of each — whoever owns the city.',
    'At the end, whoever holds the most of each good scores 10 (a tie: everyone tied scores 10).',
    'Builder: instead of a follower, put it on a road or city of your tile where you already have a follower. When a later tile of yours extends it, you may take a second tile (or pass).',
    'Pig: instead of a follower, put it in a field where you already have a farmer. If you win that field, it scores 4 a finished city instead of 3.',
    'Builder and pig are not followers: they hold nothing and go home when your last follower leaves their road, city or field.',
  ],
  'princess-dragon': [
    'A volcano brings the dragon onto it; nothing may be placed on the dragon\'s tile. Dragon tiles drawn before the first volcano wait until one is out.',
    'After a dragon tile the dragon moves six tiles, one a move: you first, then each player in turn. It eats every figure where it enters, never revisits a tile, never enters the fairy\'s.',
    'Instead of a figure you may move the fairy next to your follower: she shields that tile from the dragon, gives 1 point at the start of your turn, 3 when its feature scores.',
    'A magic portal lets your follower go onto any unfinished, unoccupied feature of the board instead of this tile.',
    'A princess joined to a city with knights lets you send one of them home instead of placing a figure.',
  ],
  'abbey-mayor': [
    'Twelve more tiles. You hold one abbey: instead of drawing, lay it in an empty square whose four neighbours hold tiles (lit). It closes all it touches.',
    'The abbey is a monastery. After the last tile, each player still holding one gets one more turn, from the next player round: lay it or pass.',
    'Mayor: a follower only for a city, counting one per coat of arms there (none without). Wagon: a follower on a road, city or monastery.',
    'When the wagon\'s feature scores, move it to an unfinished, free road, city or monastery on its tile or the eight around (lit), or pass.',
    'Barn, instead of a follower: on a corner of your tile where four fields meet. Farmers there score 3 a finished city at once, then go home.',
    'No follower may enter a barn field; joining farmers to it scores them 1 a city. At the end each barn scores 4 a finished city.',
  ],
  tower: [
    'Eighteen tiles have a tower foundation. Instead of a figure you may put one of your floors on any foundation or open tower of the board (lit).',
    'Then you may capture one follower in its reach: its own tile and, along its row and column, every tile as many squares away as the tower is high.',
    'A captured follower of yours goes home; another player\'s is your prisoner. When two players hold each other\'s, they are exchanged at once.',
    'Or put your follower (or large follower) on top of an open tower: it closes it, scores nothing and stays until it is captured.',
    'Once a turn, before your action, you may pay 3 points to the player holding your prisoner to take it back (the button at their seat).',
  ],
  halfsies1: [
    'You hold triangular half tiles. On your turn you may play one instead of drawing a tile (the pile beside your hand draws).',
    'A half lies against the board along a short side; every side it touches must match, and two halves can share one square.',
    'A half counts as one tile wherever tiles are counted; the triangle a half leaves empty is a gap, like an empty square.',
    'The game ends when the last normal tile is placed, halves left in hand or not.',
  ],
  halfsies2: [
    'Twelve more half tiles, played like the first set: one instead of drawing, against the board along a short side.',
    'Every side a half touches must match; a half counts as one tile wherever tiles are counted.',
    'Vineyards, sheep, hills and a crop circle are drawn on some of them.',
  ],
  plague: [
    'A source tile starts an outbreak; you place no follower on it that turn.',
    'Every turn while an outbreak is active (but not when you lay a source) you must spread a flea to a tile next to an outbreak or an active flea: followers there go home without scoring.',
    'Once a turn you may let one of your followers flee along its road, city or field to another part of it, never onto or across a flea or an outbreak.',
    'When the fleas run out, outbreaks are wiped out one by one and their fleas go quiet (latent).',
  ],
  gingerbread: [
    'Whoever lays a tile with the gingerbread symbol moves the gingerbread man to another unfinished city.',
    'The city he leaves scores at once: every knight in it earns 1 point a tile of the city, for their owner.',
    'Finishing the city he stands in scores it as usual, and he moves on to another city.',
  ],
  'map-chips': [
    'The game is played on the map of Ukraine: tiles go only on its land.',
    'Lay a tile next to a Chumak square to take chips: 2 if a road on your tile leads into it, else 1.',
    'Instead of placing a follower you may trade 1 to 4 chips of one colour onto a free space of a Chumak square: 1, 3, 6 or 10 points.',
    'A tile laid on a Chumak square scores the chips lying there. Chips left in hand score nothing.',
  ],
};

/** The card of a base game or expansion (null for one this client has no card for). */
export function rulesCard(id: string): RulesCard | null {
  const lines = CARDS[id];
  if (!lines) return null;
  return { id, title: setInfo(id)?.name ?? id, lines };
}

/** The cards of a game's sets, its base game first. */
export function rulesFor(config: JsonObject): RulesCard[] {
  const base = typeof config.base === 'string' ? config.base : 'base';
  const exps = Array.isArray(config.expansions) ? config.expansions.filter((e): e is string => typeof e === 'string') : [];
  return [...new Set([base, ...exps])].map(rulesCard).filter((c): c is RulesCard => c !== null);
}

/** The first turn's hint. */
export const FIRST_TURN_HINT = 'Your turn: drag the tile onto a lit spot (or tap one), turn it with R or by clicking it, then press Confirm. After that you may put a follower on a white spot, or skip with Pass.';

/** The first turn's hint for a finger: taps, no keys. */
export const FIRST_TURN_HINT_TOUCH = 'Your turn: tap a lit square to put the tile there, tap the tile to turn it, then tap Confirm. After that you may tap a white spot to put a follower there, or skip with Pass.';

const HINT_KEY = 'bastide.hinted';

/** Whether this browser has seen the first turn's hint. */
export function hintSeen(): boolean {
  try { return localStorage.getItem(HINT_KEY) === '1'; } catch { return true; }
}

/** Remembers that this browser has seen the hint (it is not shown again). */
export function markHintSeen(): void {
  try { localStorage.setItem(HINT_KEY, '1'); } catch { /* shown again next time */ }
}
