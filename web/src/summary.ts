// End-of-game summary: final scores, each player's rating change in a
// rated game (asked of the server), points per category and a score
// graph over the scoring events.

import { call } from './api';
import { changeText } from './account';
import { playerColour } from './colours';
import { h } from './dom';
import { arr, bool, int, num, obj, str } from './json';
import type { View } from './protocol';
import { pointsByCategory, scoreSeries } from './state';

const NS = 'http://www.w3.org/2000/svg';

export function scoreGraph(view: View): SVGSVGElement {
  const series = scoreSeries(view.events, view.players.length);
  const w = 320;
  const ht = 160;
  const max = Math.max(1, ...series.flat());
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${ht}`);
  svg.setAttribute('width', String(w));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Score graph over ${series.length - 1} scoring events: ${view.players.map((p, i) => `${p} ${view.scores[i] ?? 0}`).join(', ')}`);
  view.players.forEach((name, i) => {
    const pts = series.map((row, k) => `${(k / Math.max(1, series.length - 1)) * (w - 10) + 5},${ht - 5 - ((row[i] ?? 0) / max) * (ht - 10)}`).join(' ');
    const line = document.createElementNS(NS, 'polyline');
    line.setAttribute('points', pts);
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', playerColour(name, i));
    line.setAttribute('stroke-width', '2.5');
    // Dashes differ per seat so the lines differ without colour too.
    line.setAttribute('stroke-dasharray', ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4'][i % 6] ?? '');
    svg.appendChild(line);
  });
  return svg;
}

/**
 * Who won, and the ranking: "RED wins with 34 points · 1. RED 34, 2. BLUE
 * 20". Equal scores share a place (a shared first place is a shared win);
 * a player who resigned is ranked last.
 */
export function rankingText(players: string[], scores: number[], resigned: number | null): string {
  const order = players.map((name, seat) => ({ name, seat, score: scores[seat] ?? 0 }))
    .sort((a, b) => Number(a.seat === resigned) - Number(b.seat === resigned) || b.score - a.score);
  const place = (k: number): number => {
    const x = order[k];
    if (!x || x.seat === resigned) return k + 1;
    return 1 + order.filter((y) => y.seat !== resigned && y.score > x.score).length;
  };
  const winners = order.filter((_, k) => place(k) === 1 && order[k]?.seat !== resigned);
  const points = (n: number): string => `${n} point${n === 1 ? '' : 's'}`;
  const best = winners[0]?.score ?? 0;
  const head = winners.length === 1 ? `${winners[0]?.name ?? ''} wins with ${points(best)}`
    : `${winners.map((w) => w.name).join(' and ')} share the win with ${points(best)}`;
  const rest = order.map((x, k) => `${place(k)}. ${x.name} ${x.score}${x.seat === resigned ? ' (resigned)' : ''}`).join(', ');
  return `${head} · ${rest}`;
}

/** One player's rating change in a rated game that ended (`GET /api/games/ID/ratings`). */
export interface RatingChange { seat: number; player: string; before: number; after: number }

export function parseRatings(v: unknown): { rated: boolean; changes: RatingChange[] } {
  const o = obj(v, 'ratings');
  return {
    rated: bool(o.rated, 'rated'),
    changes: arr(o.changes, 'changes', (c, p) => {
      const x = obj(c, p);
      return { seat: int(x.seat, `${p}.seat`), player: str(x.player, `${p}.player`), before: num(x.before, `${p}.before`), after: num(x.after, `${p}.after`) };
    }),
  };
}

/** The rating changes in words: "RED (anna): 1500 → 1662 (+162.0)". */
export function ratingWords(players: string[], changes: RatingChange[]): string {
  return changes.map((c) => `${players[c.seat] ?? ''} (${c.player}): ${Math.round(c.before)} → ${Math.round(c.after)} (${changeText(c.after - c.before)})`).join(', ');
}

/** What the server said of each game's rating changes, by game: asked once per game, kept for the redraws. */
const ratings = new Map<string, RatingChange[] | 'asking' | 'none'>();

/** The game at this address (`/play/ID`, `/watch/ID`, `/replay/ID`), whose summary this is. */
function gameHere(): string | null {
  return /^\/(?:play|watch|replay)\/([0-9a-f]{1,64})$/i.exec(location.pathname)?.[1] ?? null;
}

/**
 * The line of rating changes of a rated game that ended, filled in when
 * the server answers (its rating write may follow the last move by a
 * moment: asked again a few times while a rated game has none yet).
 */
function ratingLine(players: string[]): HTMLElement | null {
  const game = gameHere();
  if (game === null) return null;
  const line = h('p', { id: 'rating-changes', class: 'rating-changes' });
  const fill = (el: HTMLElement, changes: RatingChange[]): void => {
    el.textContent = changes.length > 0 ? `Ratings: ${ratingWords(players, changes)}` : '';
  };
  const known = ratings.get(game);
  if (Array.isArray(known)) fill(line, known);
  else if (known === undefined) {
    ratings.set(game, 'asking');
    const ask = async (tries: number): Promise<void> => {
      const r = parseRatings(await call(`/api/games/${encodeURIComponent(game)}/ratings`));
      if (!r.rated) { ratings.set(game, 'none'); return; }
      if (r.changes.length === 0 && tries > 0) { await new Promise((ok) => setTimeout(ok, 500)); return ask(tries - 1); }
      ratings.set(game, r.changes);
      // The summary may have been drawn again meanwhile: fill the line shown now.
      const shown = document.getElementById('rating-changes');
      if (shown) fill(shown, r.changes);
    };
    ask(10).catch(() => { ratings.delete(game); });
  }
  return line;
}

export function summary(view: View, resigned: number | null, extra?: HTMLElement | null): HTMLElement {
  const cats = pointsByCategory(view.events, view.players.length);
  return h('section', { class: 'panel', id: 'summary', 'aria-label': 'End of game summary' },
    h('h2', {}, resigned !== null ? `Game over: ${view.players[resigned] ?? resigned} resigned` : 'Game over'),
    h('p', { id: 'ranking', class: 'ranking' }, rankingText(view.players, view.scores, resigned)),
    ratingLine(view.players),
    extra ?? null,
    h('table', { class: 'summary' },
      h('thead', {}, h('tr', {}, h('th', {}, 'points'), ...view.players.map((p) => h('th', { scope: 'col' }, p)))),
      h('tbody', {}, ...[...cats.entries()].map(([k, row]) => h('tr', {}, h('th', { scope: 'row' }, k), ...row.map((p) => h('td', {}, String(p))))),
        h('tr', { class: 'total' }, h('th', { scope: 'row' }, 'total'), ...view.scores.map((p, i) => h('td', { 'data-final': i }, String(p)))))),
    scoreGraph(view));
}
