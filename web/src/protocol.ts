// The server's protocol (docs/server.md) as types, with a validator for
// every message the server sends and an encoder for what the client sends.

import { parseChatLine, type ChatLine } from './chat';
import {
  InvalidMessage, Json, JsonObject, arr, bool, fail, int, isObject, json, obj, oneOf, opt, str,
} from './json';

export const CORNERS = ['NW', 'NE', 'SE', 'SW'] as const;
export type Corner = (typeof CORNERS)[number];
export const ROTATIONS = [0, 90, 180, 270] as const;
export type Rotation = (typeof ROTATIONS)[number];

/** A feature of a placed tile: its cell, a place that names it, and the half for a half tile. */
export interface FeatureRef { x: number; y: number; place: string; half: Corner | null }
export interface Chip { colour: string; value: number }

export type Action =
  | { kind: 'place'; tile: string; x: number; y: number; rotation: Rotation; half: Corner | null }
  | { kind: 'follower'; at: FeatureRef; figure: string | null }
  | { kind: 'draw' }
  | { kind: 'pass' }
  | { kind: 'gingerbread'; at: FeatureRef }
  | { kind: 'flea'; x: number; y: number; half: Corner | null; from: { x: number; y: number; half: Corner | null } | null }
  | { kind: 'flee'; from: FeatureRef; to: FeatureRef }
  | { kind: 'trade'; x: number; y: number; chips: Chip[] }
  | { kind: 'draft'; tile: string }
  // Princess & Dragon: one move of the dragon (by the player whose move it is), the fairy next to one's follower, the princess sending a knight home.
  | { kind: 'dragon'; x: number; y: number; half: Corner | null }
  | { kind: 'fairy'; at: FeatureRef }
  | { kind: 'princess'; at: FeatureRef; seat: number; figure: string | null }
  // Abbey & Mayor: the barn on a corner of the tile just placed (the half: for a half tile).
  | { kind: 'barn'; x: number; y: number; corner: Corner; half: Corner | null }
  // Abbey & Mayor, wagon step: the wagon whose feature was scored moves onto the feature at `at`.
  | { kind: 'wagon'; at: FeatureRef }
  // The Tower: a floor onto the foundation or open tower of the tile at (x, y); a follower taken in the capture step
  // (`at.place` `tower`: the one on top of a tower; `exchange`: the kind of one's own that comes back, where that is a choice);
  // 3 points paid to `seat` for one's follower it holds. (A follower on top of a tower is a `follower` with place `tower`.)
  | { kind: 'tower'; x: number; y: number }
  | { kind: 'capture'; at: FeatureRef; seat: number; figure: string | null; exchange: string | null }
  | { kind: 'ransom'; seat: number; figure: string | null }
  // An action this client does not know yet: still offered and sent as is.
  | { kind: 'other'; name: string; body: Json };

function rotation(v: unknown, p: string): Rotation {
  const r = int(v, p);
  return (ROTATIONS as readonly number[]).includes(r) ? (r as Rotation) : fail(p, '0, 90, 180 or 270');
}
function corner(v: unknown, p: string): Corner | null {
  return opt(v, p, (x, q) => oneOf(x, q, CORNERS));
}
function featureRef(v: unknown, p: string): FeatureRef {
  const o = obj(v, p);
  return { x: int(o.x, `${p}.x`), y: int(o.y, `${p}.y`), place: str(o.place, `${p}.place`), half: corner(o.half, `${p}.half`) };
}
function chip(v: unknown, p: string): Chip {
  const o = obj(v, p);
  return { colour: str(o.colour, `${p}.colour`), value: int(o.value, `${p}.value`) };
}

/** Reads one action in record form (notation.md). */
export function parseAction(v: unknown, p = 'action'): Action {
  const o = obj(v, p);
  const keys = Object.keys(o);
  if (keys.length !== 1) fail(p, 'an object with one key');
  const name = keys[0] as string;
  const b = o[name];
  const q = `${p}.${name}`;
  switch (name) {
    case 'place': {
      const x = obj(b, q);
      return { kind: 'place', tile: str(x.tile, `${q}.tile`), x: int(x.x, `${q}.x`), y: int(x.y, `${q}.y`), rotation: rotation(x.rotation, `${q}.rotation`), half: corner(x.half, `${q}.half`) };
    }
    case 'follower': {
      const x = obj(b, q);
      return { kind: 'follower', at: featureRef(x, q), figure: opt(x.figure, `${q}.figure`, str) };
    }
    case 'draw': obj(b, q); return { kind: 'draw' };
    case 'pass': obj(b, q); return { kind: 'pass' };
    case 'gingerbread': return { kind: 'gingerbread', at: featureRef(b, q) };
    case 'flea': {
      const x = obj(b, q);
      const from = opt(x.from, `${q}.from`, (f, fp) => {
        const fo = obj(f, fp);
        return { x: int(fo.x, `${fp}.x`), y: int(fo.y, `${fp}.y`), half: corner(fo.half, `${fp}.half`) };
      });
      return { kind: 'flea', x: int(x.x, `${q}.x`), y: int(x.y, `${q}.y`), half: corner(x.half, `${q}.half`), from };
    }
    case 'flee': {
      const x = obj(b, q);
      return { kind: 'flee', from: featureRef(x.from, `${q}.from`), to: featureRef(x.to, `${q}.to`) };
    }
    case 'trade': {
      const x = obj(b, q);
      return { kind: 'trade', x: int(x.x, `${q}.x`), y: int(x.y, `${q}.y`), chips: arr(x.chips, `${q}.chips`, chip) };
    }
    case 'draft': return { kind: 'draft', tile: str(obj(b, q).tile, `${q}.tile`) };
    case 'dragon': {
      const x = obj(b, q);
      return { kind: 'dragon', x: int(x.x, `${q}.x`), y: int(x.y, `${q}.y`), half: corner(x.half, `${q}.half`) };
    }
    case 'fairy': return { kind: 'fairy', at: featureRef(b, q) };
    case 'wagon': return { kind: 'wagon', at: featureRef(b, q) };
    case 'princess': {
      const x = obj(b, q);
      return { kind: 'princess', at: featureRef(x, q), seat: int(x.seat, `${q}.seat`), figure: opt(x.figure, `${q}.figure`, str) };
    }
    case 'barn': {
      const x = obj(b, q);
      return { kind: 'barn', x: int(x.x, `${q}.x`), y: int(x.y, `${q}.y`), corner: oneOf(x.corner, `${q}.corner`, CORNERS), half: corner(x.half, `${q}.half`) };
    }
    case 'tower': {
      const x = obj(b, q);
      return { kind: 'tower', x: int(x.x, `${q}.x`), y: int(x.y, `${q}.y`) };
    }
    case 'capture': {
      const x = obj(b, q);
      return { kind: 'capture', at: featureRef(x, q), seat: int(x.seat, `${q}.seat`), figure: opt(x.figure, `${q}.figure`, str), exchange: opt(x.exchange, `${q}.exchange`, str) };
    }
    case 'ransom': {
      const x = obj(b, q);
      return { kind: 'ransom', seat: int(x.seat, `${q}.seat`), figure: opt(x.figure, `${q}.figure`, str) };
    }
    default: return { kind: 'other', name, body: json(b, q) };
  }
}

function refJson(r: FeatureRef): JsonObject {
  const o: JsonObject = { x: r.x, y: r.y, place: r.place };
  if (r.half) o.half = r.half;
  return o;
}

/** An action in record form, exactly as the server reads it. */
export function encodeAction(a: Action): JsonObject {
  switch (a.kind) {
    case 'place': {
      const o: JsonObject = { tile: a.tile, x: a.x, y: a.y, rotation: a.rotation };
      if (a.half) o.half = a.half;
      return { place: o };
    }
    case 'follower': {
      const o = refJson(a.at);
      if (a.figure) o.figure = a.figure;
      return { follower: o };
    }
    case 'draw': return { draw: {} };
    case 'pass': return { pass: {} };
    case 'gingerbread': return { gingerbread: refJson(a.at) };
    case 'flea': {
      const o: JsonObject = { x: a.x, y: a.y };
      if (a.half) o.half = a.half;
      if (a.from) {
        const f: JsonObject = { x: a.from.x, y: a.from.y };
        if (a.from.half) f.half = a.from.half;
        o.from = f;
      }
      return { flea: o };
    }
    case 'flee': return { flee: { from: refJson(a.from), to: refJson(a.to) } };
    case 'trade': return { trade: { x: a.x, y: a.y, chips: a.chips.map((c) => ({ colour: c.colour, value: c.value })) } };
    case 'draft': return { draft: { tile: a.tile } };
    case 'dragon': {
      const o: JsonObject = { x: a.x, y: a.y };
      if (a.half) o.half = a.half;
      return { dragon: o };
    }
    case 'fairy': return { fairy: refJson(a.at) };
    case 'wagon': return { wagon: refJson(a.at) };
    case 'princess': {
      const o: JsonObject = { ...refJson(a.at), seat: a.seat };
      if (a.figure) o.figure = a.figure;
      return { princess: o };
    }
    case 'barn': {
      const o: JsonObject = { x: a.x, y: a.y, corner: a.corner };
      if (a.half) o.half = a.half;
      return { barn: o };
    }
    case 'tower': return { tower: { x: a.x, y: a.y } };
    case 'capture': {
      const o: JsonObject = { ...refJson(a.at), seat: a.seat };
      if (a.figure) o.figure = a.figure;
      if (a.exchange) o.exchange = a.exchange;
      return { capture: o };
    }
    case 'ransom': {
      const o: JsonObject = { seat: a.seat };
      if (a.figure) o.figure = a.figure;
      return { ransom: o };
    }
    case 'other': return { [a.name]: a.body };
  }
}

/**
 * What a figure is called (`null`: the normal follower; `big`: Inns &
 * Cathedrals' large follower; `builder`, `pig`: Traders & Builders' special
 * figures, which are not followers; `mayor`, `wagon`: Abbey & Mayor's
 * followers).
 */
export function figureName(figure: string | null): string {
  switch (figure) {
    case null: return 'follower';
    case 'big': return 'large follower';
    case 'builder': case 'pig': case 'mayor': case 'wagon': return figure;
    default: return `${figure} follower`;
  }
}

/**
 * How a figure is drawn: the large follower bigger and ringed; the builder
 * a house-shaped marker, the pig a round pink one, the mayor a disc under a
 * tall hat, the wagon a cart on two wheels — told apart by shape,
 * not colour alone (`shape`).
 */
export interface FigureLook { radius: number; className: string; ring: boolean; shape: 'disc' | 'builder' | 'pig' | 'mayor' | 'wagon' }
export function figureLook(figure: string | null): FigureLook {
  if (figure === null) return { radius: 14, className: 'fig', ring: false, shape: 'disc' };
  const className = `fig fig-${figure.replace(/[^a-z0-9-]/gi, '')}`;
  if (figure === 'builder' || figure === 'pig' || figure === 'mayor' || figure === 'wagon') return { radius: 16, className, ring: false, shape: figure };
  return { radius: 20, className, ring: true, shape: 'disc' };
}

/** The text with its first letter in capitals. */
export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}


export interface Piece { tile: string; x: number; y: number; rotation: Rotation; half: Corner | null }
export interface PlacedFollower { seat: number; x: number; y: number; place: string; half: Corner | null; feature: string | null; figure: string | null }
export interface ScoreEvent {
  reason: string;
  points: number[];
  feature: string | null;
  x: number | null;
  y: number | null;
  place: string | null;
  raw: JsonObject;
}
/** A hand: the tiles (own view) or only how many (another player's). */
export type Hand = { tiles: string[] } | { hidden: number };
/** A hand of Map Chips: the chips (own view) or only how many (another player's). */
export type ChipHand = { chips: Chip[] } | { hidden: number };

export interface View {
  players: string[];
  scores: number[];
  finished: boolean;
  currentPlayer: number | null;
  phase: string;
  drawn: string | null;
  tilesLeft: number;
  supply: number[];
  events: ScoreEvent[];
  board: Piece[];
  followers: PlacedFollower[];
  seat: number | null;
  halves: Hand[] | null;
  chipHands: ChipHand[] | null;
  /** Inns & Cathedrals: per seat, whether the large follower is in the supply (null without it). */
  bigFollowers: boolean[] | null;
  /** Parts of the view only shown as they are (plague, map, chips, gingerbread). */
  extras: JsonObject;
}

function piece(v: unknown, p: string): Piece {
  const o = obj(v, p);
  return { tile: str(o.tile, `${p}.tile`), x: int(o.x, `${p}.x`), y: int(o.y, `${p}.y`), rotation: rotation(o.rotation, `${p}.rotation`), half: corner(o.half, `${p}.half`) };
}

export function parseEvent(v: unknown, p: string): ScoreEvent {
  const o = obj(v, p);
  return {
    reason: str(o.reason, `${p}.reason`),
    points: arr(o.points, `${p}.points`, int),
    feature: opt(o.feature, `${p}.feature`, str),
    x: opt(o.x, `${p}.x`, int),
    y: opt(o.y, `${p}.y`, int),
    place: opt(o.place, `${p}.place`, str),
    raw: obj(json(o, p), p),
  };
}

function hand(v: unknown, p: string): Hand {
  if (Array.isArray(v)) return { tiles: arr(v, p, (t, q) => (isObject(t) ? str(t.tile ?? JSON.stringify(t), q) : str(t, q))) };
  const o = obj(v, p);
  return { hidden: int(o.hidden, `${p}.hidden`) };
}

function chipHand(v: unknown, p: string): ChipHand {
  if (Array.isArray(v)) return { chips: arr(v, p, chip) };
  const o = obj(v, p);
  return { hidden: int(o.hidden, `${p}.hidden`) };
}

const VIEW_KEYS = new Set(['players', 'scores', 'finished', 'current_player', 'phase', 'drawn', 'tiles_left', 'supply', 'events', 'board', 'followers', 'seat', 'hands', 'remaining', 'big_followers']);

export function parseView(v: unknown, p = 'view'): View {
  const o = obj(v, p);
  const extras: JsonObject = {};
  for (const [k, x] of Object.entries(o)) if (!VIEW_KEYS.has(k)) extras[k] = json(x, `${p}.${k}`);
  const chips = isObject(o.chips) ? o.chips : null;
  return {
    players: arr(o.players, `${p}.players`, str),
    scores: arr(o.scores, `${p}.scores`, int),
    finished: bool(o.finished, `${p}.finished`),
    currentPlayer: opt(o.current_player, `${p}.current_player`, int),
    phase: str(o.phase ?? '', `${p}.phase`),
    drawn: opt(o.drawn, `${p}.drawn`, str),
    tilesLeft: int(o.tiles_left ?? 0, `${p}.tiles_left`),
    supply: arr(o.supply ?? [], `${p}.supply`, int),
    events: arr(o.events ?? [], `${p}.events`, parseEvent),
    board: arr(o.board, `${p}.board`, piece),
    followers: arr(o.followers ?? [], `${p}.followers`, (f, q) => {
      const fo = obj(f, q);
      return { seat: int(fo.seat, `${q}.seat`), x: int(fo.x, `${q}.x`), y: int(fo.y, `${q}.y`), place: str(fo.place, `${q}.place`), half: corner(fo.half, `${q}.half`), feature: opt(fo.feature, `${q}.feature`, str), figure: opt(fo.figure, `${q}.figure`, str) };
    }),
    seat: opt(o.seat, `${p}.seat`, int),
    halves: opt(o.hands, `${p}.hands`, (h, q) => arr(h, q, hand)),
    bigFollowers: opt(o.big_followers, `${p}.big_followers`, (b, q) => arr(b, q, bool)),
    chipHands: chips ? opt(chips.hands, `${p}.chips.hands`, (h, q) => arr(h, q, chipHand)) : null,
    extras,
  };
}

/** A seat: its kind, whether it is taken, and the signed-in player holding it (`null`: a guest or a bot). */
export interface SeatInfo { seat: number; kind: string; joined: boolean; player?: string | null }
export type GameStatus = 'open' | 'playing' | 'finished' | 'resigned';
const STATUSES = ['open', 'playing', 'finished', 'resigned'] as const;

function seatInfo(v: unknown, p: string): SeatInfo {
  const o = obj(v, p);
  return { seat: int(o.seat, `${p}.seat`), kind: str(o.kind, `${p}.kind`), joined: bool(o.joined ?? false, `${p}.joined`), player: opt(o.player, `${p}.player`, str) };
}

/** A time control (docs/server.md, "Clocks"): each person's time for the game and its increment, the longest turn. */
export interface ClockSpec { initialMs: number | null; incrementMs: number; turnMs: number | null; onTimeout: string }
/**
 * A timed game's clocks: each seat's time as of `since` (Unix ms), the seat
 * whose time runs and when it runs out. A game still waiting for its
 * players has only the spec: no time has been charged yet, so `since` is null.
 */
export interface Clock { spec: ClockSpec; remainingMs: number[] | null; since: number | null; running: number | null; turnStarted: number | null; deadline: number | null }

export function parseClock(v: unknown, p = 'clock'): Clock {
  const o = obj(v, p);
  const sp = obj(o.spec, `${p}.spec`);
  return {
    spec: {
      initialMs: opt(sp.initial_ms, `${p}.spec.initial_ms`, int), incrementMs: int(sp.increment_ms ?? 0, `${p}.spec.increment_ms`),
      turnMs: opt(sp.turn_ms, `${p}.spec.turn_ms`, int), onTimeout: str(sp.on_timeout ?? 'lose', `${p}.spec.on_timeout`),
    },
    remainingMs: opt(o.remaining_ms, `${p}.remaining_ms`, (r, q) => arr(r, q, int)),
    since: opt(o.since, `${p}.since`, int), running: opt(o.running, `${p}.running`, int),
    turnStarted: opt(o.turn_started ?? o.since, `${p}.turn_started`, int), deadline: opt(o.deadline, `${p}.deadline`, int),
  };
}

export type ServerMessage =
  | { type: 'welcome'; game: string; seat: number | null; status: GameStatus; version: number; resigned: number | null; players: string[]; seats: SeatInfo[]; config: JsonObject; view: View | null; legal: Action[] | null; clock: Clock | null; chat: ChatLine[] }
  | { type: 'played'; version: number; seat: number; action: Action; events: ScoreEvent[]; view: View; legal: Action[] | null; clock: Clock | null }
  | { type: 'status'; status: GameStatus; version: number; resigned: number | null; view: View | null; legal: Action[] | null; seats: SeatInfo[] | null; clock: Clock | null; timeout: number | null }
  | { type: 'pong' }
  /** Someone started a rematch of this game: a person's connection gets their own new seat and token. */
  | { type: 'rematch'; game: string; seat: number | null; token: string | null }
  | { type: 'error'; code: string; message: string }
  /** A line of table chat (src/chat.ts). */
  | { type: 'chat'; line: ChatLine }
  /** The game is gone (an open game expired, or an operator removed it); the server closes the socket next. */
  | { type: 'gone'; reason: string; message: string };

function legal(v: unknown, p: string): Action[] | null {
  return opt(v, p, (x, q) => arr(x, q, parseAction));
}

/** Reads one text frame from the server. Throws InvalidMessage on anything unexpected. */
export function parseServerMessage(text: string): ServerMessage {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new InvalidMessage('the server sent text that is not JSON');
  }
  const o = obj(v, 'message');
  const keys = Object.keys(o);
  if (keys.length !== 1) fail('message', 'one message type');
  const type = keys[0] as string;
  const b = o[type];
  switch (type) {
    case 'welcome': {
      const w = obj(b, 'welcome');
      return {
        type, game: str(w.game, 'welcome.game'), seat: opt(w.seat, 'welcome.seat', int),
        status: oneOf(w.status, 'welcome.status', STATUSES), version: int(w.version, 'welcome.version'),
        resigned: opt(w.resigned, 'welcome.resigned', int), players: arr(w.players, 'welcome.players', str),
        seats: arr(w.seats, 'welcome.seats', seatInfo), config: obj(json(w.config, 'welcome.config'), 'welcome.config'),
        view: opt(w.view, 'welcome.view', parseView), legal: legal(w.legal, 'welcome.legal'),
        clock: opt(w.clock, 'welcome.clock', parseClock),
        chat: arr(w.chat ?? [], 'welcome.chat', parseChatLine),
      };
    }
    case 'played': {
      const w = obj(b, 'played');
      return {
        type, version: int(w.version, 'played.version'), seat: int(w.seat, 'played.seat'),
        action: parseAction(w.action, 'played.action'), events: arr(w.events ?? [], 'played.events', parseEvent),
        view: parseView(w.view, 'played.view'), legal: legal(w.legal, 'played.legal'),
        clock: opt(w.clock, 'played.clock', parseClock),
      };
    }
    case 'status': {
      const w = obj(b, 'status');
      return {
        type, status: oneOf(w.status, 'status.status', STATUSES), version: int(w.version, 'status.version'),
        resigned: opt(w.resigned, 'status.resigned', int), view: opt(w.view, 'status.view', parseView),
        legal: legal(w.legal, 'status.legal'), seats: opt(w.seats, 'status.seats', (x, q) => arr(x, q, seatInfo)),
        clock: opt(w.clock, 'status.clock', parseClock), timeout: opt(w.timeout, 'status.timeout', int),
      };
    }
    case 'pong': return { type };
    case 'chat': return { type, line: parseChatLine(b, 'chat') };
    case 'rematch': {
      const r = obj(b, 'rematch');
      return { type, game: str(r.game, 'rematch.game'), seat: opt(r.seat, 'rematch.seat', int), token: opt(r.token, 'rematch.token', str) };
    }
    case 'gone': {
      const g = obj(b, 'gone');
      return { type, reason: str(g.reason, 'gone.reason'), message: str(g.message, 'gone.message') };
    }
    case 'error': {
      const e = obj(b, 'error');
      return { type, code: str(e.code, 'error.code'), message: str(e.message, 'error.message') };
    }
    default:
      throw new InvalidMessage(`unknown message type ${type.slice(0, 40)}`);
  }
}

export type ClientMessage =
  | { hello: { token: string | null; since: number | null } }
  | { action: JsonObject; version: number }
  | { resign: Record<string, never> }
  | { ping: Record<string, never> }
  | { chat: { text: string } };

export function actionMessage(a: Action, version: number): ClientMessage {
  return { action: encodeAction(a), version };
}
