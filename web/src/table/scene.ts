// What the board shows of a game state: the tiles, the map (asked for
// once), each player's last tile, the lit cells for the tile in hand, the
// previewed placement, the follower spots of the chosen figure, the marks
// of the expansions' choices (src/picks.ts) and the cities the
// gingerbread man may go to (their tiles asked of the server once per
// version).

import { featureInfo, mapInfo, type MapInfo } from '../api';
import type { Board } from '../board';
import { playerColour } from '../colours';
import { lastTiles } from '../follow';
import type { Action, Corner, Rotation } from '../protocol';
import { eatsWords, figuresOn } from '../dragon';
import { boardMarks, refKey, type CityArea, type Mark, type Pick } from '../picks';
import type { GameState, LogEntry } from '../state';
import { whereOn, type Where } from '../where';
import { herds } from '../traders';
import { spotsFor } from '../panels/choices';
import { targetsFor, type Place } from '../panels/hand';

/** The choices of the side panel the board shows. */
export interface SceneParts {
  /** A half-made choice on the board (a flight, a flea's move, a trade). */
  pick: Pick | null;
  /** The figure the follower spots place. */
  figure: string | null;
  /** The tile in hand, its rotation, and the placement waiting for Confirm. */
  tile: string | null;
  rotation: Rotation;
  pending: Place | null;
  /** The whole game's moves (history and live). */
  moves: LogEntry[];
  /** Cells lit by the log. */
  highlight: { x: number; y: number }[];
}

export interface Scene {
  /** Asks for the game's map once (Map Chips), then redraws. */
  needMap(s: GameState): void;
  /** A Chumak square in words: "the Chumak square Kyiv". */
  squareName(x: number, y: number): string;
  draw(s: GameState, parts: SceneParts): void;
  /** Places on the board of `s` in words (the labels of what is lit, the list of legal moves). */
  where(s: GameState): Where;
}

/** `redraw` draws the table again once something asked for arrives. */
export function scene(game: string, board: Board, redraw: (version: number | null) => void): Scene {
  let map: MapInfo | null = null;
  let mapAsked = false;
  const cityCells = new Map<string, [number, number][]>();
  const citiesFor = (marks: Mark[], version: number): CityArea[] => marks.flatMap((m): CityArea[] => {
    if (m.kind !== 'ginger-city') return [];
    const key = `${version} ${refKey(m.ref)}`;
    const cells = cityCells.get(key);
    if (!cells) {
      cityCells.set(key, []);
      featureInfo(game, m.ref).then((f) => { cityCells.set(key, f.cells); redraw(version); }).catch(() => undefined);
    }
    return [{ mark: m, cells: cells ?? [] }];
  });
  const squareName = (x: number, y: number): string => {
    const c = map?.chumak.find((q) => q.x === x && q.y === y);
    return c ? `the Chumak square ${c.name}` : 'a Chumak square';
  };
  const where = (s: GameState): Where => whereOn(s.view?.board ?? [], (p) => board.tileKinds(p.tile, p.rotation), squareName);
  return {
    squareName,
    where,
    needMap(s) {
      const name = typeof s.config.map === 'string' ? s.config.map : null;
      if (!name || mapAsked) return;
      mapAsked = true;
      void mapInfo(name).then((mi) => { map = mi; redraw(null); }, () => { mapAsked = false; });
    },
    draw(s, p) {
      const view = s.view;
      if (!view) return;
      // While a flight, a flea's move or a trade is half made, only what completes it is lit.
      const spots: Action[] = p.pick ? [] : spotsFor(s.legal, p.figure);
      const words = where(s);
      // Princess & Dragon: each tile the dragon may enter says what it would eat there.
      const eats = (c: { x: number; y: number; half: Corner | null }): string => eatsWords(figuresOn(view, c), s.players);
      const marks = p.pending ? [] : boardMarks(s.legal, p.pick, words, eats, s.players);
      const lasts = lastTiles(p.moves).map((t) => ({ ...t, colour: playerColour(s.players[t.seat] ?? '', t.seat) }));
      void board.render({
        view, map, lastTiles: lasts, cities: citiesFor(marks, s.version),
        targets: p.pending || p.pick ? [] : targetsFor(s.legal, p.tile, p.rotation),
        preview: p.pending, spots, marks, highlight: p.highlight, version: s.version, where: words, herds: herds(view, s.config),
      });
    },
  };
}
