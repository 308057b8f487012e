// Traders & Builders at the table: the goods each seat holds, whether its
// builder and pig are in its supply, the builder's second tile, and River
// II's pig herd. Read from the view's expansion parts (notation.md:
// `goods`, `builders`, `pigs`); pure, tested in test/traders.test.ts.

import { isObject, type JsonObject } from './json';
import type { Action, View } from './protocol';

/** The three kinds of goods, in the rules' order. */
export const GOODS = ['wine', 'grain', 'cloth'] as const;
export type Good = (typeof GOODS)[number];
export type Goods = Record<Good, number>;

/** River II's tiles that show the pig herd (the catalog's `pigherd` tag: `river2/F`). */
export const HERD_TILES = ['river2/F'];

const count = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);

/** Each seat's goods (null: the game has no Traders & Builders). */
export function goodsOf(view: View): Goods[] | null {
  const g = view.extras.goods;
  if (!Array.isArray(g)) return null;
  return g.map((x) => {
    const o: JsonObject = isObject(x) ? x : {};
    return { wine: count(o.wine), grain: count(o.grain), cloth: count(o.cloth) };
  });
}

/** Whether each seat's builder (or pig) is in its supply (null: no such figure in the game). */
export function inSupply(view: View, figure: 'builder' | 'pig'): boolean[] | null {
  const v = view.extras[figure === 'builder' ? 'builders' : 'pigs'];
  return Array.isArray(v) ? v.map((x) => x === true) : null;
}

/** A seat's goods in words: "wine 2, cloth 1", "no goods". */
export function goodsWords(g: Goods): string {
  const held = GOODS.filter((k) => g[k] > 0).map((k) => `${k} ${g[k]}`);
  return held.length === 0 ? 'no goods' : held.join(', ');
}

/** A seat's builder and pig in words: "builder and pig in the supply", "builder on the board, pig in the supply". */
export function specialsWords(builder: boolean | null, pig: boolean | null): string {
  const part = (name: string, home: boolean | null): string | null => (home === null ? null : `${name} ${home ? 'in the supply' : 'on the board'}`);
  if (builder !== null && pig !== null && builder === pig) return `builder and pig ${builder ? 'in the supply' : 'on the board'}`;
  return [part('builder', builder), part('pig', pig)].filter((x) => x !== null).join(', ');
}

/**
 * The builder's second tile, when it is offered: the step is the builder
 * step and `draw` (take it) or `pass` (decline it) are legal.
 */
export function secondTile(phase: string, legal: Action[]): { draw: Action | null; pass: Action | null } | null {
  if (phase !== 'builder') return null;
  const draw = legal.find((a) => a.kind === 'draw') ?? null;
  const pass = legal.find((a) => a.kind === 'pass') ?? null;
  return draw || pass ? { draw, pass } : null;
}

/** Whether a game's pig herd does something (Traders & Builders is played, and the house rule does not switch it off). */
export function herdCounts(config: JsonObject): boolean {
  const exps = Array.isArray(config.expansions) ? config.expansions : [];
  const options = isObject(config.options) ? config.options : {};
  return exps.includes('traders-builders') && options.pig_herd_bonus !== false;
}

/** The cells of the pig herd tiles on the board, when the herd counts. */
export function herds(view: View, config: JsonObject): { x: number; y: number }[] {
  return herdCounts(config) ? view.board.filter((p) => HERD_TILES.includes(p.tile)).map((p) => ({ x: p.x, y: p.y })) : [];
}
