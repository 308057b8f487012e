// The HTTP lobby (docs/server.md, "HTTP API"), every answer validated.

import { JsonObject, arr, bool, fail, int, json, num, obj, oneOf, opt, str } from './json';
import type { GameStatus, SeatInfo } from './protocol';
import { readRecord, replayBody, type RecordText } from './record';

const STATUSES = ['open', 'playing', 'finished', 'resigned'] as const;

export interface GameSummary {
  id: string; status: GameStatus; version: number; players: string[];
  seats: SeatInfo[]; scores: number[]; resigned: number | null; created: number; config: JsonObject;
  /** The signed-in player holding each seat (`null`: a guest or a bot), and whether the game is rated (docs/server.md, "Players"). */
  names: (string | null)[]; rated: boolean;
  /** The time control (docs/server.md, "Clocks"), null: untimed; whether the game is private (seated by invite link only). */
  clock: JsonObject | null; private: boolean;
  /** The seat to act while the game runs (null: open or over). */
  toMove: number | null;
}
export interface CreatedSeat { seat: number; kind: string; token: string | null; invite: string | null }
export interface Created { id: string; status: GameStatus; seats: CreatedSeat[] }

export class ApiError extends Error {
  constructor(public code: string, message: string) { super(message); }
}

/** An answer's text, unparsed; a refusal as an `ApiError` with the server's code and message. */
async function callText(path: string, init?: RequestInit): Promise<string> {
  const res = await fetch(path, init);
  const text = await res.text();
  if (!res.ok) {
    let body: unknown = null;
    try { body = JSON.parse(text); } catch { /* not JSON: the status says it */ }
    const e = body !== null && typeof body === 'object' && 'error' in body ? obj((body as { error: unknown }).error, 'error') : null;
    throw new ApiError(e ? str(e.code, 'code') : String(res.status), e ? str(e.message, 'message') : text.slice(0, 200));
  }
  return text;
}

/** An answer as JSON; a refusal as an `ApiError`. */
export async function call(path: string, init?: RequestInit): Promise<unknown> {
  const text = await callText(path, init);
  try { return JSON.parse(text) as unknown; } catch { return null; }
}

/** Posts JSON text as it is (see `record.ts`: a record's numbers must not pass through JavaScript numbers). */
function postText(path: string, body: string): Promise<unknown> {
  return call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

function post(path: string, body: unknown): Promise<unknown> {
  return postText(path, JSON.stringify(body));
}

export function parseSummary(v: unknown, p = 'game'): GameSummary {
  const o = obj(v, p);
  return {
    id: str(o.id, `${p}.id`), status: oneOf(o.status, `${p}.status`, STATUSES), version: int(o.version, `${p}.version`),
    players: arr(o.players, `${p}.players`, str),
    seats: arr(o.seats, `${p}.seats`, (s, q) => { const so = obj(s, q); return { seat: int(so.seat, `${q}.seat`), kind: str(so.kind, `${q}.kind`), joined: bool(so.joined, `${q}.joined`) }; }),
    scores: arr(o.scores, `${p}.scores`, int), resigned: opt(o.resigned, `${p}.resigned`, int),
    created: int(o.created, `${p}.created`), config: obj(json(o.config, `${p}.config`), `${p}.config`),
    names: arr(o.seats, `${p}.seats`, (s, q) => opt(obj(s, q).player, `${q}.player`, str)),
    rated: opt(o.rated, `${p}.rated`, bool) ?? false,
    clock: opt(o.clock, `${p}.clock`, (c, q) => obj(json(c, q), q)),
    private: opt(o.private, `${p}.private`, bool) ?? false,
    toMove: opt(o.to_move, `${p}.to_move`, int),
  };
}

export async function listGames(status: GameStatus): Promise<GameSummary[]> {
  const o = obj(await call(`/api/games?status=${status}`), 'list');
  return arr(o.games, 'games', parseSummary);
}

export async function getGame(id: string): Promise<GameSummary> {
  return parseSummary(await call(`/api/games/${encodeURIComponent(id)}`));
}

/**
 * Creates a game; `clock`, when given, is its time control (docs/server.md, "Clocks"); `rated` games
 * need a signed-in creator (docs/server.md, "Players").
 */
export async function createGame(
  config: JsonObject,
  seats: string[],
  clock: JsonObject | null = null,
  rated = false,
  secret = false,
): Promise<Created> {
  const body: JsonObject = { config, seats };
  if (clock) body.clock = clock;
  if (rated) body.rated = true;
  if (secret) body.private = true;
  return parseCreated(await post('/api/games', body));
}

/** Starts the rematch of a game that is over (the server's `rematch`: same set-up, new seed, seats turned by one). */
export async function rematchGame(id: string, token: string): Promise<Created> {
  return parseCreated(await post(`/api/games/${encodeURIComponent(id)}/rematch`, { token }));
}

function parseCreated(v: unknown): Created {
  const o = obj(v, 'created');
  return {
    id: str(o.id, 'id'), status: oneOf(o.status, 'status', STATUSES),
    seats: arr(o.seats, 'seats', (s, q) => { const so = obj(s, q); return { seat: int(so.seat, `${q}.seat`), kind: str(so.kind, `${q}.kind`), token: opt(so.token, `${q}.token`, str), invite: opt(so.invite, `${q}.invite`, str) }; }),
  };
}

export async function joinGame(id: string, token: string): Promise<number> {
  return int(obj(await post(`/api/games/${encodeURIComponent(id)}/join`, { token }), 'join').seat, 'seat');
}

/** Takes the first free person's seat of a public open game (`POST /api/games/ID/sit`): the seat, its new token, and the game's status. */
export async function sitGame(id: string): Promise<{ seat: number; token: string; status: string }> {
  const o = obj(await post(`/api/games/${encodeURIComponent(id)}/sit`, {}), 'sit');
  return { seat: int(o.seat, 'seat'), token: str(o.token, 'token'), status: str(o.status, 'status') };
}

/** Cancels an open game by its creator's token (its first person's seat): the game is removed. */
export async function cancelGame(id: string, token: string): Promise<void> {
  await post(`/api/games/${encodeURIComponent(id)}/cancel`, { token });
}

export async function startGame(id: string, token: string): Promise<void> {
  await post(`/api/games/${encodeURIComponent(id)}/start`, { token });
}

export async function resignGame(id: string, token: string): Promise<void> {
  await post(`/api/games/${encodeURIComponent(id)}/resign`, { token });
}

/** A game's record as its exact text (`record.ts`). */
export async function getRecord(id: string): Promise<RecordText> {
  return readRecord(await callText(`/api/games/${encodeURIComponent(id)}/record`));
}

/** The layout of a tile's picture (crates/server/src/assets.rs). */
export interface TileSpot { cell: [number, number]; place: string; feature: number; kind: string; x: number; y: number; lying: boolean }
export interface TileLayout { id: string; rotation: number; width: number; height: number; origin: [number, number]; cells: [number, number][]; spots: TileSpot[] }

function pair(v: unknown, p: string): [number, number] {
  const a = arr(v, p, num);
  if (a.length !== 2) fail(p, 'two numbers');
  return [a[0] ?? 0, a[1] ?? 0];
}

export function parseLayout(v: unknown): TileLayout {
  const o = obj(v, 'layout');
  return {
    id: str(o.id, 'id'), rotation: int(o.rotation, 'rotation'),
    width: num(o.width, 'width'), height: num(o.height, 'height'), origin: pair(o.origin, 'origin'),
    cells: arr(o.cells, 'cells', pair),
    spots: arr(o.spots, 'spots', (s, q) => {
      const so = obj(s, q);
      return { cell: pair(so.cell, `${q}.cell`), place: str(so.place, `${q}.place`), feature: int(so.feature, `${q}.feature`), kind: str(so.kind, `${q}.kind`), x: num(so.x, `${q}.x`), y: num(so.y, `${q}.y`), lying: bool(so.lying, `${q}.lying`) };
    }),
  };
}

export function tileUrl(id: string, rotation: number): string {
  return `/api/tiles/${id.split('/').map(encodeURIComponent).join('/')}.svg?rotation=${rotation}`;
}

const layouts = new Map<string, Promise<TileLayout>>();
export function tileLayout(id: string, rotation: number): Promise<TileLayout> {
  const key = `${id}@${rotation}`;
  let p = layouts.get(key);
  if (!p) {
    p = call(`/api/tiles/${id.split('/').map(encodeURIComponent).join('/')}.json?rotation=${rotation}`).then(parseLayout);
    layouts.set(key, p);
  }
  return p;
}

/** A map: its squares, start spaces, Chumak squares, and the land's border (`outline`, corners in tenths of a square; empty: the squares' edge is the border). */
export interface MapInfo { name: string; title: string; cells: [number, number][]; starts: [number, number][]; chumak: { x: number; y: number; name: string }[]; outline: [number, number][] }

const maps = new Map<string, Promise<MapInfo>>();
export function mapInfo(name: string): Promise<MapInfo> {
  let p = maps.get(name);
  if (!p) {
    p = call(`/api/maps/${encodeURIComponent(name)}.json`).then((v) => {
      const o = obj(v, 'map');
      return {
        name: str(o.name, 'name'), title: str(o.title, 'title'), cells: arr(o.cells, 'cells', pair), starts: arr(o.starts, 'starts', pair),
        chumak: arr(o.chumak, 'chumak', (c, q) => { const co = obj(c, q); return { x: int(co.x, `${q}.x`), y: int(co.y, `${q}.y`), name: str(co.name, `${q}.name`) }; }),
        outline: o.outline === undefined ? [] : arr(o.outline, 'outline', pair),
      };
    });
    maps.set(name, p);
  }
  return p;
}

export interface ReplayStep { at: number; actions: number; action: JsonObject | null; view: unknown }
export async function replayStep(record: RecordText, at: number): Promise<ReplayStep> {
  const o = obj(await postText('/api/replay', replayBody(record, at)), 'replay');
  return { at: int(o.at, 'at'), actions: int(o.actions, 'actions'), action: opt(o.action, 'action', (a, q) => obj(json(a, q), q)), view: o.view };
}

export interface TileBatch { head: string; tiles: { key: string; layout: TileLayout; body: string }[] }

export function parseBatch(v: unknown): TileBatch {
  const o = obj(v, 'batch');
  return {
    head: str(o.head, 'head'),
    tiles: arr(o.tiles, 'tiles', (t, q) => { const to = obj(t, q); return { key: str(to.key, `${q}.key`), layout: parseLayout(to.layout), body: str(to.body, `${q}.body`) }; }),
  };
}

/** Many tiles' layouts and drawings in one request (`ID@ROTATION` keys). */
export async function tileBatch(keys: string[]): Promise<TileBatch> {
  return parseBatch(await call(`/api/tiles/batch?tiles=${keys.map(encodeURIComponent).join(',')}`));
}

/**
 * The pictures of the tiles on a game's board (`GET /api/games/ID/tiles`),
 * as index.html's inline script asked for them while the client's script
 * loaded (taken once); `null` when it did not, or not for this game. A
 * failed or unreadable answer gives `null` too: the board then asks for
 * the tiles it needs itself.
 */
export function earlyTiles(game: string): Promise<TileBatch | null> | null {
  const w = window as { bastideTiles?: { game: string; text: Promise<string | null> } };
  const early = w.bastideTiles;
  delete w.bastideTiles;
  if (!early || early.game !== game) return null;
  return early.text.then((t) => (t === null ? null : parseBatch(JSON.parse(t))), () => null).catch(() => null);
}

/** A feature as it stands now (`GET /api/games/ID/feature`). */
export interface FeatureInfo { kind: string; complete: boolean; points: number; tiles: number; extra: number; cells: [number, number][]; followers: number[] }

export async function featureInfo(game: string, ref: { x: number; y: number; place: string; half: string | null }): Promise<FeatureInfo> {
  const q = new URLSearchParams({ x: String(ref.x), y: String(ref.y), place: ref.place });
  if (ref.half) q.set('half', ref.half);
  const o = obj(await call(`/api/games/${encodeURIComponent(game)}/feature?${q.toString()}`), 'feature');
  return {
    kind: str(o.kind, 'kind'), complete: bool(o.complete, 'complete'), points: int(o.points, 'points'), tiles: int(o.tiles, 'tiles'),
    extra: int(o.extra, 'extra'), cells: arr(o.cells, 'cells', pair), followers: arr(o.followers, 'followers', int),
  };
}
