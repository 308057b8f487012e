import { describe, expect, it } from 'vitest';
import { spotsFor } from '../src/panels/choices';
import { eventText } from '../src/panels/log';
import { optionsConfig } from '../src/options';
import { encodeAction, parseAction, parseEvent, parseView } from '../src/protocol';
import { boardMarks, choose, onBoard } from '../src/picks';
import { rulesFor } from '../src/rules';
import { PRESETS, setInfo } from '../src/sets';
import { dragonOf, dragonStepWords, eatsWords, fairyOf, figuresOn, neutralsWords, portalOpen } from '../src/dragon';
import { describeAction, moveWords } from '../src/words';

const view = (extras: Record<string, unknown>, phase = 'follower', current = 0) => parseView({
  players: ['RED', 'BLUE'], scores: [0, 0], finished: false, current_player: current, phase,
  board: [{ tile: 'base/D', x: 0, y: 0, rotation: 0 }, { tile: 'princess-dragon/G', x: 1, y: 0, rotation: 0 }, { tile: 'base/U', x: 0, y: 1, rotation: 0 }],
  followers: [{ seat: 1, x: 1, y: 0, place: 'N', feature: 'city' }, { seat: 0, x: 1, y: 0, place: 'S', feature: 'field', figure: 'pig' }, { seat: 0, x: 0, y: 1, place: 'N', feature: 'road' }],
  ...extras,
});

describe('Princess & Dragon at the table', () => {
  it('reads the dragon and the fairy from the view, and nothing without the set', () => {
    const v = view({ dragon: { tile: { x: 1, y: 0 }, set_aside: 2, moves: 3 }, fairy: { x: 0, y: 1, place: 'N', at: { x: 0, y: 1 }, with: 0 } });
    expect(dragonOf(v)).toEqual({ tile: { x: 1, y: 0, half: null }, setAside: 2, moves: 3 });
    expect(fairyOf(v)).toEqual({ at: { x: 0, y: 1, place: 'N', half: null }, with: 0 });
    // Before the first volcano the dragon is beside the board; a fairy with nobody keeps her tile.
    const early = view({ dragon: { tile: null, set_aside: 1, moves: 0 }, fairy: { x: 0, y: 1, place: 'N', at: { x: 0, y: 1 }, with: null } });
    expect(dragonOf(early)?.tile).toBeNull();
    expect(fairyOf(early)?.with).toBeNull();
    const plain = view({});
    expect(dragonOf(plain)).toBeNull();
    expect(fairyOf(plain)).toBeNull();
  });

  it('says where the dragon and the fairy are', () => {
    const players = ['RED', 'BLUE'];
    expect(neutralsWords(view({ dragon: { tile: null, set_aside: 2, moves: 0 } }), players)).toEqual(['The dragon waits beside the board for the first volcano (2 dragon tiles set aside).']);
    expect(neutralsWords(view({ dragon: { tile: { x: 1, y: 0 }, set_aside: 0, moves: 0 }, fairy: { x: 0, y: 1, place: 'N', at: { x: 0, y: 1 }, with: 1 } }), players))
      .toEqual(['The dragon is on the tile at (1, 0).', 'The fairy is with BLUE\'s follower on the north of (0, 1).']);
    expect(neutralsWords(view({}), players)).toEqual([]);
  });

  it('names whose move of the dragon it is, and which of the six', () => {
    const v = view({ dragon: { tile: { x: 1, y: 0 }, set_aside: 0, moves: 3 } }, 'dragon', 1);
    expect(dragonStepWords(v, ['RED', 'BLUE'])).toBe('BLUE moves the dragon: move 4 of 6');
    expect(dragonStepWords(view({ dragon: { tile: { x: 1, y: 0 }, set_aside: 0, moves: 0 } }, 'follower'), ['RED', 'BLUE'])).toBeNull();
  });

  it('lights each tile the dragon may enter, saying what it would eat there; a click sends that move', () => {
    const v = view({ dragon: { tile: { x: 0, y: 0 }, set_aside: 0, moves: 0 } }, 'dragon');
    const east = parseAction({ dragon: { x: 1, y: 0 } });
    const south = parseAction({ dragon: { x: 0, y: 1 } });
    const legal = [east, south];
    const eats = (c: { x: number; y: number; half: null | 'NW' | 'NE' | 'SE' | 'SW' }) => eatsWords(figuresOn(v, c), v.players);
    const marks = boardMarks(legal, null, undefined, eats);
    expect(marks.map((m) => m.kind)).toEqual(['dragon-to', 'dragon-to']);
    expect(marks[0]?.label).toBe('Move the dragon to the tile at (1, 0): it eats BLUE\'s follower and RED\'s pig');
    expect(marks[1]?.label).toBe('Move the dragon to the tile at (0, 1): it eats RED\'s follower');
    const first = marks[0];
    if (!first) throw new Error('no mark');
    expect(choose(legal, null, first)).toEqual({ pick: null, send: east });
    // A stale mark (the move went to someone else) sends nothing.
    expect(choose([south], null, first)).toEqual({ pick: null, send: null });
    expect(eatsWords([], v.players)).toBe('eats nothing');
    expect(onBoard(east)).toBe(true);
  });

  it('puts the fairy\'s and the princess\'s choices on the board as spots by the followers they name', () => {
    const fairy = parseAction({ fairy: { x: 0, y: 1, place: 'N' } });
    const princess = parseAction({ princess: { x: 1, y: 0, place: 'N', seat: 1 } });
    const follower = parseAction({ follower: { x: 1, y: 0, place: 'E' } });
    expect(spotsFor([fairy, princess, follower], null)).toEqual([fairy, princess, follower]);
    // With the large follower chosen the fairy and the princess stay lit.
    expect(spotsFor([fairy, princess, follower], 'big')).toEqual([fairy, princess]);
    expect(onBoard(fairy) && onBoard(princess)).toBe(true);
    expect(describeAction(fairy)).toBe('Move the fairy next to your follower on the north of (0, 1)');
    expect(describeAction(princess)).toBe('The princess sends home player 2\'s follower on the north of (1, 0)');
    expect(describeAction(princess, undefined, ['RED', 'BLUE'])).toBe('The princess sends home BLUE\'s follower on the north of (1, 0)');
    expect(moveWords(parseAction({ dragon: { x: 4, y: -1 } }))).toBe('Move the dragon one tile');
    expect(describeAction(parseAction({ dragon: { x: 4, y: -1, half: 'NW' } }))).toBe('Move the dragon to the tile at (4, -1), its north-west half');
  });

  it('writes the actions back exactly as the engine reads them', () => {
    for (const a of [{ dragon: { x: 2, y: -1 } }, { dragon: { x: 2, y: -1, half: 'SE' } }, { fairy: { x: 1, y: 0, place: 'ENE' } },
      { princess: { x: 0, y: 0, place: 'N', seat: 1 } }, { princess: { x: 0, y: 0, place: 'N', seat: 0, figure: 'big' } }]) {
      expect(encodeAction(parseAction(a))).toEqual(a);
    }
  });

  it('sees the magic portal when follower spots reach more than one tile', () => {
    const here = parseAction({ follower: { x: 3, y: 0, place: 'N' } });
    const there = parseAction({ follower: { x: -2, y: 1, place: 'C' } });
    expect(portalOpen([here, parseAction({ follower: { x: 3, y: 0, place: 'S' } })])).toBe(false);
    expect(portalOpen([here, there])).toBe(true);
  });

  it('tells eaten figures, the princess and the fairy in words in the log', () => {
    const players = ['RED', 'BLUE'];
    const eaten = parseEvent({ reason: 'eaten', points: [0, 0], feature: 'road', x: 1, y: 0, place: 'W', followers: [0, 1] }, 'e');
    expect(eventText(eaten, players)).toBe('the dragon eats BLUE\'s figure on a road; it goes back to the supply');
    const princess = parseEvent({ reason: 'princess', points: [0, 0], feature: 'city', x: 1, y: 0, place: 'N', followers: [1, 0] }, 'e');
    expect(eventText(princess, players)).toBe('the princess sends RED\'s knight home on a city');
    expect(eventText(parseEvent({ reason: 'fairy', points: [1, 0], feature: null, x: 0, y: 1, place: 'N' }, 'e'), players)).toBe('the fairy at the start of the turn: RED +1');
    expect(eventText(parseEvent({ reason: 'fairy', points: [0, 3], feature: null, x: 0, y: 1, place: 'N' }, 'e'), players)).toBe('the fairy by a scored feature: BLUE +3');
  });

  it('offers the set, its preset, its rules card and the volcano option in the lobby', () => {
    expect(setInfo('princess-dragon')?.kind).toBe('expansion');
    expect(PRESETS.find((p) => p.id === 'princess-dragon')?.expansions).toEqual(['princess-dragon']);
    expect(rulesFor({ base: 'base', expansions: ['princess-dragon'] }).map((c) => c.id)).toContain('princess-dragon');
    // The extra turn after River II's volcano lake is on in the engine: the lobby's switch turns it off, only with both sets.
    expect(optionsConfig({ followers: 7, on: ['volcano_extra_turn'] }, ['river2', 'princess-dragon'])).toEqual({ volcano_extra_turn: false });
    expect(optionsConfig({ followers: 7, on: ['volcano_extra_turn'] }, ['princess-dragon'])).toEqual({});
    expect(optionsConfig({ followers: 7, on: ['volcano_extra_turn'] }, ['river2'])).toEqual({});
  });
});
