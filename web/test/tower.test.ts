// The Tower in the browser: its actions read and written exactly as records
// have them (notation.md), the floors and captures lit on the board, the
// follower on top chosen like any figure, the view's towers and prisoners,
// the ransom at the holder's seat, its events in words.
import { describe, expect, it } from 'vitest';
import { encodeAction, parseAction, parseEvent, parseView, type Action } from '../src/protocol';
import { boardMarks, choose, onBoard } from '../src/picks';
import { figuresOffered, spotsFor } from '../src/table';
import { describeAction, moveWords } from '../src/words';
import { rulesCard } from '../src/rules';
import { PRESETS, setInfo } from '../src/sets';
import { TOWER_EVENTS, tagPoint, floorsOf, reachOf, prisonersOf, prisonersWords, ransomsAt, topPoint, towerEventText, towerPoint, towersOf } from '../src/tower';

const act = (v: unknown): Action => parseAction(v);

describe('the Tower in record form', () => {
  it('reads and writes a floor', () => {
    const a = act({ tower: { x: 2, y: -1 } });
    expect(a).toEqual({ kind: 'tower', x: 2, y: -1 });
    expect(encodeAction(a)).toEqual({ tower: { x: 2, y: -1 } });
    expect(() => act({ tower: { x: 2 } })).toThrow();
  });
  it('reads and writes a follower on top of a tower as a follower with place tower', () => {
    const big = act({ follower: { x: 0, y: 3, place: 'tower', figure: 'big' } });
    expect(big).toEqual({ kind: 'follower', at: { x: 0, y: 3, place: 'tower', half: null }, figure: 'big' });
    expect(encodeAction(big)).toEqual({ follower: { x: 0, y: 3, place: 'tower', figure: 'big' } });
    expect(encodeAction(act({ follower: { x: 0, y: 3, place: 'tower' } }))).toEqual({ follower: { x: 0, y: 3, place: 'tower' } });
  });
  it('reads and writes the fairy moved beside a follower on top of a tower (Decision W7), and says it', () => {
    const a = act({ fairy: { x: 0, y: 1, place: 'tower' } });
    expect(a).toEqual({ kind: 'fairy', at: { x: 0, y: 1, place: 'tower', half: null } });
    expect(encodeAction(a)).toEqual({ fairy: { x: 0, y: 1, place: 'tower' } });
    expect(describeAction(a)).toBe('Move the fairy next to your follower on the top of the tower of (0, 1)');
  });
  it('reads and writes a capture, with its figure, half and exchange only when given', () => {
    const plain = act({ capture: { x: 1, y: 0, place: 'E', seat: 1 } });
    expect(plain).toEqual({ kind: 'capture', at: { x: 1, y: 0, place: 'E', half: null }, seat: 1, figure: null, exchange: null });
    expect(encodeAction(plain)).toEqual({ capture: { x: 1, y: 0, place: 'E', seat: 1 } });
    const full = { capture: { x: -2, y: 4, place: 'tower', seat: 0, figure: 'big', exchange: 'normal' } };
    expect(encodeAction(act(full))).toEqual(full);
    const half = { capture: { x: 3, y: 3, place: 'N', half: 'NE', seat: 2 } };
    expect(encodeAction(act(half))).toEqual(half);
    expect(() => act({ capture: { x: 1, y: 0, place: 'E' } })).toThrow();
  });
  it('reads and writes a ransom', () => {
    expect(encodeAction(act({ ransom: { seat: 1 } }))).toEqual({ ransom: { seat: 1 } });
    expect(act({ ransom: { seat: 0, figure: 'big' } })).toEqual({ kind: 'ransom', seat: 0, figure: 'big' });
    expect(encodeAction(act({ ransom: { seat: 0, figure: 'big' } }))).toEqual({ ransom: { seat: 0, figure: 'big' } });
  });
  it('says each action in words', () => {
    const players = ['RED', 'BLUE'];
    expect(describeAction(act({ tower: { x: 2, y: -1 } }))).toBe('A floor on the tower of the tile at (2, -1)');
    expect(describeAction(act({ follower: { x: 0, y: 3, place: 'tower' } }))).toBe('Follower on the top of the tower of (0, 3)');
    expect(describeAction(act({ capture: { x: 1, y: 0, place: 'E', seat: 1 } }), undefined, players)).toBe("Capture BLUE's follower on the east of (1, 0)");
    expect(describeAction(act({ capture: { x: 1, y: 0, place: 'tower', seat: 1, figure: 'big', exchange: 'normal' } }), undefined, players)).toBe("Capture BLUE's large follower on the top of the tower of (1, 0), taking back your follower");
    expect(describeAction(act({ ransom: { seat: 0 } }), undefined, players)).toBe('Pay 3 points to RED to take back your follower');
    expect(moveWords(act({ ransom: { seat: 0, figure: 'big' } }), players)).toBe('Pay 3 points to RED for the large follower held');
  });
});

describe('the Tower on the board', () => {
  const floorA = act({ tower: { x: 1, y: 0 } });
  const floorB = act({ tower: { x: -3, y: 2 } });
  const top = act({ follower: { x: -3, y: 2, place: 'tower' } });
  const topBig = act({ follower: { x: -3, y: 2, place: 'tower', figure: 'big' } });
  const here = act({ follower: { x: 0, y: 1, place: 'N' } });
  const pass = act({ pass: {} });
  it('lights every foundation or open tower that may take a floor, anywhere on the board; a click puts the floor there', () => {
    const legal = [here, floorA, floorB, top, topBig, pass];
    const ms = boardMarks(legal, null).filter((m) => m.kind === 'tower-at');
    expect(ms.map((m) => (m.kind === 'tower-at' ? [m.x, m.y] : null))).toEqual([[1, 0], [-3, 2]]);
    expect(ms[1]?.label).toBe('Put a floor on the tower of the tile at (-3, 2)');
    const m = ms[1];
    if (!m) throw new Error('no mark');
    expect(choose(legal, null, m)).toEqual({ pick: null, send: floorB });
    // A mark no longer legal (the step is over) sends nothing.
    expect(choose([pass], null, m)).toEqual({ pick: null, send: null });
    expect(onBoard(floorA)).toBe(true);
  });
  it('offers the follower on top like any figure: a spot of the chosen figure', () => {
    const legal = [here, floorA, top, topBig, pass];
    expect(figuresOffered(legal)).toEqual([null, 'big']);
    expect(spotsFor(legal, null)).toEqual([here, top]);
    expect(spotsFor(legal, 'big')).toEqual([topBig]);
    expect(onBoard(top)).toBe(false);
  });
  it('rings each follower in reach in the capture step; a click captures it; pass stays a button', () => {
    const road = act({ capture: { x: 2, y: 0, place: 'E', seat: 1 } });
    const onTop = act({ capture: { x: 1, y: 3, place: 'tower', seat: 0 } });
    const legal = [road, onTop, pass];
    const ms = boardMarks(legal, null, undefined, undefined, ['RED', 'BLUE']).filter((m) => m.kind === 'capture-at');
    expect(ms.map((m) => (m.kind === 'capture-at' ? m.ref : null))).toEqual([road.kind === 'capture' ? road.at : null, onTop.kind === 'capture' ? onTop.at : null]);
    expect(ms[0]?.label).toBe("Capture BLUE's follower on the east of (2, 0)");
    const m = ms[1];
    if (!m) throw new Error('no mark');
    expect(choose(legal, null, m)).toEqual({ pick: null, send: onTop });
    expect(onBoard(road)).toBe(true);
    expect(onBoard(pass)).toBe(false);
    expect(onBoard(act({ ransom: { seat: 1 } }))).toBe(false);
  });
  it('puts the tower where its tile has no follower spot, and the follower on top above its floors', () => {
    // Spots on the north-west and the south-east: the tower goes elsewhere, inside the cell.
    const p = towerPoint(1, 2, 100, [{ x: 125, y: 230 }, { x: 175, y: 275 }]);
    expect(p.x).toBeGreaterThan(100);
    expect(p.x).toBeLessThan(200);
    expect(p.y).toBeGreaterThan(200);
    expect(p.y).toBeLessThan(300);
    expect(Math.hypot(p.x - 125, p.y - 230)).toBeGreaterThan(20);
    expect(Math.hypot(p.x - 175, p.y - 275)).toBeGreaterThan(20);
    // No spots: the first choice, the north-west inside.
    expect(towerPoint(0, 0, 100, [])).toEqual({ x: 25, y: 30 });
    expect(topPoint({ x: 0, y: 0 }, 3).y).toBeLessThan(topPoint({ x: 0, y: 0 }, 1).y);
    // Drawn up to a bound: a very tall tower's top stays near its tile.
    expect(topPoint({ x: 0, y: 0 }, 30).y).toBe(topPoint({ x: 0, y: 0 }, 8).y);
  });
});

describe("the tower at its tile picture's foundation", () => {
  it('takes the printed foundation through the tile group\'s turn and shift', () => {
    // Not turned: the tag's point, shifted.
    expect(tagPoint('translate(8,8)', 'translate(58,86)')).toEqual({ x: 66, y: 94 });
    // A quarter right about the tile's centre: (58, 86) goes to (14, 58), then shifted by 8.
    const q = tagPoint('translate(8,8) rotate(90 50 50)', 'translate(58,86)');
    expect(q?.x).toBeCloseTo(22);
    expect(q?.y).toBeCloseTo(66);
    const h = tagPoint('translate(8, 8) rotate(180 50 50)', 'translate(58 86)');
    expect(h?.x).toBeCloseTo(50);
    expect(h?.y).toBeCloseTo(22);
    expect(tagPoint('translate(8,8)', 'scale(2)')).toBeNull();
  });
});

describe("the Tower's state at the table", () => {
  const view = parseView({
    players: ['RED', 'BLUE', 'GREEN'], scores: [4, 0, 7], finished: false, current_player: 0, phase: 'tile', board: [],
    tower: {
      floors: [8, 9, 7], ransom_paid: false,
      towers: [{ x: 0, y: 1, height: 0 }, { x: 2, y: 0, height: 2, top: { seat: 1, figure: 'big' } }, { x: 'bad', y: 0, height: 1 }],
      prisoners: [{ holder: 2, seat: 0 }, { holder: 2, seat: 1, figure: 'big' }, { holder: 0, seat: 1 }],
    },
  });
  it('reads the towers, their heights and tops, the floors and the prisoners', () => {
    expect(towersOf(view)).toEqual([{ x: 0, y: 1, height: 0, top: null }, { x: 2, y: 0, height: 2, top: { seat: 1, figure: 'big' } }]);
    expect(floorsOf(view)).toEqual([8, 9, 7]);
    expect(prisonersOf(view)).toEqual([{ holder: 2, seat: 0, figure: null }, { holder: 2, seat: 1, figure: 'big' }, { holder: 0, seat: 1, figure: null }]);
  });
  it('says the prisoners each seat holds', () => {
    const p = prisonersOf(view);
    expect(prisonersWords(p, 2, view.players)).toBe("holds RED's follower, BLUE's large follower");
    expect(prisonersWords(p, 1, view.players)).toBe('');
  });
  it('puts each ransom offered at the seat holding that prisoner', () => {
    const toGreen = act({ ransom: { seat: 2 } });
    const legal = [act({ draw: {} }), toGreen];
    expect(ransomsAt(legal, 2)).toEqual([toGreen]);
    expect(ransomsAt(legal, 1)).toEqual([]);
  });
  it('reads the reach of the tower being raised, only in the capture step', () => {
    expect(reachOf(view)).toEqual([]);
    const capturing = parseView({
      players: ['RED', 'BLUE'], scores: [0, 0], finished: false, current_player: 1, phase: 'capture', board: [],
      tower: { floors: [9, 9], ransom_paid: false, towers: [], prisoners: [], reach: [{ x: 0, y: 1 }, { x: 1, y: 1, half: 'NE' }, { x: 'bad', y: 0 }, { x: 2, y: 1, half: 'up' }] },
    });
    expect(reachOf(capturing)).toEqual([{ x: 0, y: 1, half: null }, { x: 1, y: 1, half: 'NE' }, { x: 2, y: 1, half: null }]);
  });
  it('has nothing without the Tower', () => {
    const plain = parseView({ players: ['RED'], scores: [0], finished: false, board: [] });
    expect(reachOf(plain)).toEqual([]);
    expect(towersOf(plain)).toEqual([]);
    expect(prisonersOf(plain)).toEqual([]);
    expect(floorsOf(plain)).toBeNull();
  });
  it('says its events in the log', () => {
    const players = ['RED', 'BLUE'];
    const ev = (o: object) => parseEvent(o, 'e');
    expect(towerEventText(ev({ reason: 'capture', points: [0, 0], feature: 'road', x: 1, y: 0, place: 'E', followers: [0, 1], seat: 0 }), players)).toBe("RED captures BLUE's follower on a road");
    expect(towerEventText(ev({ reason: 'capture', points: [0, 0], x: 1, y: 0, place: 'tower', followers: [1, 0], seat: 1 }), players)).toBe("BLUE captures RED's follower on top of a tower");
    expect(towerEventText(ev({ reason: 'exchange', points: [0, 0], followers: [1, 1] }), players)).toBe('RED and BLUE exchange prisoners: both go home');
    expect(towerEventText(ev({ reason: 'ransom', points: [-3, 3], seat: 0 }), players)).toBe('RED pays BLUE 3 points to take back a prisoner');
    expect(towerEventText(ev({ reason: 'completed', points: [4, 0] }), players)).toBeNull();
    expect(TOWER_EVENTS).toEqual(['capture', 'exchange']);
  });
});

describe('the Tower in the lobby', () => {
  it('is a set with a preset and a rules card', () => {
    expect(setInfo('tower')?.name).toBe('The Tower');
    expect(PRESETS.find((p) => p.id === 'tower')?.expansions).toEqual(['tower']);
    expect(rulesCard('tower')?.lines.length).toBeLessThanOrEqual(6);
  });
});
