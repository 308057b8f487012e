// A game record kept as the text it came in: the server chooses 64-bit
// seeds (14276715017308306393), which a JavaScript number cannot hold —
// JSON.parse would round one to 14276715017308306000, and a record sent
// back with it is another game. So the record is never turned into
// numbers and back: the viewer reads only what it shows (the map, how
// many actions), and sends the text itself, untouched, to the engine.

import { isObject } from './json';

/** A record's exact text and the little the viewer reads of it. */
export interface RecordText {
  /** The record as it came (a file, or `GET /api/games/ID/record`), never re-encoded. */
  text: string;
  /** The configuration's map (Map Chips), for the board's squares. */
  map: string | null;
  /** How many actions the record holds. */
  actions: number;
  /** The sets played (base game and expansions), to name the game by. */
  sets: { base?: string; expansions?: string[] };
}

/**
 * Checks that `text` is a record's JSON (an object with a list of actions)
 * and keeps it as it is. Throws with a message naming what is wrong.
 */
export function readRecord(text: string): RecordText {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`not JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (!isObject(v)) throw new Error('a record is a JSON object with "config" and "actions"');
  if (!Array.isArray(v.actions)) throw new Error('a record has a list of "actions"');
  const config = isObject(v.config) ? v.config : {};
  const expansions = Array.isArray(config.expansions) ? config.expansions.filter((e): e is string => typeof e === 'string') : [];
  const sets = { expansions, ...(typeof config.base === 'string' ? { base: config.base } : {}) };
  return { text, map: typeof config.map === 'string' ? config.map : null, actions: v.actions.length, sets };
}

/**
 * The body of `POST /api/replay` for the first `at` actions of `record`:
 * the record's own text spliced in, so every number in it reaches the
 * server exactly as written.
 */
export function replayBody(record: RecordText, at: number): string {
  if (!Number.isSafeInteger(at) || at < 0) throw new Error(`a step is a whole number from 0, not ${at}`);
  return `{"record":${record.text.trim()},"at":${at}}`;
}
