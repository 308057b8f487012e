// The log: the scores of the game (a click lights the feature) and the
// moves, newest first. Two sections of the side panel, drawn only by
// their own update.

import { towerEventText } from '../tower';
import { figureIcon } from '../board';
import { playerColour, playerMark } from '../colours';
import { h } from '../dom';
import type { ScoreEvent } from '../protocol';
import type { LogEntry } from '../state';
import { moveWords } from '../words';
import { dragonEventText } from '../dragon';

const MOVES_SHOWN = 80;

/** A move in the log: who did what (no coordinates). */
export function moveText(m: LogEntry, players: string[]): string {
  return `${players[m.seat] ?? `seat ${m.seat}`}: ${moveWords(m.action, players)}`;
}

/** A score in the log: what scored, for whom ("completed road: RED +3"; a click on it lights the road, no coordinates). */
export function eventText(e: ScoreEvent, players: string[]): string {
  const pts = e.points.map((p, i) => (p ? `${players[i] ?? i} +${p}` : '')).filter((s) => s).join(', ');
  // Traders & Builders: goods taken for a finished city, and the majorities at the end, by kind.
  const kind = typeof e.raw.goods === 'string' ? e.raw.goods : null;
  if (e.reason === 'goods taken' && kind) {
    const tokens = Array.isArray(e.raw.tokens) ? e.raw.tokens : [];
    const who = tokens.map((n, i) => (typeof n === 'number' && n > 0 ? `${players[i] ?? i} takes ${n} ${kind}` : '')).filter((s) => s).join(', ');
    return `goods taken${who ? `: ${who}` : ''}`;
  }
  if (e.reason === 'goods' && kind) return `most ${kind}${pts ? `: ${pts}` : ''}`;
  // Princess & Dragon: figures eaten or sent home, the fairy's points.
  const dragon = dragonEventText(e, players);
  if (dragon !== null) return dragon;
  // The Tower: captures, exchanges, ransoms.
  const tower = towerEventText(e, players);
  if (tower !== null) return tower;
  return `${e.reason}${e.feature ? ` ${e.feature}` : ''}${pts ? `: ${pts}` : ''}`;
}

/** A feature as the server's feature lookup takes it (src/api.ts). */
export interface FeatureAt { x: number; y: number; place: string; half: string | null }

/**
 * The feature a score is about (null: none on the board). A score of no
 * feature (Map Chips' chips and trades, at a Chumak square) has none to look
 * up: the server's feature lookup answers 404 there.
 */
export function eventRef(e: ScoreEvent): FeatureAt | null {
  if (e.x === null || e.y === null || !e.place || e.feature === null) return null;
  return { x: e.x, y: e.y, place: e.place, half: typeof e.raw.half === 'string' ? e.raw.half : null };
}

/** A move with its follower's picture (the large one bigger); a follower's move lights its feature. */
function moveItem(m: LogEntry, players: string[], show: (ref: FeatureAt) => void): HTMLLIElement {
  const a = m.action;
  const text = moveText(m, players);
  if (a.kind !== 'follower') return h('li', { 'data-kind': a.kind }, text);
  // On top of a tower (The Tower) the follower is in no feature: nothing to light.
  if (a.at.place === 'tower') return h('li', { 'data-kind': a.kind, 'data-figure': a.figure ?? '' }, figureIcon(a.figure, playerColour(players[m.seat] ?? '', m.seat), playerMark(m.seat)), ` ${text}`);
  return h('li', { 'data-kind': a.kind, 'data-figure': a.figure ?? '', class: a.figure ? 'move-big' : '' },
    h('button', { onclick: () => show(a.at) }, figureIcon(a.figure, playerColour(players[m.seat] ?? '', m.seat), playerMark(m.seat)), ` ${text}`));
}

export interface LogPanel {
  /** The scores, then the moves. */
  element: HTMLElement;
  /** `events`: the scores shown (the final scoring's only as its steps come); `moves`: the whole game's. */
  update(events: ScoreEvent[], moves: LogEntry[], players: string[]): void;
}

/** The log; `show` lights a feature on the board. */
export function logPanel(show: (ref: FeatureAt) => void): LogPanel {
  const element = h('div', { class: 'slot', id: 'log-slot' });
  return {
    element,
    update(events, moves, players) {
      const scores = h('section', { class: 'panel' }, h('h2', {}, `Log (${events.length} scores)`), h('ol', { class: 'log', 'aria-label': 'Scoring events', reversed: true },
        ...events.slice().reverse().map((e) => h('li', {}, h('button', { onclick: () => { const r = eventRef(e); if (r) show(r); } }, eventText(e, players))))));
      const list = moves.length > 0 ? h('section', { class: 'panel', id: 'moves' }, h('h2', {}, `Moves (${moves.length})`), h('ol', { class: 'log moves', 'aria-label': 'Moves, newest first', reversed: true },
        ...moves.slice(-MOVES_SHOWN).reverse().map((m) => moveItem(m, players, show)))) : null;
      element.replaceChildren(scores, ...(list ? [list] : []));
    },
  };
}
