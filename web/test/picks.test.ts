import { describe, expect, it } from 'vitest';
import { inHalf } from '../src/board';
import { boardMarks, choose, chipText, cityAt, draftTiles, halfPolygon, keepPick, onBoard, tradePoints, type Mark } from '../src/picks';
import { parseAction, parseView, type Action, type Corner } from '../src/protocol';
import { barnPoint, barnsOf } from '../src/barns';
import { handTiles, spotsFor } from '../src/table';
import { BY_COORDINATES, chipsWords, halvesWords, placeWords, tileLine, tileWords } from '../src/words';

const act = (json: object): Action => parseAction(json);
const flea = (x: number, y: number, extra: object = {}): Action => act({ flea: { x, y, ...extra } });
const flee = (from: object, to: object): Action => act({ flee: { from, to } });
const trade = (x: number, y: number, chips: [string, number][]): Action => act({ trade: { x, y, chips: chips.map(([colour, value]) => ({ colour, value })) } });
const pass = act({ pass: {} });
const follower = act({ follower: { x: 0, y: 0, place: 'N' } });

const kinds = (ms: Mark[]): string[] => ms.map((m) => m.kind);
const find = <K extends Mark['kind']>(ms: Mark[], kind: K, i = 0): Extract<Mark, { kind: K }> => {
  const found = ms.filter((m): m is Extract<Mark, { kind: K }> => m.kind === kind)[i];
  if (!found) throw new Error(`no ${kind} mark ${i}`);
  return found;
};

describe('the Plague on the board: spreading a flea', () => {
  const legal = [follower, pass, flea(1, 0), flea(2, -1), flea(3, 3, { half: 'NW' }), flea(3, 3, { half: 'SE' })];

  it('lights each tile that may take a flea once, halves apart', () => {
    const ms = boardMarks(legal, null).filter((m) => m.kind === 'flea-to');
    expect(ms.map((m) => m.kind === 'flea-to' && m.cell)).toEqual([
      { x: 1, y: 0, half: null }, { x: 2, y: -1, half: null }, { x: 3, y: 3, half: 'NW' }, { x: 3, y: 3, half: 'SE' },
    ]);
    expect(ms[0]?.label).toBe('Spread a flea to the tile at (1, 0)');
  });

  it('a click on a lit tile sends that spread at once', () => {
    const m = find(boardMarks(legal, null), 'flea-to', 1);
    expect(choose(legal, null, m)).toEqual({ pick: null, send: legal[3] });
    const half = find(boardMarks(legal, null), 'flea-to', 3);
    expect(choose(legal, null, half).send).toBe(legal[5]);
  });

  it('a tile that several fleas may move to lights those fleas, and a click on one moves it', () => {
    const moves = [pass, flea(4, 0, { from: { x: 1, y: 1 } }), flea(4, 0, { from: { x: 2, y: 1 } }), flea(5, 0, { from: { x: 1, y: 1 } })];
    const to = find(boardMarks(moves, null), 'flea-to');
    expect(kinds(boardMarks(moves, null))).toEqual(['flea-to', 'flea-to']);
    const step = choose(moves, null, to);
    expect(step).toEqual({ pick: { kind: 'flea', to: { x: 4, y: 0, half: null } }, send: null });
    const sources = boardMarks(moves, step.pick);
    expect(sources.map((m) => m.kind === 'flea-from' && m.cell)).toEqual([{ x: 1, y: 1, half: null }, { x: 2, y: 1, half: null }]);
    expect(choose(moves, step.pick, find(sources, 'flea-from', 1))).toEqual({ pick: null, send: moves[2] });
  });

  it('a single move from the board is sent at once', () => {
    const moves = [flea(4, 0, { from: { x: 1, y: 1 } })];
    expect(choose(moves, null, find(boardMarks(moves, null), 'flea-to')).send).toBe(moves[0]);
  });

  it('a half tile is lit as its triangle, the same one the hover test reads', () => {
    for (const c of ['NW', 'NE', 'SE', 'SW'] as Corner[]) {
      const pts = halfPolygon(2, -1, c, 100);
      const cx = pts.reduce((s, p) => s + p[0], 0) / 3;
      const cy = pts.reduce((s, p) => s + p[1], 0) / 3;
      expect(inHalf(c, cx / 100 - 2, cy / 100 + 1)).toBe(true);
      expect(pts.every(([x, y]) => x >= 200 && x <= 300 && y >= -100 && y <= 0)).toBe(true);
    }
  });
});

describe('the Plague on the board: flight', () => {
  const a = { x: 0, y: 0, place: 'N' };
  const b = { x: 2, y: 1, place: 'E' };
  const legal = [pass, flee(a, { x: 0, y: -1, place: 'S' }), flee(a, { x: 1, y: -1, place: 'W' }), flee(b, { x: 3, y: 1, place: 'W' })];

  it('lights each follower that may flee, and no destination before one is chosen', () => {
    const ms = boardMarks(legal, null);
    expect(kinds(ms)).toEqual(['flee-from', 'flee-from']);
    expect(ms.map((m) => m.kind === 'flee-from' && m.ref)).toEqual([{ ...a, half: null }, { ...b, half: null }]);
  });

  it('the first click chooses the follower and lights only its destinations', () => {
    const step = choose(legal, null, find(boardMarks(legal, null), 'flee-from'));
    expect(step.send).toBeNull();
    const ms = boardMarks(legal, step.pick);
    expect(kinds(ms)).toEqual(['flee-from', 'flee-to', 'flee-to']);
    expect(find(ms, 'flee-from').selected).toBe(true);
    expect(ms.map((m) => m.kind === 'flee-to' && m.ref.x)).toEqual([false, 0, 1]);
  });

  it('the second click on a destination sends that flight', () => {
    const step = choose(legal, null, find(boardMarks(legal, null), 'flee-from', 1));
    const to = find(boardMarks(legal, step.pick), 'flee-to');
    expect(choose(legal, step.pick, to)).toEqual({ pick: null, send: legal[3] });
  });

  it('a click on the chosen follower again cancels', () => {
    const step = choose(legal, null, find(boardMarks(legal, null), 'flee-from'));
    expect(choose(legal, step.pick, find(boardMarks(legal, step.pick), 'flee-from'))).toEqual({ pick: null, send: null });
  });

  it('a pick the legal actions no longer allow is dropped', () => {
    const pick = choose(legal, null, find(boardMarks(legal, null), 'flee-from')).pick;
    expect(keepPick(legal, pick)).toEqual(pick);
    expect(keepPick([pass], pick)).toBeNull();
    expect(keepPick(legal, null)).toBeNull();
  });

  it('flights are marks, not follower spots', () => {
    expect(spotsFor([...legal, follower], null)).toEqual([follower]);
  });
});

describe('Map Chips on the board: trading', () => {
  const legal = [pass, follower, trade(5, -4, [['purple', 2]]), trade(5, -4, [['purple', 1], ['purple', 2]]), trade(5, -4, [['orange', 1]]), trade(1, 2, [['blue', 1]])];
  const names = (x: number): string => (x === 5 ? 'Kyiv' : 'Odesa');

  it('lights each Chumak square one may trade on, once', () => {
    const ms = boardMarks(legal, null, { ...BY_COORDINATES, square: names });
    expect(kinds(ms)).toEqual(['trade-at', 'trade-at']);
    expect(ms[0]?.label).toBe('Trade chips on Kyiv');
  });

  it('a click on a square offers its chips there, by colour', () => {
    const step = choose(legal, null, find(boardMarks(legal, null, { ...BY_COORDINATES, square: names }), 'trade-at'));
    expect(step).toEqual({ pick: { kind: 'trade', x: 5, y: -4 }, send: null });
    const ms = boardMarks(legal, step.pick, { ...BY_COORDINATES, square: names });
    expect(kinds(ms)).toEqual(['trade-at', 'trade-chips', 'trade-chips', 'trade-chips']);
    const chips = ms.filter((m): m is Extract<Mark, { kind: 'trade-chips' }> => m.kind === 'trade-chips');
    expect(chips.map((c) => [c.colour, c.text])).toEqual([['purple', '2'], ['purple', '1+2'], ['orange', '1']]);
    expect(chips[1]?.label).toBe('Trade purple 1 and 2 on Kyiv: 3 points');
  });

  it('a chip button sends its trade; the square again closes the choices', () => {
    const pick = choose(legal, null, find(boardMarks(legal, null, { ...BY_COORDINATES, square: names }), 'trade-at')).pick;
    expect(choose(legal, pick, find(boardMarks(legal, pick, { ...BY_COORDINATES, square: names }), 'trade-chips', 2))).toEqual({ pick: null, send: legal[4] });
    expect(choose(legal, pick, find(boardMarks(legal, pick, { ...BY_COORDINATES, square: names }), 'trade-at'))).toEqual({ pick: null, send: null });
  });

  it('chips in words and points', () => {
    expect(chipText([{ colour: 'blue', value: 1 }, { colour: 'blue', value: 1 }])).toEqual({ colour: 'blue', text: '1+1' });
    expect([1, 2, 3, 4].map(tradePoints)).toEqual([1, 3, 6, 10]);
  });

  it('only fleas, flights and trades are board marks', () => {
    expect(legal.filter(onBoard)).toEqual(legal.slice(2));
    expect(onBoard(flea(0, 0))).toBe(true);
    expect(onBoard(flee({ x: 0, y: 0, place: 'N' }, { x: 0, y: 1, place: 'S' }))).toBe(true);
  });
});

describe('Half-and-half: the hand', () => {
  it('shows the placeable tiles first, then the halves that wait for the turn', () => {
    expect(handTiles(['base/U', 'halfsies1/A'], ['halfsies1/A', 'halfsies1/I'])).toEqual(['base/U', 'halfsies1/A', 'halfsies1/I']);
    expect(handTiles([], ['halfsies1/A', 'halfsies1/I'])).toEqual(['halfsies1/A', 'halfsies1/I']);
  });
});

describe('words instead of raw ids', () => {
  it('names tiles, turns and fits', () => {
    expect(tileLine('base/R', 90, 1)).toBe('Tile R of the base game, turned a quarter right: fits in 1 place');
    expect(tileLine('halfsies1/A', 0, 3)).toBe('Half tile A of Half-and-half 1, not turned: fits in 3 places');
    expect(tileWords('someset/Q')).toBe('tile Q of someset');
    expect(placeWords('ESE')).toBe('east-south-east');
    expect(placeWords('C')).toBe('centre');
    expect(placeWords('H1')).toBe('long side (first part)');
    expect(placeWords('I1')).toBe('inner field');
    expect(placeWords('I2')).toBe('second inner field');
  });
  it('says hands: own chips by colour, others only how many', () => {
    expect(halvesWords({ tiles: ['halfsies1/A'] })).toBe('1 half');
    expect(halvesWords({ hidden: 2 })).toBe('2 halves');
    expect(chipsWords({ hidden: 3 })).toBe('3 chips');
    expect(chipsWords({ chips: [{ colour: 'orange', value: 2 }, { colour: 'purple', value: 2 }, { colour: 'purple', value: 1 }] })).toBe('purple 1, 2; orange 2');
    expect(chipsWords({ chips: [] })).toBe('no chips');
  });
});

describe('the gingerbread man on the board: a city chosen by clicking it', () => {
  const g1 = act({ gingerbread: { x: 0, y: 0, place: 'N' } });
  const g2 = act({ gingerbread: { x: 1, y: 0, place: 'E' } });
  const g3 = act({ gingerbread: { x: 1, y: 0, place: 'W' } });
  const legal = [g1, g2, g3];

  it('lights each city he may go to, and a click on one moves him', () => {
    const ms = boardMarks(legal, null);
    expect(kinds(ms)).toEqual(['ginger-city', 'ginger-city', 'ginger-city']);
    expect(ms[0]?.label).toBe('Move the gingerbread man to the city at the north of (0, 0)');
    expect(choose(legal, null, find(ms, 'ginger-city', 1))).toEqual({ pick: null, send: g2 });
    expect(onBoard(g1)).toBe(true);
    expect(spotsFor(legal, null)).toEqual([]);
  });

  it('a click on any tile of a lit city chooses it; on a tile two cities share, the nearer one', () => {
    const ms = boardMarks(legal, null).filter((m): m is Extract<Mark, { kind: 'ginger-city' }> => m.kind === 'ginger-city');
    const [a, b, c] = ms;
    if (!a || !b || !c) throw new Error('three cities');
    const cities = [{ mark: a, cells: [[0, 0], [0, -1]] as [number, number][] }, { mark: b, cells: [[1, 0], [2, 0]] as [number, number][] }, { mark: c, cells: [[1, 0], [1, 1]] as [number, number][] }];
    // Spots in cell units: E of (1, 0) on the right, W on the left.
    const spot = (r: { x: number; y: number; place: string }): { x: number; y: number } => ({ x: r.x + (r.place === 'E' ? 0.85 : r.place === 'W' ? 0.15 : 0.5), y: r.y + (r.place === 'N' ? 0.15 : 0.5) });
    expect(cityAt(cities, { x: 0.5, y: -0.5 }, spot)?.mark).toBe(a);
    expect(cityAt(cities, { x: 2.5, y: 0.5 }, spot)?.mark).toBe(b);
    expect(cityAt(cities, { x: 1.8, y: 0.5 }, spot)?.mark).toBe(b);
    expect(cityAt(cities, { x: 1.2, y: 0.5 }, spot)?.mark).toBe(c);
    expect(cityAt(cities, { x: 5, y: 5 }, spot)).toBeNull();
    // Before the server told the city's tiles, its own tile still counts.
    expect(cityAt([{ mark: a, cells: [] }], { x: 0.4, y: 0.4 }, spot)?.mark).toBe(a);
  });
});

describe('the Half-and-half draft: halves as pictures', () => {
  it('offers each half in the pool once', () => {
    const d1 = act({ draft: { tile: 'halfsies1/A' } });
    const d2 = act({ draft: { tile: 'halfsies1/B' } });
    expect(draftTiles([d1, d2, d1, pass]).map((d) => d.tile)).toEqual(['halfsies1/A', 'halfsies1/B']);
    expect(draftTiles([d1, d2]).map((d) => d.action)).toEqual([d1, d2]);
  });
});

describe('Abbey & Mayor on the board: the barn', () => {
  const nw = act({ barn: { x: 1, y: 1, corner: 'NW' } });
  const se = act({ barn: { x: 1, y: 1, corner: 'SE' } });
  const legal = [follower, nw, se, pass];

  it('reads and writes the barn in record form', () => {
    expect(nw).toEqual({ kind: 'barn', x: 1, y: 1, corner: 'NW', half: null });
    expect(act({ barn: { x: 2, y: 0, corner: 'NE', half: 'SW' } })).toEqual({ kind: 'barn', x: 2, y: 0, corner: 'NE', half: 'SW' });
    expect(() => act({ barn: { x: 1, y: 1, corner: 'N' } })).toThrow();
    expect(onBoard(nw)).toBe(true);
  });

  it('lights each corner the barn may go to; a click sends that barn', () => {
    const ms = boardMarks(legal, null).filter((m) => m.kind === 'barn-at');
    expect(ms.map((m) => m.kind === 'barn-at' && [m.x, m.y, m.corner])).toEqual([[1, 1, 'NW'], [1, 1, 'SE']]);
    const m = find(ms, 'barn-at', 1);
    expect(m.label).toBe('Put your barn on the south-east corner of the tile at (1, 1)');
    expect(choose(legal, null, m)).toEqual({ pick: null, send: se });
    // A corner no longer legal (the turn moved on) sends nothing.
    expect(choose([pass], null, m)).toEqual({ pick: null, send: null });
  });
});

describe('Abbey & Mayor at the table: the barns in the view', () => {
  it('reads each barn with its grid point, and nothing without the set', () => {
    const base = { players: ['RED', 'BLUE'], scores: [0, 0], finished: false, current_player: 0, phase: 'place', drawn: null, tiles_left: 3, supply: [7, 7], events: [], board: [], followers: [] };
    const v = parseView({ ...base, barns: [{ x: 1, y: 1, corner: 'NW', seat: 1 }, { x: 0, y: 0, corner: 'up', seat: 0 }], barns_in_supply: [true, false] });
    expect(barnsOf(v)).toEqual([{ x: 1, y: 1, corner: 'NW', seat: 1 }]);
    expect(barnPoint({ x: 1, y: 1, corner: 'NW' })).toEqual({ x: 1, y: 1 });
    expect(barnPoint({ x: 1, y: 1, corner: 'SE' })).toEqual({ x: 2, y: 2 });
    expect(barnPoint({ x: 0, y: 2, corner: 'NE' })).toEqual({ x: 1, y: 2 });
    expect(barnsOf(parseView(base))).toEqual([]);
  });
});
