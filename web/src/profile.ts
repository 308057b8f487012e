// A player's own page, /players/NAME, and the leaderboard, /players
// (docs/web.md, "Players"): the ratings per class, a chart of the rating
// after each rated game with its deviation band, and the history of ended
// games with their result, rating change, replay and record.

import { call, ApiError } from './api';
import { changeText, parseProfile, playerLink, ratingText, type Profile, type RatingPoint, type Standing } from './account';
import { h, errorText } from './dom';
import { arr, int, num, obj, str } from './json';

const SVG = 'http://www.w3.org/2000/svg';

/** The rating classes' names as people read them. */
export function className(c: string): string {
  return c === 'duel' ? 'Two players' : c === 'multi' ? 'Three to six players' : c;
}

/** A chart's shapes in its viewBox: the rating line, the deviation band, and a dot per game. */
export interface Chart {
  /** The `points` of the rating's polyline. */
  line: string;
  /** The `points` of the band's polygon: rating + deviation forward, rating − deviation back. */
  band: string;
  dots: { x: number; y: number; rating: number; deviation: number; game: string }[];
  /** The ratings at the chart's bottom and top. */
  low: number; high: number;
}

/**
 * Lays out the rating chart of `points` (oldest first) in a `width` ×
 * `height` box with `pad` around: one step per game along x (one game
 * alone sits in the middle), the rating up, the scale fitted to the band
 * so that a new player's wide deviation is all in sight.
 */
export function chartLayout(points: RatingPoint[], width: number, height: number, pad = 10): Chart {
  const lows = points.map((p) => p.after - p.deviation);
  const highs = points.map((p) => p.after + p.deviation);
  let low = Math.min(...lows);
  let high = Math.max(...highs);
  if (!Number.isFinite(low) || !Number.isFinite(high)) { low = 1000; high = 2000; }
  if (high - low < 1) { low -= 50; high += 50; }
  const x = (i: number): number => (points.length <= 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (points.length - 1));
  const y = (r: number): number => height - pad - ((r - low) * (height - 2 * pad)) / (high - low);
  const fmt = (a: number, b: number): string => `${a.toFixed(1)},${b.toFixed(1)}`;
  const dots = points.map((p, i) => ({ x: x(i), y: y(p.after), rating: p.after, deviation: p.deviation, game: p.game }));
  // One game alone: a short flat band, so that it shows as a band, not a line.
  const ends = (i: number): number[] => (points.length <= 1 ? [x(i) - pad, x(i) + pad] : [x(i)]);
  const upper = points.flatMap((p, i) => ends(i).map((xi) => fmt(xi, y(p.after + p.deviation))));
  const lower = points.flatMap((p, i) => ends(i).map((xi) => fmt(xi, y(p.after - p.deviation)))).reverse();
  return { line: dots.map((d) => fmt(d.x, d.y)).join(' '), band: [...upper, ...lower].join(' '), dots, low, high };
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (SVGElement | string)[]): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  for (const c of children) e.append(c);
  return e;
}

/** The rating chart of one class, as an SVG figure with a text alternative. */
export function ratingChart(cls: string, points: RatingPoint[]): HTMLElement {
  const width = 480;
  const height = 160;
  const c = chartLayout(points, width, height);
  const last = points[points.length - 1];
  const summary = last
    ? `${className(cls)}: ${points.length} rated game${points.length === 1 ? '' : 's'}, rating now ${Math.round(last.after)} ± ${Math.round(last.deviation)}`
    : `${className(cls)}: no rated games`;
  const picture = svg('svg', { class: 'rating-chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': summary, 'data-class': cls, 'data-points': points.length },
    svg('polygon', { class: 'rating-band', points: c.band }),
    svg('polyline', { class: 'rating-line', points: c.line }),
    ...c.dots.map((d) => svg('circle', { class: 'rating-dot', cx: d.x.toFixed(1), cy: d.y.toFixed(1), r: 3, 'data-game': d.game },
      svg('title', {}, `${Math.round(d.rating)} ± ${Math.round(d.deviation)} after ${d.game}`))),
    svg('text', { class: 'rating-axis', x: 2, y: 10 }, String(Math.round(c.high))),
    svg('text', { class: 'rating-axis', x: 2, y: height - 2 }, String(Math.round(c.low))));
  return h('figure', { class: 'rating-figure' }, picture, h('figcaption', {}, summary));
}

/** A finished game's result in words. */
function resultText(place: number | null, status: string): string {
  return place === null ? status : place === 1 ? 'won' : `place ${place}`;
}

/** Draws a profile into `root`. */
export function profileView(p: Profile, navigate: (path: string) => void): HTMLElement {
  const link = (href: string, text: string, attrs: Record<string, string> = {}): HTMLElement =>
    h('a', { ...attrs, href, onclick: (e: Event) => { e.preventDefault(); navigate(href); } }, text);
  const classes = Object.entries(p.ratings);
  const byClass = (c: string): RatingPoint[] => p.history.filter((x) => x.class === c);
  return h('section', { class: 'panel profile', id: 'profile', 'aria-labelledby': 'profile-name' },
    h('p', {}, link('/', 'Lobby'), ' · ', link('/players', 'Leaderboard')),
    h('h1', { id: 'profile-name' }, p.name),
    h('p', { id: 'profile-totals' }, `${p.games} rated game${p.games === 1 ? '' : 's'}, ${p.wins} won`),
    h('h2', {}, 'Ratings'),
    classes.length === 0 ? h('p', {}, 'No rated games yet.') : h('ul', { id: 'profile-ratings' },
      ...classes.map(([c, s]: [string, Standing]) => h('li', { 'data-class': c }, `${className(c)}: ${ratingText(s)}`))),
    ...classes.filter(([c]) => byClass(c).length > 0).map(([c]) => ratingChart(c, byClass(c))),
    h('h2', {}, 'Finished games'),
    p.recent.length === 0 ? h('p', {}, 'None finished yet.') : h('table', { id: 'profile-history' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Result'), h('th', {}, 'Rating'), h('th', {}, ''))),
      h('tbody', {}, ...p.recent.map((g) => h('tr', { 'data-game': g.game },
        h('td', {}, g.game, g.rated ? ' (rated)' : ''),
        h('td', {}, resultText(g.place, g.status)),
        h('td', { class: 'rating-change' }, g.change === null ? '' : changeText(g.change)),
        h('td', {}, link(g.replay, 'replay', { class: 'replay-link' }), ' ', h('a', { href: g.record, download: `bastide-${g.game}.json`, class: 'record-link' }, 'record')))))));
}

/** The page /players/NAME. */
export function profilePage(root: HTMLElement, name: string, navigate: (path: string) => void): void {
  document.title = `Bastide — ${name}`;
  root.replaceChildren(h('p', { role: 'status', class: 'status' }, `Reading ${name}'s profile…`));
  call(`/api/players/${encodeURIComponent(name)}`).then(parseProfile).then((p) => {
    root.replaceChildren(profileView(p, navigate));
  }).catch((err: unknown) => {
    const missing = err instanceof ApiError && err.code === 'not_found';
    root.replaceChildren(h('section', { class: 'panel missing', role: 'alert', id: 'missing' },
      h('h1', {}, missing ? 'No such player' : 'Could not read the profile'), h('p', {}, errorText(err)),
      h('p', {}, h('a', { href: '/players', onclick: (e: Event) => { e.preventDefault(); navigate('/players'); } }, 'The leaderboard'))));
  });
}

/** One line of the leaderboard. */
export interface Ranked { name: string; rating: number; deviation: number; games: number; wins: number }

export function parseLeaderboard(v: unknown): { class: string; players: Ranked[] } {
  const o = obj(v, 'leaderboard');
  return {
    class: str(o.class, 'class'),
    players: arr(o.players, 'players', (x, p) => {
      const r = obj(x, p);
      return { name: str(r.name, `${p}.name`), rating: num(r.rating, `${p}.rating`), deviation: num(r.deviation, `${p}.deviation`), games: int(r.games, `${p}.games`), wins: int(r.wins, `${p}.wins`) };
    }),
  };
}

/** The page /players: the best-rated players of each class, linked to their pages. */
export function leaderboardPage(root: HTMLElement, navigate: (path: string) => void): void {
  document.title = 'Bastide — leaderboard';
  const body = h('div', {});
  root.replaceChildren(h('section', { class: 'panel leaderboard', id: 'leaderboard' },
    h('p', {}, h('a', { href: '/', onclick: (e: Event) => { e.preventDefault(); navigate('/'); } }, 'Lobby')),
    h('h1', {}, 'Leaderboard'), body));
  Promise.all(['duel', 'multi'].map((c) => call(`/api/leaderboard?class=${c}`).then(parseLeaderboard))).then((boards) => {
    body.replaceChildren(...boards.map((b) => h('section', { 'data-class': b.class },
      h('h2', {}, className(b.class)),
      b.players.length === 0 ? h('p', {}, 'No rated games yet.') : h('ol', { class: 'ranking' }, ...b.players.map((r) => h('li', {},
        playerLink(r.name, navigate), ` ${Math.round(r.rating)} ± ${Math.round(r.deviation)} · ${r.games} game${r.games === 1 ? '' : 's'}, ${r.wins} won`))))));
  }).catch((err: unknown) => {
    body.replaceChildren(h('p', { class: 'error' }, `Could not read the leaderboard: ${errorText(err)}`));
  });
}
