// The board: one SVG with layers (map, tiles, targets, followers, tokens,
// highlights), tile pictures from the server's catalog renderer, and a
// camera moved by mouse, touch and keyboard.

import { MapInfo, TileLayout, tileBatch } from './api';
import { CELL, Camera, Pt, fit, pan, screenToWorld, zoomAt } from './geometry';
import { isObject, type Json } from './json';
import { Action, FeatureRef, Piece, View, describeAction } from './protocol';
import { playerColour, playerMark } from './colours';

const NS = 'http://www.w3.org/2000/svg';

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent?.appendChild(e);
  return e;
}

export interface BoardModel {
  view: View;
  map: MapInfo | null;
  /** Placements offered for the selected tile and rotation. */
  targets: Extract<Action, { kind: 'place' }>[];
  /** The placement chosen but not sent yet. */
  preview: Extract<Action, { kind: 'place' }> | null;
  /** Actions on a feature of a placed tile (followers, gingerbread, flight). */
  spots: Action[];
  /** Cells to outline (a log entry's feature). */
  highlight: Pt[];
  /** The game version shown, set on the SVG once drawn (tests wait for it). */
  version: number;
}

export interface BoardHandlers {
  onTarget(a: Extract<Action, { kind: 'place' }>): void;
  onSpot(a: Action): void;
  /** The feature under the pointer or the focused spot (null: none). */
  onFeature?(ref: FeatureRef | null): void;
}

/** The cells of a piece, from its picture's layout. */
function pieceCells(p: Piece, l: TileLayout): Pt[] {
  return l.cells.map(([dx, dy]) => ({ x: p.x + dx, y: p.y + dy }));
}

/** Where the follower on feature `ref` stands, in world units (null when the layout has no such place). */
export function spotPoint(ref: FeatureRef, pieces: Piece[], layouts: Map<string, TileLayout>): Pt | null {
  for (let i = pieces.length - 1; i >= 0; i--) {
    const p = pieces[i];
    if (!p || (p.half ?? null) !== (ref.half ?? null)) continue;
    const l = layouts.get(`${p.tile}@${p.rotation}`);
    if (!l) continue;
    const s = l.spots.find((sp) => sp.place === ref.place && p.x + sp.cell[0] === ref.x && p.y + sp.cell[1] === ref.y);
    if (s) return { x: p.x * CELL - l.origin[0] + s.x, y: p.y * CELL - l.origin[1] + s.y };
  }
  return null;
}

/** Whether a point of a cell (0..1 each way) lies in the half with its right angle at `corner`. */
export function inHalf(corner: string, fx: number, fy: number): boolean {
  switch (corner) {
    case 'SW': return fy >= fx;
    case 'NE': return fy <= fx;
    case 'NW': return fx + fy <= 1;
    default: return fx + fy >= 1;
  }
}

function spotOf(a: Action): FeatureRef | null {
  switch (a.kind) {
    case 'follower': case 'gingerbread': return a.at;
    case 'flee': return a.to;
    default: return null;
  }
}

export class Board {
  readonly svg: SVGSVGElement;
  private world: SVGGElement;
  private layers: Record<'map' | 'tiles' | 'targets' | 'followers' | 'tokens' | 'highlights', SVGGElement>;
  camera: Camera = { x: -300, y: -300, scale: 1 };
  private layouts = new Map<string, TileLayout>();
  private symbols = new Map<string, string>();
  private pending = new Map<string, Promise<void>>();
  private headDone = false;
  private defs: SVGDefsElement;
  /** Follows the board as it grows until the player moves the camera. */
  private auto = true;
  private marked = false;
  private renders = 0;
  private lastHover = 0;
  private hoverKey = '';
  private pieces: Piece[] = [];
  private drag: { id: number; x: number; y: number; moved: boolean } | null = null;
  private pointers = new Map<number, Pt>();
  private pinch: number | null = null;

  constructor(parent: HTMLElement, private handlers: BoardHandlers) {
    this.svg = el('svg', { class: 'board', role: 'application', 'aria-label': 'Game board. Arrow keys pan, plus and minus zoom, Tab reaches the marked places.' });
    parent.appendChild(this.svg);
    this.defs = el('defs', {}, this.svg);
    this.world = el('g', {}, this.svg);
    this.layers = {
      map: el('g', { class: 'layer-map' }, this.world),
      tiles: el('g', { class: 'layer-tiles' }, this.world),
      highlights: el('g', { class: 'layer-highlights' }, this.world),
      followers: el('g', { class: 'layer-followers' }, this.world),
      tokens: el('g', { class: 'layer-tokens' }, this.world),
      targets: el('g', { class: 'layer-targets' }, this.world),
    };
    this.svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.auto = false;
      this.setCamera(zoomAt(this.camera, this.local(e), Math.exp(-e.deltaY * 0.0015)));
    }, { passive: false });
    this.svg.addEventListener('pointerdown', (e) => {
      this.pointers.set(e.pointerId, this.local(e));
      if (this.pointers.size === 1) this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
    });
    this.svg.addEventListener('pointermove', (e) => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.set(e.pointerId, this.local(e));
      if (this.pointers.size === 2) {
        // Two fingers: zoom about their middle by the change of their distance.
        const [a, b] = [...this.pointers.values()] as [Pt, Pt];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (this.pinch !== null && d > 0) this.setCamera(zoomAt(this.camera, { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, d / this.pinch));
        this.pinch = d;
        if (this.drag) this.drag.moved = true;
        return;
      }
      const d = this.drag;
      if (!d || d.id !== e.pointerId) return;
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!d.moved && Math.hypot(dx, dy) < 5) return;
      if (!d.moved) this.svg.setPointerCapture(e.pointerId);
      d.moved = true;
      this.auto = false;
      d.x = e.clientX;
      d.y = e.clientY;
      this.setCamera(pan(this.camera, dx, dy));
    });
    this.svg.addEventListener('pointermove', (e) => {
      if (this.pointers.size > 0 || !this.handlers.onFeature) return;
      const now = performance.now();
      // Hover is for reading the board: ten lookups a second are plenty.
      if (now - this.lastHover < 100) return;
      this.lastHover = now;
      const ref = this.featureAt(screenToWorld(this.camera, this.local(e)));
      const key = ref ? `${ref.x},${ref.y},${ref.place},${ref.half ?? ''}` : '';
      if (key !== this.hoverKey) {
        this.hoverKey = key;
        this.handlers.onFeature(ref);
      }
    });
    this.svg.addEventListener('pointerleave', () => { this.hoverKey = ''; this.handlers.onFeature?.(null); });
    const up = (e: PointerEvent): void => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size < 2) this.pinch = null;
      if (this.pointers.size === 0) window.setTimeout(() => { this.drag = null; }, 0);
    };
    this.svg.addEventListener('pointerup', up);
    this.svg.addEventListener('pointercancel', up);
    // A drag ends with a click on whatever is under the pointer: swallow it.
    this.svg.addEventListener('click', (e) => { if (this.drag?.moved) { e.stopPropagation(); e.preventDefault(); } }, true);
  }

  private local(e: MouseEvent): Pt {
    const r = this.svg.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  setCamera(c: Camera): void {
    this.camera = c;
    this.world.setAttribute('transform', `scale(${c.scale}) translate(${-c.x} ${-c.y})`);
  }

  panBy(dx: number, dy: number): void { this.auto = false; this.setCamera(pan(this.camera, dx, dy)); }
  zoomBy(f: number): void {
    this.auto = false;
    const r = this.svg.getBoundingClientRect();
    this.setCamera(zoomAt(this.camera, { x: r.width / 2, y: r.height / 2 }, f));
  }
  /** Shows the whole board again and follows it as it grows. */
  refit(): void { this.auto = true; this.fitTo(this.lastCells); }
  private lastCells: Pt[] = [];
  fitTo(cells: Pt[]): void {
    this.lastCells = cells;
    const r = this.svg.getBoundingClientRect();
    this.setCamera(fit(cells, r.width || 800, r.height || 600));
  }
  worldAt(screen: Pt): Pt { return screenToWorld(this.camera, screen); }

  /**
   * The feature under a world point: the nearest follower spot of the
   * piece covering that point (for two halves, the one whose triangle
   * holds it).
   */
  featureAt(w: Pt): FeatureRef | null {
    const cx = Math.floor(w.x / CELL);
    const cy = Math.floor(w.y / CELL);
    let best: { d: number; ref: FeatureRef } | null = null;
    for (const p of this.pieces) {
      const l = this.layouts.get(`${p.tile}@${p.rotation}`);
      if (!l || !l.cells.some(([dx, dy]) => p.x + dx === cx && p.y + dy === cy)) continue;
      if (p.half && !inHalf(p.half, w.x / CELL - cx, w.y / CELL - cy)) continue;
      for (const s of l.spots) {
        if (p.x + s.cell[0] !== cx || p.y + s.cell[1] !== cy) continue;
        const d = Math.hypot(p.x * CELL - l.origin[0] + s.x - w.x, p.y * CELL - l.origin[1] + s.y - w.y);
        if (!best || d < best.d) best = { d, ref: { x: cx, y: cy, place: s.place, half: p.half } };
      }
    }
    return best?.ref ?? null;
  }

  /** Outlines cells without redrawing the rest (hover must not move focus). */
  setHighlight(cells: Pt[]): void {
    this.layers.highlights.replaceChildren();
    for (const h of cells) el('rect', { x: h.x * CELL, y: h.y * CELL, width: CELL, height: CELL, class: 'hl' }, this.layers.highlights);
  }

  /**
   * Fetches the drawings and layouts the model needs, each tile kind and
   * rotation once, in batches: each becomes a <symbol> that every copy of
   * the tile on the board <use>s.
   */
  private async ensure(pieces: { tile: string; rotation: number }[]): Promise<void> {
    const missing = [...new Set(pieces.map((p) => `${p.tile}@${p.rotation}`))].filter((k) => !this.symbols.has(k) && !this.pending.has(k));
    const batches: string[][] = [];
    for (let i = 0; i < missing.length; i += 150) batches.push(missing.slice(i, i + 150));
    for (const b of batches) {
      const p = tileBatch(b).then((batch) => this.addSymbols(batch.head, batch.tiles));
      for (const k of b) this.pending.set(k, p);
    }
    await Promise.all(pieces.map((p) => this.pending.get(`${p.tile}@${p.rotation}`)));
  }

  private addSymbols(head: string, tiles: { key: string; layout: TileLayout; body: string }[]): void {
    const parts: string[] = [];
    for (const t of tiles) {
      if (this.symbols.has(t.key)) continue;
      const id = `tile-${this.symbols.size}`;
      this.symbols.set(t.key, id);
      this.layouts.set(t.key, t.layout);
      parts.push(`<symbol id="${id}" viewBox="0 0 ${t.layout.width} ${t.layout.height}">${t.body}</symbol>`);
    }
    // The shared style and clip paths are the same for every tile: once.
    const text = `<svg xmlns="${NS}">${this.headDone ? '' : head}${parts.join('')}</svg>`;
    this.headDone = true;
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    for (const n of [...doc.documentElement.childNodes]) this.defs.appendChild(document.importNode(n, true));
  }

  async render(m: BoardModel): Promise<void> {
    const ticket = ++this.renders;
    await this.ensure([...m.view.board, ...(m.preview ? [m.preview] : [])]);
    // A later render started while this one waited for layouts: it wins.
    if (ticket !== this.renders) return;
    const L = this.layers;
    this.pieces = m.view.board;
    for (const g of Object.values(L)) g.replaceChildren();
    if (m.map) this.drawMap(m.map, m.view);
    // Under every half tile its whole cell is hatched: a second half covers
    // the rest, an empty half stays visibly empty (the renderer's pattern).
    for (const p of m.view.board) if (p.half) el('rect', { x: p.x * CELL, y: p.y * CELL, width: CELL, height: CELL, fill: 'url(#hatch)', class: 'halfgap' }, L.map);
    const cells: Pt[] = [];
    const drawPiece = (p: Piece, parent: SVGGElement, cls: string): void => {
      const l = this.layouts.get(`${p.tile}@${p.rotation}`);
      if (!l) return;
      cells.push(...pieceCells(p, l));
      const id = this.symbols.get(`${p.tile}@${p.rotation}`);
      if (!id) return;
      el('use', { href: `#${id}`, x: p.x * CELL - l.origin[0], y: p.y * CELL - l.origin[1], width: l.width, height: l.height, class: cls, 'data-tile': p.tile, 'data-cell': `${p.x},${p.y}` }, parent);
    };
    for (const p of m.view.board) drawPiece(p, L.tiles, 'tile');
    if (m.preview) drawPiece({ ...m.preview }, L.targets, 'preview');
    m.view.followers.forEach((f) => {
      const at = spotPoint(f, m.view.board, this.layouts);
      if (!at) return;
      const name = m.view.players[f.seat] ?? `seat ${f.seat}`;
      const g = el('g', { class: 'fig', transform: `translate(${at.x} ${at.y})`, role: 'img', 'aria-label': `${name}'s follower on the ${f.feature ?? 'feature'} at ${f.place} of (${f.x}, ${f.y})` }, L.followers);
      el('circle', { r: 11, fill: playerColour(name, f.seat), stroke: '#fff', 'stroke-width': 2.5 }, g);
      el('text', { 'text-anchor': 'middle', dy: 4, class: 'meeple-mark' }, g).textContent = playerMark(f.seat);
    });
    this.drawTokens(m.view.extras);
    for (const t of m.targets) {
      const label = describeAction(t);
      const r = el('rect', { x: t.x * CELL + 4, y: t.y * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: 'target', tabindex: 0, role: 'button', 'aria-label': label, 'data-x': t.x, 'data-y': t.y }, L.targets);
      el('title', {}, r).textContent = label;
      r.addEventListener('click', () => this.handlers.onTarget(t));
      r.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); this.handlers.onTarget(t); } });
    }
    for (const a of m.spots) {
      const ref = spotOf(a);
      if (!ref) continue;
      const at = spotPoint(ref, m.view.board, this.layouts);
      if (!at) continue;
      const label = describeAction(a);
      const c = el('circle', { cx: at.x, cy: at.y, r: 10, class: `spot spot-${a.kind}`, tabindex: 0, role: 'button', 'aria-label': label, 'data-place': ref.place }, L.targets);
      el('title', {}, c).textContent = label;
      c.addEventListener('click', () => this.handlers.onSpot(a));
      c.addEventListener('focus', () => this.handlers.onFeature?.(ref));
      c.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); this.handlers.onSpot(a); } });
    }
    for (const h of m.highlight) el('rect', { x: h.x * CELL, y: h.y * CELL, width: CELL, height: CELL, class: 'hl' }, L.highlights);
    if (this.auto && cells.length > 0) this.fitTo([...cells, ...m.targets]);
    this.svg.setAttribute('data-version', String(m.version));
    // For docs/performance.md: when the first board with tiles is in the DOM.
    if (!this.marked && m.view.board.length > 0) {
      this.marked = true;
      performance.mark('bastide:board', { detail: m.view.board.length });
      // Two frames later the board has been laid out and painted.
      requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('bastide:painted')));
    }
  }

  private drawMap(map: MapInfo, view: View): void {
    const g = this.layers.map;
    for (const [x, y] of map.cells) el('rect', { x: x * CELL, y: y * CELL, width: CELL, height: CELL, class: 'mapcell' }, g);
    map.starts.forEach(([x, y], i) => {
      el('text', { x: x * CELL + CELL / 2, y: y * CELL + CELL / 2 + 10, 'text-anchor': 'middle', class: 'mapstart' }, g).textContent = String(i + 1);
    });
    const chips = isObject(view.extras.chips) ? view.extras.chips : null;
    const squares = chips && Array.isArray(chips.chumak) ? chips.chumak : [];
    for (const c of map.chumak) {
      const sq = squares.find((s): s is { [k: string]: Json } => isObject(s) && s.x === c.x && s.y === c.y);
      const spaces = sq && Array.isArray(sq.spaces) ? sq.spaces.length : 0;
      el('rect', { x: c.x * CELL + 3, y: c.y * CELL + 3, width: CELL - 6, height: CELL - 6, class: 'chumak-sq' }, g);
      el('text', { x: c.x * CELL + CELL / 2, y: c.y * CELL + 16, 'text-anchor': 'middle', class: 'chumak-name' }, g).textContent = `${c.name}${spaces ? ` (${spaces} traded)` : ''}`;
    }
  }

  private drawTokens(extras: View['extras']): void {
    const g = this.layers.tokens;
    const plague = isObject(extras.plague) ? extras.plague : null;
    const cellOf = (o: Json): Pt | null => (isObject(o) && typeof o.x === 'number' && typeof o.y === 'number' ? { x: o.x, y: o.y } : null);
    if (plague && Array.isArray(plague.outbreaks)) {
      for (const o of plague.outbreaks) {
        const p = cellOf(o);
        if (!p || !isObject(o)) continue;
        const active = o.side === 'active';
        const t = el('g', { transform: `translate(${p.x * CELL + 78} ${p.y * CELL + 22})`, role: 'img', 'aria-label': `outbreak ${String(o.number)} ${active ? 'active' : 'eradicated'}` }, g);
        el('circle', { r: 13, class: active ? 'tok-outbreak' : 'tok-outbreak tok-eradicated' }, t);
        el('text', { 'text-anchor': 'middle', dy: 5, class: 'token-text' }, t).textContent = String(o.number);
      }
    }
    if (plague && Array.isArray(plague.fleas)) {
      for (const f of plague.fleas) {
        const p = cellOf(f);
        if (!p || !isObject(f)) continue;
        const t = el('g', { transform: `translate(${p.x * CELL + 22} ${p.y * CELL + 78})`, role: 'img', 'aria-label': `flea ${String(f.side)}` }, g);
        el('circle', { r: 9, class: f.side === 'active' ? 'tok-flea' : 'tok-flea tok-latent' }, t);
      }
    }
    const gb = cellOf(extras.gingerbread ?? null);
    if (gb) {
      const t = el('g', { transform: `translate(${gb.x * CELL + 50} ${gb.y * CELL + 50})`, role: 'img', 'aria-label': 'the gingerbread man' }, g);
      el('circle', { r: 12, class: 'tok-ginger' }, t);
      el('text', { 'text-anchor': 'middle', dy: 5, class: 'token-text' }, t).textContent = 'G';
    }
  }
}
