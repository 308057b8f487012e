// The board: one SVG with layers (map, tiles, targets, followers, tokens,
// highlights), tile pictures from the server's catalog renderer, and a
// camera moved by mouse, touch and keyboard.
//
// Speed: the SVG draws the board's world box at one unit per CSS pixel and
// the camera is a single CSS transform on it, written once per frame
// however many input events came; the SVG is a compositor layer
// (`will-change`, made again at the new scale after each gesture), so
// panning and zooming move a picture instead of drawing the tiles again.
// Tiles, tokens and followers are <use>s of shared <symbol>s; a render
// changes only the pieces that changed, and pieces whose art has not
// arrived within PLACEHOLDER_MS are drawn as placeholders until it does.
// On a game's page the server has drawn the tiles already (src/page.ts):
// the board takes that SVG over instead of drawing it again.

import { MapInfo, TileLayout, tileBatch, type TileBatch } from './api';
import { CELL, Box, Camera, Pt, cameraTransform, cellBox, fit, pan, pinchStep, screenToWorld, unionBox, worldToScreen, zoomAt } from './geometry';
import { adorn } from './art';
import { coalesce, gesture } from './frame';
import { isObject, type Json } from './json';
import { Action, Corner, FeatureRef, Piece, View, figureLook, figureName, type FigureLook } from './protocol';
import { BY_COORDINATES, describeAction, featureAt } from './words';
import type { Where } from './where';
import { playerColour, playerMark } from './colours';
import { barnPoint, barnsOf } from './barns';
import type { PageTile } from './page';
import { cityAt, halfPolygon, type CellRef, type CityArea, type Mark } from './picks';
import { TAP_PX, touchScreen } from './panels/touch';
import { DRAGON_MOVES, dragonOf, fairyOf, figuresOn } from './dragon';
import { FLOOR_PX, MAX_DRAWN, reachOf, tagPoint, topPoint, towerPoint, towersOf } from './tower';


const NS = 'http://www.w3.org/2000/svg';
/** The drag data type of a tile dragged from the panel onto the board. */
export const TILE_DRAG = 'application/x-bastide-tile';
/** Tile requests in flight at once for one board, and the fewest tiles worth a request of their own. */
const PARALLEL = 3;
const MIN_BATCH = 12;
/** How long a "+N" and its lit tiles stay (ms): the length of their CSS animations (style.css). */
export const FLASH_MS = 2600;

/** A flash's attributes: its animation stretched to `ms` when that is not the usual length, and the final scoring's step it shows. */
function stepAttrs(ms: number, step: number | null): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (ms !== FLASH_MS) out.style = `animation-duration: ${ms}ms`;
  if (step !== null) out['data-final-step'] = step;
  return out;
}

/** How long the effects take to fade out at the final result (ms; style.css `.fading`). */
const FADE_MS = 500;

/** How long a render waits for missing tile art before it draws placeholders (ms). */
const PLACEHOLDER_MS = 150;

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
  /** The expansion actions lit on the board (src/picks.ts): flea targets, flights, trades. */
  marks: Mark[];
  /** The gingerbread man's cities with their tiles (lit; a click on one of their tiles moves him there). */
  cities?: CityArea[];
  /** Each player's last tile, outlined in their colour. */
  lastTiles?: { seat: number; x: number; y: number; half: string | null; colour: string }[];
  /** The game version shown, set on the SVG once drawn (tests wait for it). */
  version: number;
  /** Places in words, for the labels of what is lit (by coordinates without it). */
  where?: Where;
  /** River II's pig herds where they count (Traders & Builders): a label on each. */
  herds?: Pt[];
}

export interface BoardHandlers {
  onTarget(a: Extract<Action, { kind: 'place' }>): void;
  /** The previewed tile was clicked or tapped (it turns). */
  onPreview?(): void;
  onSpot(a: Action): void;
  /** A lit mark (src/picks.ts) was clicked or pressed. */
  onMark?(m: Mark): void;
  /** A click on the board that hit no marked place (cancels a half-made choice). */
  onBackground?(): void;
  /** The feature under the pointer or the focused spot (null: none). */
  onFeature?(ref: FeatureRef | null): void;
}

/** The cells of a piece, from its picture's layout. */
function pieceCells(p: Piece, l: TileLayout): Pt[] {
  return l.cells.map(([dx, dy]) => ({ x: p.x + dx, y: p.y + dy }));
}

/** Where the follower on feature `ref` stands, in world units, and the feature's kind (null when the layout has no such place). */
export function spotPoint(ref: FeatureRef, pieces: Piece[], layouts: Map<string, TileLayout>): (Pt & { kind: string }) | null {
  for (let i = pieces.length - 1; i >= 0; i--) {
    const p = pieces[i];
    if (!p || (p.half ?? null) !== (ref.half ?? null)) continue;
    const l = layouts.get(`${p.tile}@${p.rotation}`);
    if (!l) continue;
    const s = l.spots.find((sp) => sp.place === ref.place && p.x + sp.cell[0] === ref.x && p.y + sp.cell[1] === ref.y);
    if (s) return { x: p.x * CELL - l.origin[0] + s.x, y: p.y * CELL - l.origin[1] + s.y, kind: s.kind };
  }
  return null;
}

/**
 * Follower spots moved apart until no two are closer than `min` (their
 * centres), each as little as it can: two spots on a busy tile never
 * cover each other. Spots already far enough apart stay where they are.
 */
export function spreadSpots(points: Pt[], min: number): Pt[] {
  const out = points.map((p) => ({ ...p }));
  for (let round = 0; round < 20; round++) {
    let moved = false;
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i];
        const b = out[j];
        if (!a || !b) continue;
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        let d = Math.hypot(dx, dy);
        if (d >= min - 1e-6) continue;
        // Spots on one point part along a direction of their own.
        if (d < 1e-6) { const t = (j * 2.399) % (2 * Math.PI); dx = Math.cos(t); dy = Math.sin(t); d = 1; }
        const push = (min - d) / 2 + 0.01;
        a.x -= (dx / d) * push; a.y -= (dy / d) * push;
        b.x += (dx / d) * push; b.y += (dy / d) * push;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return out;
}

/**
 * The outline of a map (its cells' outer edges, and the edges of any hole)
 * as an SVG path: one line segment per cell side that borders no map cell.
 */
export function mapOutline(cells: [number, number][], cell = CELL): string {
  const on = new Set(cells.map(([x, y]) => `${x},${y}`));
  const d: string[] = [];
  for (const [x, y] of cells) {
    const [l, t, r, b] = [x * cell, y * cell, (x + 1) * cell, (y + 1) * cell];
    if (!on.has(`${x},${y - 1}`)) d.push(`M${l} ${t}H${r}`);
    if (!on.has(`${x + 1},${y}`)) d.push(`M${r} ${t}V${b}`);
    if (!on.has(`${x},${y + 1}`)) d.push(`M${l} ${b}H${r}`);
    if (!on.has(`${x - 1},${y}`)) d.push(`M${l} ${t}V${b}`);
  }
  return d.join('');
}

/** A map's land border (corners in tenths of a square) as a closed SVG path; '' for none. */
export function landOutline(outline: [number, number][], cell = CELL): string {
  if (outline.length < 3) return '';
  return `${outline.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${(x * cell) / 10} ${(y * cell) / 10}`).join('')}Z`;
}

/** The cells a map covers when fitted: its squares and the cells its land border reaches. */
export function mapFitCells(map: MapInfo): Pt[] {
  const reach = map.outline.map(([x, y]) => ({ x: Math.floor(x / 10), y: Math.floor(y / 10) }));
  return [...map.cells.map(([x, y]) => ({ x, y })), ...reach];
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

/** What the element drawn for a piece shows (its picture's symbol, none for a placeholder): equal keys, nothing to draw again. */
function drawnKey(p: Piece, symbol: string | undefined): string {
  return `${p.tile}@${p.rotation} ${p.x},${p.y} ${p.half ?? ''} ${symbol ?? ''}`;
}

function spotOf(a: Action): FeatureRef | null {
  switch (a.kind) {
    case 'follower': case 'gingerbread': case 'fairy': case 'princess': case 'wagon': return a.at;
    default: return null;
  }
}

/**
 * Draws a figure centred on 0,0 into `g` (a symbol, or an icon in the
 * log): a follower is a disc in the player's colour with the seat's
 * letter, the large follower's bigger with a second ring; Traders &
 * Builders' builder is a house shape and its pig a round body with a
 * snout, Abbey & Mayor's mayor a disc under a tall hat and its wagon a cart
 * on two wheels, all in the player's colour with the letter — told apart by
 * shape, not colour alone.
 */
export function figureArt(g: SVGElement, look: FigureLook, colour: string, mark: string): void {
  const r = look.radius;
  if (look.shape === 'builder') {
    const w = r * 0.85;
    el('path', { d: `M${-w} ${w} V${-r * 0.15} L0 ${-r} L${w} ${-r * 0.15} V${w} Z`, fill: colour, stroke: '#1d1d1d', 'stroke-width': 2.5, 'stroke-linejoin': 'round' }, g);
    el('text', { 'text-anchor': 'middle', dy: 7, class: 'meeple-mark' }, g).textContent = mark;
    return;
  }
  if (look.shape === 'mayor') {
    el('rect', { x: -r * 0.45, y: -r, width: r * 0.9, height: r * 0.55, fill: '#1d1d1d' }, g);
    el('circle', { cy: r * 0.2, r: r * 0.8, fill: colour, stroke: '#1d1d1d', 'stroke-width': 2.5 }, g);
    el('text', { 'text-anchor': 'middle', dy: r * 0.2 + 4, class: 'meeple-mark' }, g).textContent = mark;
    return;
  }
  if (look.shape === 'wagon') {
    el('rect', { x: -r, y: -r * 0.7, width: 2 * r, height: r * 1.1, rx: 2, fill: colour, stroke: '#1d1d1d', 'stroke-width': 2.5 }, g);
    for (const cx of [-r * 0.55, r * 0.55]) el('circle', { cx, cy: r * 0.55, r: r * 0.35, fill: '#5a3a10', stroke: '#1d1d1d', 'stroke-width': 1.5 }, g);
    el('text', { 'text-anchor': 'middle', dy: 2, class: 'meeple-mark' }, g).textContent = mark;
    return;
  }
  if (look.shape === 'pig') {
    el('ellipse', { cx: -1.5, rx: r - 3.5, ry: r * 0.72, fill: colour, stroke: '#c0587a', 'stroke-width': 3 }, g);
    el('ellipse', { cx: r - 3.5, cy: 1, rx: 3.2, ry: 4.2, fill: '#f7c6d2', stroke: '#7a3f52', 'stroke-width': 1.5 }, g);
    el('text', { 'text-anchor': 'middle', x: -2, dy: 4, class: 'meeple-mark' }, g).textContent = mark;
    return;
  }
  if (look.ring) el('circle', { r: r - 1.5, fill: '#fff', stroke: '#1d1d1d', 'stroke-width': 2.5 }, g);
  el('circle', { r: look.ring ? r - 5 : r - 3, fill: colour, stroke: '#fff', 'stroke-width': 2.5 }, g);
  el('text', { 'text-anchor': 'middle', dy: look.ring ? 5 : 4, class: look.ring ? 'meeple-mark meeple-mark-big' : 'meeple-mark' }, g).textContent = mark;
}

/** A follower as a small picture for the page around the board (the log, buttons); hidden from screen readers, whose text says it. */
export function figureIcon(figure: string | null, colour: string, mark: string): SVGSVGElement {
  const look = figureLook(figure);
  const r = look.radius;
  const size = Math.round(r * 1.1);
  const svg = el('svg', { viewBox: `${-r} ${-r} ${2 * r} ${2 * r}`, width: size, height: size, class: `fig-icon ${look.className}`, 'aria-hidden': 'true' });
  figureArt(svg, look, colour, mark);
  return svg;
}

export class Board {
  /** The picture (world units); `view` is the viewport that receives the input. */
  readonly svg: SVGSVGElement;
  readonly view: HTMLDivElement;
  private layers: Record<'map' | 'gaps' | 'tiles' | 'targets' | 'followers' | 'tokens' | 'highlights', SVGGElement>;
  camera: Camera = { x: -300, y: -300, scale: 1 };
  /** The world box the SVG draws (grows with the board, never shrinks). */
  private box: Box = { x: -300, y: -300, width: 700, height: 700 };
  private layouts = new Map<string, TileLayout>();
  private symbols = new Map<string, string>();
  private made = new Set<string>();
  private pending = new Map<string, Promise<void>>();
  private headDone = false;
  /** The pictures asked for before the board was known (`preload`), until they arrive. */
  private early: Promise<void> | null = null;
  private defs: SVGDefsElement;
  /** Follows the board as it grows until the player moves the camera. */
  private auto = true;
  private marked = false;
  private artMarked = false;
  private completeMarked = false;
  /** The tiles the server drew into the page, until the first drawing takes them over. */
  private adopted: Element[] | null = null;
  private renders = 0;
  private lastHover = 0;
  /** The placement each lit cell stands for (a dropped tile lands on one). */
  private dropTargets = new WeakMap<Element, Extract<Action, { kind: 'place' }>>();
  private hoverKey = '';
  private pieces: Piece[] = [];
  /** The element drawn for each piece, in board order, with what it shows. */
  private drawn: { key: string; node: SVGElement }[] = [];
  private mapKey = '';
  private drag: { id: number; x: number; y: number; moved: boolean } | null = null;
  private pointers = new Map<number, Pt>();
  /** The two fingers' middle and distance at the last step of a pinch. */
  private pinch: { mid: Pt; d: number } | null = null;
  /** The viewport's place on the page, read once per gesture (no layout read per event). */
  private rect: DOMRect | null = null;
  /** The viewport's size as the ResizeObserver last saw it (fitting needs no layout read). */
  private size: { width: number; height: number } | null = null;
  private frame = coalesce(() => this.applyCamera());
  // The SVG is always a compositor layer, so a gesture's first frame does
  // not have to make one (that frame took 33–117 ms); when a gesture ends,
  // the layer is dropped for one frame and made again, drawn sharp at the
  // new scale.
  private moving = gesture(() => { this.rect = null; }, () => {
    this.svg.classList.add('settle');
    requestAnimationFrame(() => requestAnimationFrame(() => this.svg.classList.remove('settle')));
  }, 180);

  /**
   * A board in `parent`, or, with `page`, the board the server drew into
   * the page (its SVG inside its viewport, the symbols of `page.tiles`):
   * its tiles are kept as they are if the first drawing has the same ones.
   */
  constructor(parent: HTMLElement, private handlers: BoardHandlers, page?: { svg: SVGSVGElement; tiles: PageTile[] }) {
    const taken = page ? this.take(page.svg) : null;
    if (page && taken) {
      this.view = taken.view;
      this.svg = page.svg;
      this.defs = taken.defs;
      this.layers = taken.layers;
      for (const t of page.tiles) {
        this.symbols.set(t.key, t.symbol);
        this.layouts.set(t.key, t.layout);
        const sym = page.svg.querySelector(`symbol[id="${t.symbol}"]`);
        if (sym) adorn(sym);
      }
      this.headDone = page.tiles.length > 0;
      this.adopted = [...taken.layers.tiles.children];
      // The page's own script marked the server's board (index.html).
      this.marked = this.artMarked = this.adopted.length > 0;
      // From now on the camera places the SVG (the next drawing fits it).
      this.svg.classList.remove('prefit');
    } else {
      this.view = document.createElement('div');
      this.view.className = 'board-view';
      parent.appendChild(this.view);
      this.svg = el('svg', { class: 'board', role: 'application', 'aria-label': 'Game board. Arrow keys pan, plus and minus zoom, Tab reaches the marked places.' }, this.view);
      this.defs = el('defs', {}, this.svg);
      const world = el('g', {}, this.svg);
      this.layers = {
        map: el('g', { class: 'layer-map' }, world),
        gaps: el('g', { class: 'layer-gaps' }, world),
        tiles: el('g', { class: 'layer-tiles' }, world),
        highlights: el('g', { class: 'layer-highlights' }, world),
        followers: el('g', { class: 'layer-followers' }, world),
        tokens: el('g', { class: 'layer-tokens' }, world),
        targets: el('g', { class: 'layer-targets' }, world),
      };
    }
    this.setBox(this.box, true);
    const v = this.view;
    // A resized viewport (window, side panel) moves or resizes it: read its place again.
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver((entries) => {
        this.rect = null;
        const r = entries[entries.length - 1]?.contentRect;
        if (r) this.size = { width: r.width, height: r.height };
      }).observe(v);
    }
    v.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.moving.poke();
      this.auto = false;
      this.setCamera(zoomAt(this.camera, this.local(e), Math.exp(-e.deltaY * 0.0015)));
    }, { passive: false });
    v.addEventListener('pointerdown', (e) => {
      this.rect = null;
      this.pointers.set(e.pointerId, this.local(e));
      if (this.pointers.size === 1) this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
      // A second finger: the pinch starts from where both are now.
      if (this.pointers.size === 2) this.pinch = this.fingers();
    });
    v.addEventListener('pointermove', (e) => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.set(e.pointerId, this.local(e));
      if (this.pointers.size === 2) {
        // Two fingers: zoom by the change of their distance, pan by the move of their middle.
        const now = this.fingers();
        if (this.pinch !== null && now.d > 0) {
          this.moving.poke();
          this.auto = false;
          this.setCamera(pinchStep(this.camera, this.pinch, now));
        }
        this.pinch = now;
        if (this.drag) {
          this.drag.moved = true;
          // The finger that pans after the pinch goes on from where it is.
          if (this.drag.id === e.pointerId) { this.drag.x = e.clientX; this.drag.y = e.clientY; }
        }
        return;
      }
      const d = this.drag;
      if (!d || d.id !== e.pointerId) return;
      if (Number.isNaN(d.x)) { d.x = e.clientX; d.y = e.clientY; return; }
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!d.moved && Math.hypot(dx, dy) < 5) return;
      if (!d.moved) v.setPointerCapture(e.pointerId);
      d.moved = true;
      this.auto = false;
      d.x = e.clientX;
      d.y = e.clientY;
      this.moving.poke();
      this.setCamera(pan(this.camera, dx, dy));
    });
    v.addEventListener('pointermove', (e) => {
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
    v.addEventListener('pointerleave', () => { this.hoverKey = ''; this.rect = null; this.handlers.onFeature?.(null); });
    const up = (e: PointerEvent): void => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size < 2) this.pinch = null;
      // One finger of a pinch lifted: the other pans on (from its next move).
      const rest = [...this.pointers.keys()][0];
      if (this.pointers.size === 1 && rest !== undefined && this.drag && this.drag.id !== rest) this.drag = { id: rest, x: NaN, y: NaN, moved: true };
      if (this.pointers.size === 0) window.setTimeout(() => { this.drag = null; }, 0);
    };
    v.addEventListener('pointerup', up);
    v.addEventListener('pointercancel', up);
    // A drag ends with a click on whatever is under the pointer: swallow it.
    v.addEventListener('click', (e) => { if (this.drag?.moved) { e.stopPropagation(); e.preventDefault(); } }, true);
    // A tile dragged from the panel (src/table.ts) is dropped on a lit cell: as a click on it.
    v.addEventListener('dragover', (e) => {
      if (e.dataTransfer?.types.includes(TILE_DRAG)) { e.preventDefault(); e.dataTransfer.dropEffect = 'move'; }
    });
    v.addEventListener('drop', (e) => {
      if (!e.dataTransfer?.types.includes(TILE_DRAG)) return;
      e.preventDefault();
      const hit = document.elementFromPoint(e.clientX, e.clientY)?.closest('.target');
      const a = hit ? this.dropTargets.get(hit) : undefined;
      if (a) this.handlers.onTarget(a);
    });
    // A click that no marked place took (they stop it): a half-made choice is cancelled.
    v.addEventListener('click', (e) => {
      if (this.drag?.moved) return;
      const t = e.target;
      if (t instanceof Element && t.closest('.mark, .mark-city, .spot, .target, .preview, .chip-popover')) return;
      this.handlers.onBackground?.();
    });
  }

  /** The parts of a server-drawn board's SVG, or null if one is missing. */
  private take(svg: SVGSVGElement): { view: HTMLDivElement; defs: SVGDefsElement; layers: Board['layers'] } | null {
    const view = svg.parentElement;
    const defs = svg.querySelector('defs');
    const layer = (name: string): SVGGElement | null => svg.querySelector(`g.layer-${name}`);
    const [map, gaps, tiles, highlights, followers, tokens, targets] = ['map', 'gaps', 'tiles', 'highlights', 'followers', 'tokens', 'targets'].map(layer);
    if (!(view instanceof HTMLDivElement) || !defs || !map || !gaps || !tiles || !highlights || !followers || !tokens || !targets) return null;
    return { view, defs, layers: { map, gaps, tiles, highlights, followers, tokens, targets } };
  }

  /** The middle of the two fingers on the board and how far apart they are. */
  private fingers(): { mid: Pt; d: number } {
    const [a, b] = [...this.pointers.values()] as [Pt, Pt];
    return { mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, d: Math.hypot(a.x - b.x, a.y - b.y) };
  }

  private viewRect(): DOMRect {
    this.rect ??= this.view.getBoundingClientRect();
    return this.rect;
  }

  private local(e: MouseEvent): Pt {
    const r = this.viewRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  /** Moves the camera; the picture follows in the next frame (one write however many events). */
  setCamera(c: Camera): void {
    this.camera = c;
    this.frame.schedule();
  }

  private applyCamera(): void {
    this.svg.style.transform = cameraTransform(this.camera, this.box);
    this.placePopover();
  }

  /** The chip choices of a Chumak square, over the board at its square (HTML, so that it keeps its size at any zoom). */
  private popover: { node: HTMLElement; at: Pt } | null = null;
  private placePopover(): void {
    const p = this.popover;
    if (!p) return;
    const s = worldToScreen(this.camera, p.at);
    p.node.style.transform = `translate(${Math.round(s.x)}px, ${Math.round(s.y)}px) translate(-50%, -100%)`;
  }

  /** Makes the SVG draw `b` (at one world unit per CSS pixel). */
  private setBox(b: Box, force = false): void {
    if (!force && b === this.box) return;
    this.box = b;
    this.svg.setAttribute('viewBox', `${b.x} ${b.y} ${b.width} ${b.height}`);
    this.svg.setAttribute('width', String(b.width));
    this.svg.setAttribute('height', String(b.height));
    this.frame.schedule();
    this.frame.flush();
  }

  panBy(dx: number, dy: number): void { this.auto = false; this.moving.poke(); this.setCamera(pan(this.camera, dx, dy)); }
  zoomBy(f: number): void {
    this.auto = false;
    this.moving.poke();
    const r = this.viewRect();
    this.setCamera(zoomAt(this.camera, { x: r.width / 2, y: r.height / 2 }, f));
  }
  /** The follower spots' radius in world units (normal and large follower). */
  private spotRadius(): { normal: number; big: number } {
    return { normal: 10, big: 14 };
  }

  /** The camera before it zoomed in on follower spots for a finger (restored once they are gone). */
  private beforeSpots: { camera: Camera; auto: boolean } | null = null;

  /**
   * By touch, follower spots are offered at least TAP_PX across: when the
   * board is drawn too small for that, the camera zooms in on them (the
   * tile just placed), and goes back once they are gone.
   */
  private nearSpots(spots: Pt[]): void {
    if (spots.length === 0) {
      const back = this.beforeSpots;
      this.beforeSpots = null;
      if (back) { this.auto = back.auto; this.setCamera(back.camera); }
      return;
    }
    const need = TAP_PX / (2 * this.spotRadius().normal) + 0.05;
    if (!touchScreen() || this.camera.scale >= need || this.beforeSpots) return;
    this.beforeSpots = { camera: this.camera, auto: this.auto };
    this.auto = false;
    const xs = spots.map((p) => p.x);
    const ys = spots.map((p) => p.y);
    const mid = { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 };
    const size = this.size ?? this.viewRect();
    this.setCamera({ x: mid.x - size.width / (2 * need), y: mid.y - size.height / (2 * need), scale: need });
  }

  /** Shows the whole board again and follows it as it grows. */
  refit(): void { this.auto = true; this.fitTo(this.lastCells); }
  private lastCells: Pt[] = [];
  fitTo(cells: Pt[]): void {
    this.lastCells = cells;
    // The size the ResizeObserver reported: reading the layout here, right
    // after a drawing changed the DOM, would lay the page out before its frame.
    const r = this.size ?? this.viewRect();
    // By touch, a lit cell is never drawn smaller than a finger's target.
    this.setCamera(fit(cells, r.width || 800, r.height || 600, touchScreen() ? TAP_PX / (CELL - 8) + 0.01 : undefined));
    this.frame.flush();
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
   * Asks for the pictures of tiles not on the board yet (the tile to place
   * in each rotation, the hand), for the panel's pictures of them; null
   * when they are all here.
   */
  want(tiles: { tile: string; rotation: number }[]): Promise<void> | null {
    const missing = tiles.filter((p) => !this.symbols.has(`${p.tile}@${p.rotation}`));
    if (missing.length === 0) return null;
    return Promise.all(this.ensure(missing)).then(() => undefined);
  }

  /** The kinds of a tile's features (from its layout's follower spots; none until its picture is here). */
  tileKinds(tile: string, rotation: number): string[] {
    const spots = this.layouts.get(`${tile}@${rotation}`)?.spots ?? [];
    // A feature has a spot at each of its places: one kind per feature.
    const features = new Map(spots.map((s) => [`${s.cell[0]},${s.cell[1]} ${s.feature}`, s.kind]));
    return [...features.values()];
  }

  private pictures = new Map<string, string>();
  /**
   * A tile as an image for the panel (the tile to place, the hand): the
   * board's drawing of it, with the tile art when `art`, as an SVG data
   * address — so the tile in hand looks like the tiles on the board. Null
   * until the board has its picture.
   */
  tilePicture(tile: string, rotation: number, art: boolean): string | null {
    const key = `${tile}@${rotation}`;
    const cached = this.pictures.get(`${key} ${String(art)}`);
    if (cached) return cached;
    const id = this.symbols.get(key);
    const l = this.layouts.get(key);
    const symbol = id ? this.defs.querySelector(`symbol[id="${id}"]`) : null;
    if (!l || !symbol) return null;
    const xml = new XMLSerializer();
    const inner = (n: Element | null | undefined): string => (n ? [...n.children].map((c) => xml.serializeToString(c)).join('') : '');
    // The renderer's style and clip paths (the head of the tile answers), and the art's style and patterns (index.html).
    const renderer = [...this.defs.querySelectorAll('style')].map((st) => st.textContent).join('');
    const clips = [...this.defs.querySelectorAll('clipPath, pattern')].map((c) => xml.serializeToString(c)).join('');
    const artStyle = art ? document.getElementById('bastide-art')?.textContent ?? '' : '';
    const patterns = art ? inner(document.querySelector('svg.art-defs defs')) : '';
    const text = `<svg xmlns="${NS}" width="${l.width}" height="${l.height}" viewBox="0 0 ${l.width} ${l.height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif"><style>${renderer}${artStyle}</style><defs>${clips}${patterns}</defs>${inner(symbol)}</svg>`;
    const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
    this.pictures.set(`${key} ${String(art)}`, url);
    return url;
  }

  /**
   * Fetches the drawings and layouts the model needs, each tile kind and
   * rotation once: each becomes a <symbol> that every copy of the tile on
   * the board <use>s. The missing ones are asked for in up to
   * PARALLEL requests at once, so that the server draws them on several
   * cores and the board fills in as each answers. Returns the requests
   * the model waits for.
   */
  private ensure(pieces: { tile: string; rotation: number }[]): Promise<void>[] {
    const missing = [...new Set(pieces.map((p) => `${p.tile}@${p.rotation}`))].filter((k) => !this.symbols.has(k) && !this.pending.has(k));
    const size = Math.min(150, Math.max(MIN_BATCH, Math.ceil(missing.length / PARALLEL)));
    for (let i = 0; i < missing.length; i += size) {
      const b = missing.slice(i, i + size);
      const p = tileBatch(b).then((batch) => this.addSymbols(batch.head, batch.tiles));
      for (const k of b) this.pending.set(k, p);
    }
    return [...new Set(pieces.map((p) => this.pending.get(`${p.tile}@${p.rotation}`)).filter((p) => p !== undefined))];
  }

  /**
   * Takes tile pictures asked for before the first render (the tiles on
   * the board as the page loaded): their symbols go into the page as soon
   * as they arrive, and a render waits for them (as for its own requests)
   * before asking for what is still missing.
   */
  preload(batch: Promise<TileBatch | null>): void {
    const p = batch.then((b) => { if (b) this.addSymbols(b.head, b.tiles); }, () => undefined).finally(() => { if (this.early === p) this.early = null; });
    this.early = p;
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
    // The art's own marks, once per symbol before it joins the page (src/art.ts).
    for (const sym of doc.querySelectorAll('symbol')) adorn(sym);
    // One insertion into the page for the whole answer.
    const batch = document.createDocumentFragment();
    for (const n of [...doc.documentElement.childNodes]) batch.appendChild(document.importNode(n, true));
    this.defs.appendChild(batch);
  }

  /**
   * Draws a model: at once, with placeholders for the tiles whose art has
   * not arrived, then again when it has. `data-version` is set only on a
   * complete drawing (tests wait for it before clicking).
   */
  async render(m: BoardModel): Promise<void> {
    const ticket = ++this.renders;
    const need = [...m.view.board, ...(m.preview ? [m.preview] : [])];
    const missing = (): boolean => need.some((p) => !this.symbols.has(`${p.tile}@${p.rotation}`));
    const started = performance.now();
    const early = this.early;
    if (missing() && early) {
      const inTime = await Promise.race([early.then(() => true), new Promise<boolean>((ok) => { window.setTimeout(() => ok(false), PLACEHOLDER_MS); })]);
      if (ticket !== this.renders) return;
      // Late: placeholders meanwhile, and no second request for the same pictures.
      if (!inTime && missing()) {
        this.draw(m, false);
        await early;
        if (ticket !== this.renders) return;
      }
    }
    if (missing()) {
      const requests = this.ensure(need);
      const all = Promise.all(requests);
      // From a server that has drawn these tiles before, the art comes within
      // a few frames: wait that long rather than draw the board twice
      // (placeholders, then art — each a style, layout and paint of every tile).
      const inTime = await Promise.race([all.then(() => true, () => false), new Promise<boolean>((ok) => { window.setTimeout(() => ok(false), Math.max(0, PLACEHOLDER_MS - (performance.now() - started))); })]);
      if (ticket !== this.renders) return;
      if (!inTime && missing()) {
        this.draw(m, false);
        // Each answer fills in its tiles at the next frame (unless a later
        // render took over, or the last answer came first and all is drawn):
        // answers arriving together cost one drawing, not one each.
        const fill = coalesce(() => { if (ticket === this.renders && missing()) this.draw(m, false); });
        for (const r of requests) void r.then(() => fill.schedule(), () => undefined);
        await all;
        // A later render started while this one waited for layouts: it wins.
        if (ticket !== this.renders) return;
      }
    }
    this.draw(m, true);
  }

  private draw(m: BoardModel, complete: boolean): void {
    const L = this.layers;
    this.pieces = m.view.board;
    if (m.map) this.drawMap(m.map, m.view);
    // Under every half tile its whole cell is hatched: a second half covers
    // the rest, an empty half stays visibly empty (the renderer's pattern).
    L.gaps.replaceChildren();
    for (const p of m.view.board) if (p.half) el('rect', { x: p.x * CELL, y: p.y * CELL, width: CELL, height: CELL, fill: 'url(#hatch)', class: 'halfgap' }, L.gaps);
    const cells: Pt[] = [];
    this.drawTiles(m.view.board, cells);
    // The camera follows the board (and the map) alone: the lit cells and the
    // preview change as the tile turns, and the board must not move under it.
    const fitCells = [...cells, ...(m.map ? mapFitCells(m.map) : [])];
    for (const g of [L.targets, L.followers, L.tokens, L.highlights]) g.replaceChildren();
    if (m.preview) {
      const p = m.preview;
      const l = this.layouts.get(`${p.tile}@${p.rotation}`);
      const id = this.symbols.get(`${p.tile}@${p.rotation}`);
      if (l && id) {
        cells.push(...pieceCells(p, l));
        const node = el('use', { href: `#${id}`, x: p.x * CELL - l.origin[0], y: p.y * CELL - l.origin[1], width: l.width, height: l.height, class: 'preview', 'data-tile': p.tile, 'data-cell': `${p.x},${p.y}`, role: 'button', 'aria-label': 'Turn the tile' }, L.targets);
        node.addEventListener('click', (e) => { e.stopPropagation(); this.handlers.onPreview?.(); });
      }
    }
    // Each player's last tile, outlined in their colour (under the followers).
    for (const t of m.lastTiles ?? []) {
      const attrs = { class: 'last-tile', stroke: t.colour, 'data-seat': t.seat, 'data-cell': `${t.x},${t.y}` };
      if (t.half) el('polygon', { points: halfPolygon(t.x, t.y, t.half as Corner, CELL).map(([x, y]) => `${x},${y}`).join(' '), ...attrs }, L.followers);
      else el('rect', { x: t.x * CELL + 3, y: t.y * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 4, ...attrs }, L.followers);
    }
    // A figure or token that was not there in the last drawing is new: it arrives with a short animation (style.css).
    const seen = new Set<string>();
    const fresh = (key: string): string => {
      seen.add(key);
      return this.figures !== null && !this.figures.has(key) ? ' just-placed' : '';
    };
    m.view.followers.forEach((f) => {
      const at = spotPoint(f, m.view.board, this.layouts);
      if (!at) return;
      const name = m.view.players[f.seat] ?? `seat ${f.seat}`;
      const colour = playerColour(name, f.seat);
      const look = figureLook(f.figure);
      const id = this.symbol(`fig-${f.figure ?? 'n'}-${f.seat}-${colour.replace(/[^0-9a-z]/gi, '')}`, look.radius, (s) => figureArt(s, look, colour, playerMark(f.seat)));
      this.token(id, look.radius, at, { class: `${look.className}${fresh(`f ${f.seat} ${f.x},${f.y} ${f.place} ${f.half ?? ''}`)}`, role: 'img', 'aria-label': `${name}'s ${figureName(f.figure)} on the ${f.feature ?? 'feature'} at ${featureAt(f, m.where ?? BY_COORDINATES)}` }, L.followers);
    });
    this.drawTokens(m.view, fresh);
    this.drawHerds(m.herds ?? []);
    // Only a complete drawing counts as seen (a placeholder drawing comes again).
    if (complete) this.figures = seen;
    // Marks first: a tile lit for a flea lies under the follower spots on it.
    this.drawMarks(m.marks, m.view, m.cities ?? []);
    for (const t of m.targets) {
      const label = describeAction(t, m.where);
      const r = el('rect', { x: t.x * CELL + 4, y: t.y * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: 'target', tabindex: 0, role: 'button', 'aria-label': label, 'data-x': t.x, 'data-y': t.y }, L.targets);
      el('title', {}, r).textContent = label;
      r.addEventListener('click', () => this.handlers.onTarget(t));
      this.dropTargets.set(r, t);
      r.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); this.handlers.onTarget(t); } });
    }
    // The spots where they stand, moved apart where they would overlap.
    const placed = m.spots.flatMap((a) => {
      const ref = spotOf(a);
      const at = ref ? this.pointOf(ref, m.view) : null;
      return ref && at ? [{ a, ref, at }] : [];
    });
    const r = this.spotRadius();
    const spread = spreadSpots(placed.map((p) => p.at), 2 * r.big + 4);
    this.nearSpots(spread);
    placed.forEach(({ a, ref, at }, i) => {
      const label = describeAction(a, m.where, m.view.players);
      const big = a.kind === 'follower' && a.figure !== null;
      const special = a.kind === 'follower' && (a.figure === 'builder' || a.figure === 'pig') ? ` spot-${a.figure}` : a.kind === 'princess' ? ` spot-seat-${a.seat}` : '';
      const pt = spread[i] ?? at;
      const c = el('circle', { cx: pt.x, cy: pt.y, r: big ? r.big : r.normal, class: `spot spot-${a.kind}${big ? ' spot-big' : ''}${special}`, tabindex: 0, role: 'button', 'aria-label': label, 'data-place': ref.place, 'data-feature': at.kind }, L.targets);
      el('title', {}, c).textContent = label;
      c.addEventListener('click', () => this.handlers.onSpot(a));
      // The top of a tower is no feature: nothing to light (the lookup has none).
      if (ref.place !== 'tower') c.addEventListener('focus', () => this.handlers.onFeature?.(ref));
      c.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); this.handlers.onSpot(a); } });
    });
    for (const h of m.highlight) el('rect', { x: h.x * CELL, y: h.y * CELL, width: CELL, height: CELL, class: 'hl' }, L.highlights);
    this.drawLegend(m.view.extras);
    const mapCells = m.map ? mapFitCells(m.map) : [];
    this.setBox(unionBox(this.box, cellBox([...cells, ...m.targets, ...mapCells], 3)) ?? this.box);
    // "Fit board" fits what the last drawing showed (the map too), even after the camera was moved.
    this.lastCells = fitCells;
    if (this.auto && cells.length > 0) this.fitTo(fitCells);
    if (complete) this.svg.setAttribute('data-version', String(m.version));
    // For docs/performance.md: when the first board with tiles is in the DOM
    // (placeholders or art), and when its art is; two frames later each
    // has been laid out and painted.
    if (!this.marked && m.view.board.length > 0) {
      this.marked = true;
      performance.mark('bastide:board', { detail: m.view.board.length });
      requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('bastide:painted')));
    }
    if (complete && !this.artMarked && m.view.board.length > 0) {
      this.artMarked = true;
      performance.mark('bastide:art', { detail: m.view.board.length });
      requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('bastide:art-painted')));
    }
    // And when the complete board (followers and tokens too) is.
    if (complete && !this.completeMarked && m.view.board.length > 0) {
      this.completeMarked = true;
      performance.mark('bastide:complete', { detail: m.view.board.length });
      requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('bastide:complete-painted')));
    }
  }

  /**
   * The tiles layer: one <use> per piece whose art is here, a placeholder
   * square otherwise; only the pieces that changed are touched (a move
   * adds one tile, it does not redraw the board).
   */
  private drawTiles(board: Piece[], cells: Pt[]): void {
    if (this.adopted) this.adopt(board);
    // New pieces go in together, at the end (one insertion for a whole board).
    const added = document.createDocumentFragment();
    board.forEach((p, i) => {
      const k = `${p.tile}@${p.rotation}`;
      const l = this.layouts.get(k);
      const id = this.symbols.get(k);
      if (l) cells.push(...pieceCells(p, l)); else cells.push({ x: p.x, y: p.y });
      const key = drawnKey(p, id);
      if (this.drawn[i]?.key === key) return;
      const node: SVGElement = l && id
        ? el('use', { href: `#${id}`, x: p.x * CELL - l.origin[0], y: p.y * CELL - l.origin[1], width: l.width, height: l.height, class: 'tile', 'data-tile': p.tile, 'data-cell': `${p.x},${p.y}` })
        : el('rect', { x: p.x * CELL, y: p.y * CELL, width: CELL, height: CELL, class: 'tile-placeholder' });
      const old = this.drawn[i];
      if (old) old.node.replaceWith(node); else added.appendChild(node);
      this.drawn[i] = { key, node };
    });
    this.layers.tiles.appendChild(added);
    for (const d of this.drawn.splice(board.length)) d.node.remove();
  }

  /**
   * Takes over the server's tiles: each `<use>` that shows what this
   * board's piece at its index would show is kept as drawn; from the first
   * that differs on, they are removed and drawn again.
   */
  private adopt(board: Piece[]): void {
    const nodes = this.adopted ?? [];
    this.adopted = null;
    let i = 0;
    for (; i < nodes.length; i++) {
      const node = nodes[i];
      const p = board[i];
      if (!p || !(node instanceof SVGElement)) break;
      const k = `${p.tile}@${p.rotation}`;
      const id = this.symbols.get(k);
      if (!id || !this.layouts.has(k) || node.getAttribute('href') !== `#${id}` || node.dataset.tile !== p.tile || node.dataset.cell !== `${p.x},${p.y}`) break;
      this.drawn[i] = { key: drawnKey(p, id), node };
    }
    for (const n of nodes.slice(i)) n.remove();
  }

  /** A <symbol> drawn once (`build` fills it, centred on 0,0 within `r`); its id. */
  private symbol(id: string, r: number, build: (s: SVGSymbolElement) => void): string {
    const full = `b-${id}`;
    if (!this.made.has(full)) {
      this.made.add(full);
      build(el('symbol', { id: full, viewBox: `${-r} ${-r} ${2 * r} ${2 * r}` }, this.defs));
    }
    return full;
  }

  /** One <use> of a token symbol centred at `at`. */
  private token(id: string, r: number, at: Pt, attrs: Record<string, string | number>, parent: SVGGElement): void {
    el('use', { href: `#${id}`, x: at.x - r, y: at.y - r, width: 2 * r, height: 2 * r, ...attrs }, parent);
  }

  private drawMap(map: MapInfo, view: View): void {
    const g = this.layers.map;
    const chips = isObject(view.extras.chips) ? view.extras.chips : null;
    const squares = chips && Array.isArray(chips.chumak) ? chips.chumak : [];
    const key = `${map.cells.length} ${map.starts.length} ${JSON.stringify(squares)}`;
    if (key === this.mapKey) return;
    this.mapKey = key;
    g.replaceChildren();
    // The land as one shape (no grid of squares), its border drawn over it:
    // the country's own outline when the map has one, the squares' edge (where
    // tiles may lie) then a thin dashed line inside it.
    const land = landOutline(map.outline);
    if (land) el('path', { d: land, class: 'map-land' }, g);
    for (const [x, y] of map.cells) el('rect', { x: x * CELL, y: y * CELL, width: CELL, height: CELL, class: 'mapcell' }, g);
    el('path', { d: mapOutline(map.cells), class: land ? 'map-squares' : 'map-outline' }, g);
    if (land) el('path', { d: land, class: 'map-outline' }, g);
    map.starts.forEach(([x, y], i) => {
      el('text', { x: x * CELL + CELL / 2, y: y * CELL + CELL / 2 + 10, 'text-anchor': 'middle', class: 'mapstart' }, g).textContent = String(i + 1);
    });
    // The names above the tiles (a tile placed on a square hides the square, not its name).
    const labels = this.mapLabels();
    labels.replaceChildren();
    for (const c of map.chumak) {
      const sq = squares.find((s): s is { [k: string]: Json } => isObject(s) && s.x === c.x && s.y === c.y);
      const spaces = sq && Array.isArray(sq.spaces) ? sq.spaces.length : 0;
      el('rect', { x: c.x * CELL + 3, y: c.y * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: 'chumak-sq', 'data-x': c.x, 'data-y': c.y }, g);
      // The name large enough to read with the whole map in view.
      el('text', { x: c.x * CELL + CELL / 2, y: c.y * CELL + CELL / 2 + 10, 'text-anchor': 'middle', class: 'chumak-name' }, labels).textContent = c.name;
      if (spaces) el('text', { x: c.x * CELL + CELL / 2, y: c.y * CELL + CELL - 10, 'text-anchor': 'middle', class: 'chumak-traded' }, labels).textContent = `${spaces} traded`;
    }
  }

  /**
   * The lit places of src/picks.ts: a tile that may take a flea (its cell,
   * or its triangle for a half tile), a flea that may move, a ring round a
   * follower that may flee and a disc at each of its destinations, a
   * Chumak square one may trade on and, at the chosen square, its chips.
   */
  private drawMarks(marks: Mark[], view: View, cities: CityArea[]): void {
    const g = this.layers.targets;
    const wire = (node: SVGElement | HTMLElement, mk: Mark): void => {
      node.addEventListener('click', (e) => { e.stopPropagation(); this.handlers.onMark?.(mk); });
      node.addEventListener('keydown', (e) => {
        if (e instanceof KeyboardEvent && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); e.stopPropagation(); this.handlers.onMark?.(mk); }
      });
    };
    const button = (node: SVGElement, mk: Mark): void => {
      node.setAttribute('tabindex', '0');
      node.setAttribute('role', 'button');
      node.setAttribute('aria-label', mk.label);
      el('title', {}, node).textContent = mk.label;
      wire(node, mk);
    };
    const tile = (c: CellRef, cls: string, data: Record<string, string | number>): SVGElement => (c.half
      ? el('polygon', { points: halfPolygon(c.x, c.y, c.half, CELL).map(([x, y]) => `${x},${y}`).join(' '), class: cls, ...data }, g)
      : el('rect', { x: c.x * CELL + 3, y: c.y * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 6, class: cls, ...data }, g));
    const chips: Extract<Mark, { kind: 'trade-chips' }>[] = [];
    // The capture step: the new tower's reach drawn under the rings (its tiles shaded).
    if (marks.some((mk) => mk.kind === 'capture-at')) {
      for (const c of reachOf(view)) tile(c, 'mark-reach', { 'aria-hidden': 'true', 'data-x': c.x, 'data-y': c.y, 'data-half': c.half ?? '' });
    }
    // Captures of one follower that differ by the exchange (a choice): their rings side by side, each named by the kind that comes back.
    const sameFollower = (a: Mark, b: Mark): boolean => a.kind === 'capture-at' && b.kind === 'capture-at' && a.ref.x === b.ref.x && a.ref.y === b.ref.y && a.ref.place === b.ref.place && a.ref.half === b.ref.half && a.action.seat === b.action.seat;
    for (const mk of marks) {
      switch (mk.kind) {
        case 'flea-to':
          button(tile(mk.cell, 'mark mark-flea-to', { 'data-x': mk.cell.x, 'data-y': mk.cell.y, 'data-half': mk.cell.half ?? '' }), mk);
          break;
        case 'flea-from':
          button(el('circle', { cx: mk.cell.x * CELL + 22, cy: mk.cell.y * CELL + 78, r: 15, class: 'mark mark-flea-from', 'data-x': mk.cell.x, 'data-y': mk.cell.y }, g), mk);
          break;
        case 'flee-from': case 'flee-to': {
          const at = spotPoint(mk.ref, view.board, this.layouts);
          if (!at) break;
          const node = mk.kind === 'flee-from'
            ? el('circle', { cx: at.x, cy: at.y, r: 19, class: `mark mark-flee-from${mk.selected ? ' selected' : ''}`, 'data-place': mk.ref.place, 'data-x': mk.ref.x, 'data-y': mk.ref.y }, g)
            : el('circle', { cx: at.x, cy: at.y, r: 11, class: 'mark mark-flee-to', 'data-place': mk.ref.place, 'data-x': mk.ref.x, 'data-y': mk.ref.y, 'data-feature': at.kind }, g);
          button(node, mk);
          break;
        }
        case 'trade-at':
          button(tile({ x: mk.x, y: mk.y, half: null }, `mark mark-trade-at${mk.selected ? ' selected' : ''}`, { 'data-x': mk.x, 'data-y': mk.y }), mk);
          break;
        case 'trade-chips':
          chips.push(mk);
          break;
        case 'dragon-to': {
          // The tile lit, and a red ring round every figure the dragon would eat there.
          const node = tile(mk.cell, 'mark mark-dragon-to', { 'data-x': mk.cell.x, 'data-y': mk.cell.y, 'data-half': mk.cell.half ?? '' });
          button(node, mk);
          const eaten = figuresOn(view, mk.cell);
          node.setAttribute('data-eats', String(eaten.length));
          for (const f of eaten) {
            const at = spotPoint(f, view.board, this.layouts);
            if (at) el('circle', { cx: at.x, cy: at.y, r: 20, class: 'mark-eaten', 'aria-hidden': 'true' }, g);
          }
          break;
        }
        case 'tower-at': {
          // The tile outlined, and a disc on its foundation that takes the click: a click beside a follower spot of the tile just placed never raises its tower by mistake.
          tile({ x: mk.x, y: mk.y, half: null }, 'mark-tower-tile', { 'aria-hidden': 'true' });
          const at = this.towerAt(view, mk.x, mk.y);
          button(el('circle', { cx: at.x, cy: at.y + 4, r: 13, class: 'mark mark-tower-at', 'data-x': mk.x, 'data-y': mk.y }, g), mk);
          break;
        }
        case 'capture-at': {
          // A ring round the follower the capture takes (on a feature or on top of a tower).
          const at = this.pointOf(mk.ref, view);
          if (!at) break;
          const twins = marks.filter((m) => sameFollower(m, mk));
          const k = twins.indexOf(mk);
          const data = { 'data-place': mk.ref.place, 'data-x': mk.ref.x, 'data-y': mk.ref.y, 'data-seat': mk.action.seat, 'data-exchange': mk.action.exchange ?? '' };
          if (twins.length < 2) {
            button(el('circle', { cx: at.x, cy: at.y, r: 19, class: 'mark mark-capture', ...data }, g), mk);
            break;
          }
          // Side by side around the follower, each a smaller ring with the letter of the kind that comes back.
          const dx = (k - (twins.length - 1) / 2) * 26;
          const ring = el('g', { class: 'mark mark-capture mark-capture-choice', ...data }, g);
          el('circle', { cx: at.x + dx, cy: at.y - 22, r: 12 }, ring);
          el('text', { x: at.x + dx, y: at.y - 18, 'text-anchor': 'middle', class: 'mark-capture-kind', 'aria-hidden': 'true' }, ring).textContent = mk.action.exchange === 'big' ? 'L' : (mk.action.exchange ?? 'n').charAt(0).toUpperCase();
          button(ring, mk);
          break;
        }
        case 'barn-at': {
          // A disc on the grid point itself, where the four tiles meet.
          const p = barnPoint(mk);
          button(el('circle', { cx: p.x * CELL, cy: p.y * CELL, r: 13, class: 'mark mark-barn-at', 'data-x': mk.x, 'data-y': mk.y, 'data-corner': mk.corner }, g), mk);
          break;
        }
        case 'ginger-city': {
          const at = spotPoint(mk.ref, view.board, this.layouts);
          if (!at) break;
          const node = el('g', { class: 'mark mark-ginger', 'data-place': mk.ref.place, 'data-x': mk.ref.x, 'data-y': mk.ref.y }, g);
          el('circle', { cx: at.x, cy: at.y, r: 15, class: 'mark-ginger-disc' }, node);
          el('text', { x: at.x, y: at.y + 5, 'text-anchor': 'middle', class: 'mark-ginger-text', 'aria-hidden': 'true' }, node).textContent = 'G';
          button(node, mk);
          break;
        }
      }
    }
    // Under the discs, every tile of each lit city: a click on any of them chooses the city (the one nearest where two share a tile).
    const lit = new Set<string>();
    const spotCells = (r: FeatureRef): Pt | null => {
      const p = spotPoint(r, view.board, this.layouts);
      return p ? { x: p.x / CELL, y: p.y / CELL } : null;
    };
    for (const c of cities) {
      for (const [x, y] of [...c.cells, [c.mark.ref.x, c.mark.ref.y] as [number, number]]) {
        if (lit.has(`${x},${y}`)) continue;
        lit.add(`${x},${y}`);
        const r = el('rect', { x: x * CELL + 2, y: y * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 6, class: 'mark-city', 'data-x': x, 'data-y': y, 'aria-hidden': 'true' }, g);
        r.addEventListener('click', (e) => {
          e.stopPropagation();
          const w = this.worldAt(this.local(e));
          const hit = cityAt(cities, { x: w.x / CELL, y: w.y / CELL }, spotCells);
          if (hit) this.handlers.onMark?.(hit.mark);
        });
      }
    }
    // The discs above the tiles.
    for (const d of g.querySelectorAll('.mark-ginger')) g.appendChild(d);
    this.popover?.node.remove();
    this.popover = null;
    const first = chips[0];
    if (!first) return;
    const at = marks.find((mk) => mk.kind === 'trade-at');
    const node = document.createElement('div');
    node.className = 'chip-popover';
    node.setAttribute('role', 'group');
    node.setAttribute('aria-label', at?.label.replace(/ \(click again to close\)$/, '') ?? 'Trade');
    const colours = [...new Set(chips.map((c) => c.colour))];
    for (const colour of colours) {
      const row = document.createElement('div');
      row.className = 'chip-row';
      for (const mk of chips.filter((c) => c.colour === colour)) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = `chip-btn chip-${colour.replace(/[^a-z]/gi, '')}`;
        b.dataset.colour = colour;
        b.dataset.chips = mk.text;
        b.textContent = mk.text;
        b.title = mk.label;
        b.setAttribute('aria-label', mk.label);
        wire(b, mk);
        row.appendChild(b);
      }
      node.appendChild(row);
    }
    if (at) {
      const close = document.createElement('button');
      close.type = 'button';
      close.className = 'chip-close';
      close.textContent = '×';
      close.setAttribute('aria-label', 'Close the trade choices');
      wire(close, at);
      node.appendChild(close);
    }
    this.view.appendChild(node);
    this.popover = { node, at: { x: first.x * CELL + CELL / 2, y: first.y * CELL + 4 } };
    this.placePopover();
  }

  /** The Plague's tokens explained in a corner of the board (only in a game with the Plague). */
  private legend: HTMLElement | null = null;
  /** River II's pig herd, where it counts: a pink label along the tile's bottom edge, so the herd's field is seen to be fattened. */
  private drawHerds(herds: Pt[]): void {
    const g = this.layers.tokens;
    for (const p of herds) {
      const t = el('g', { class: 'token tok-herd', transform: `translate(${p.x * CELL + CELL / 2} ${p.y * CELL + CELL - 14})`, role: 'img', 'aria-label': 'the pig herd: whoever wins this field scores 1 more a finished city' }, g);
      el('rect', { x: -34, y: -10, width: 68, height: 20, rx: 6 }, t);
      el('text', { 'text-anchor': 'middle', dy: 4.5 }, t).textContent = 'pig herd';
    }
  }

  private drawLegend(extras: View['extras']): void {
    if (!isObject(extras.plague) || this.legend) return;
    const node = document.createElement('div');
    node.className = 'board-legend';
    node.setAttribute('aria-hidden', 'true');
    const item = (shape: string, text: string): string => `<span class="legend-item"><svg viewBox="-12 -12 24 24" width="18" height="18">${shape}</svg>${text}</span>`;
    node.innerHTML = [
      item('<rect x="-9" y="-9" width="18" height="18" rx="3" transform="rotate(45)" class="tok-outbreak"/>', 'active outbreak'),
      item('<rect x="-9" y="-9" width="18" height="18" rx="3" transform="rotate(45)" class="tok-outbreak tok-eradicated"/><path d="M-5 -5 L5 5 M5 -5 L-5 5" class="tok-cross"/>', 'eradicated outbreak'),
      item('<circle r="8" class="tok-flea"/>', 'active flea'),
      item('<circle r="8" class="tok-flea tok-latent"/>', 'latent flea'),
    ].join('');
    this.view.appendChild(node);
    this.legend = node;
  }

  /** The map's names, just above the tiles (made when a map is first drawn). */
  private mapLabels(): SVGGElement {
    const g = this.svg.querySelector('g.map-labels');
    if (g instanceof SVGGElement) return g;
    const labels = el('g', { class: 'map-labels', 'aria-hidden': 'true' });
    this.layers.tiles.after(labels);
    return labels;
  }

  /** The effects layer ("+N" and lit tiles), above the pieces; no drawing clears it. */
  private effects(): SVGGElement {
    const g = this.svg.querySelector('g.layer-effects');
    if (g instanceof SVGGElement) return g;
    return el('g', { class: 'layer-effects' }, this.layers.targets.parentNode instanceof SVGGElement ? this.layers.targets.parentNode : this.svg);
  }

  /** Fades out every "+N" and lit tile still shown (the final result: the board is seen plain). */
  clearEffects(): void {
    const g = this.effects();
    for (const n of g.children) n.classList.add('fading');
    window.setTimeout(() => { for (const n of [...g.querySelectorAll('.fading')]) n.remove(); }, FADE_MS);
  }

  /** The figures and tokens of the last complete drawing (null before the first: nothing is new then). */
  private figures: Set<string> | null = null;

  /**
   * "+N" over the cells where points were scored, for a moment (an
   * effects layer no drawing clears); a gain without a cell is shown at
   * the seat panel only (src/table.ts).
   */
  flash(items: { x: number; y: number; text: string; colour: string; seat: number }[], ms = FLASH_MS, step: number | null = null): void {
    if (items.length === 0) return;
    const g = this.effects();
    // A move's "+N" replace the last move's (they do not pile up); the final scoring's steps stay together.
    if (step === null) for (const old of g.querySelectorAll('text.gain:not([data-final-step])')) old.remove();
    // Several gains on one cell stack upwards, above those still shown there (the final scoring's steps stay).
    const stack = new Map<string, number>();
    for (const it of items) {
      const k = `${it.x},${it.y}`;
      const n = stack.get(k) ?? g.querySelectorAll(`text.gain[data-cell="${k}"]`).length;
      stack.set(k, n + 1);
      const t = el('text', { x: it.x * CELL + CELL / 2, y: it.y * CELL + CELL / 2 + 10 - n * 30, 'text-anchor': 'middle', class: 'gain', fill: it.colour, 'data-seat': it.seat, 'data-cell': k, ...stepAttrs(ms, step) }, g);
      t.textContent = it.text;
      window.setTimeout(() => t.remove(), ms);
    }
  }

  /** The tiles of a feature that just scored, lit for `ms` under its "+N" (the effects layer); `step` names a step of the final scoring. */
  flashCells(cells: Pt[], colour: string, ms = FLASH_MS, step: number | null = null): void {
    if (cells.length === 0) return;
    const g = this.effects();
    const { style, ...tag } = stepAttrs(ms, step);
    const lit = el('g', { class: 'gain-cells', ...tag }, g);
    for (const c of cells) el('rect', { x: c.x * CELL + 2, y: c.y * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 4, stroke: colour, class: 'gain-cell', 'data-cell': `${c.x},${c.y}`, ...(style === undefined ? {} : { style }) }, lit);
    // Under the numbers.
    g.insertBefore(lit, g.firstChild);
    window.setTimeout(() => lit.remove(), ms);
  }

  /**
   * Where the Tower's foundation on the tile at (x, y) stands (src/tower.ts
   * chooses the point of the cell farthest from its follower spots).
   */
  private towerAt(view: View, x: number, y: number): Pt {
    // Where the tile's picture prints its foundation (the renderer's "T"), if it does.
    const printed = this.printedFoundation(view, x, y);
    if (printed) return printed;
    const spots: Pt[] = [];
    for (const p of view.board) {
      const l = this.layouts.get(`${p.tile}@${p.rotation}`);
      if (!l) continue;
      for (const s of l.spots) if (p.x + s.cell[0] === x && p.y + s.cell[1] === y) spots.push({ x: p.x * CELL - l.origin[0] + s.x, y: p.y * CELL - l.origin[1] + s.y });
    }
    return towerPoint(x, y, CELL, spots);
  }

  /** The Tower's foundation as the picture of the tile at (x, y) prints it (its `data-tag="tower"`), in world units; null without one. */
  private printedFoundation(view: View, x: number, y: number): Pt | null {
    const p = view.board.find((q) => q.x === x && q.y === y && !q.half);
    if (!p) return null;
    const k = `${p.tile}@${p.rotation}`;
    const id = this.symbols.get(k);
    const l = this.layouts.get(k);
    const tag = id ? this.defs.querySelector(`symbol[id="${id}"] [data-tag="tower"]`) : null;
    const tile = tag?.closest('[data-tile]');
    if (!l || !tag) return null;
    const at = tagPoint(tile?.getAttribute('transform') ?? '', tag.getAttribute('transform') ?? '');
    return at ? { x: p.x * CELL - l.origin[0] + at.x, y: p.y * CELL - l.origin[1] + at.y } : null;
  }

  /** Where a figure at `ref` stands: a follower spot of its feature, or (place `tower`) the top of the tower on that tile. */
  private pointOf(ref: FeatureRef, view: View): (Pt & { kind: string }) | null {
    if (ref.place !== 'tower') return spotPoint(ref, view.board, this.layouts);
    const t = towersOf(view).find((w) => w.x === ref.x && w.y === ref.y);
    return { ...topPoint(this.towerAt(view, ref.x, ref.y), t?.height ?? 0), kind: 'tower' };
  }

  /**
   * The Tower: each foundation a grey ring on its tile, each tower its
   * floors stacked upwards (at most MAX_DRAWN drawn, its height written
   * beside it), and the follower on top standing on the stack.
   */
  private drawTowers(view: View, fresh: (key: string) => string): void {
    const g = this.layers.tokens;
    for (const t of towersOf(view)) {
      const at = this.towerAt(view, t.x, t.y);
      const top = t.top ? `, ${view.players[t.top.seat] ?? `seat ${t.top.seat}`}'s ${figureName(t.top.figure)} on top` : '';
      const label = t.height === 0 ? 'a tower foundation' : `a tower of ${t.height} floor${t.height === 1 ? '' : 's'}${top}`;
      const node = el('g', { class: `token tok-tower${fresh(`t ${t.x},${t.y} ${t.height}`)}`, role: 'img', 'aria-label': label, 'data-x': t.x, 'data-y': t.y, 'data-height': t.height, 'data-top': t.top ? t.top.seat : '' }, g);
      el('ellipse', { cx: at.x, cy: at.y, rx: 11, ry: 5, class: 'tower-base' }, node);
      for (let k = 0; k < Math.min(t.height, MAX_DRAWN); k++) el('rect', { x: at.x - 9, y: at.y - FLOOR_PX * (k + 1), width: 18, height: FLOOR_PX, class: 'tower-floor' }, node);
      if (t.height > 0) el('text', { x: at.x + 13, y: at.y + 4, class: 'tower-height' }, node).textContent = String(t.height);
      if (t.top) {
        const name = view.players[t.top.seat] ?? `seat ${t.top.seat}`;
        const colour = playerColour(name, t.top.seat);
        const look = figureLook(t.top.figure);
        const id = this.symbol(`fig-${t.top.figure ?? 'n'}-${t.top.seat}-${colour.replace(/[^0-9a-z]/gi, '')}`, look.radius, (s) => figureArt(s, look, colour, playerMark(t.top?.seat ?? 0)));
        this.token(id, look.radius, topPoint(at, t.height), { class: `${look.className} fig-tower-top${fresh(`tt ${t.x},${t.y} ${t.top.seat}`)}`, role: 'img', 'aria-label': `${name}'s ${figureName(t.top.figure)} on top of the tower`, 'data-x': t.x, 'data-y': t.y, 'data-place': 'tower' }, g);
      }
    }
  }

  /**
   * Princess & Dragon's neutral figures: the dragon as a green winged
   * diamond on its tile's centre (a half tile: its triangle's centre),
   * the fairy as a pale star beside the follower she is with.
   */
  private drawDragon(view: View, fresh: (key: string) => string): void {
    const g = this.layers.tokens;
    const d = dragonOf(view);
    if (d?.tile) {
      const t = d.tile;
      const c = t.half ? halfPolygon(t.x, t.y, t.half, CELL).reduce((a, [x, y]) => ({ x: a.x + x / 3, y: a.y + y / 3 }), { x: 0, y: 0 }) : { x: t.x * CELL + CELL / 2, y: t.y * CELL + CELL / 2 };
      const id = this.symbol('dragon', 22, (s) => {
        el('path', { d: 'M0 -18 L8 -6 L20 -12 L13 2 L18 16 L0 9 L-18 16 L-13 2 L-20 -12 L-8 -6 Z', class: 'tok-dragon' }, s);
        el('text', { 'text-anchor': 'middle', dy: 5, class: 'token-text' }, s).textContent = 'D';
      });
      this.token(id, 22, c, { class: `token tok-dragon-fig${fresh(`d ${t.x},${t.y} ${t.half ?? ''}`)}`, role: 'img', 'aria-label': `the dragon, ${view.phase === 'dragon' ? `flying (${d.moves} of ${DRAGON_MOVES} moves made)` : 'resting'}`, 'data-x': t.x, 'data-y': t.y }, g);
    }
    const f = fairyOf(view);
    if (f) {
      const at = this.pointOf(f.at, view);
      if (at) {
        const id = this.symbol('fairy', 13, (s) => {
          el('path', { d: 'M0 -12 L3 -4 L12 -4 L5 2 L8 11 L0 6 L-8 11 L-5 2 L-12 -4 L-3 -4 Z', class: 'tok-fairy' }, s);
        });
        const who = f.with === null ? 'with nobody' : `with ${view.players[f.with] ?? `seat ${f.with}`}'s follower`;
        this.token(id, 13, { x: at.x + 18, y: at.y - 18 }, { class: `token tok-fairy-fig${fresh(`y ${f.at.x},${f.at.y} ${f.at.place}`)}`, role: 'img', 'aria-label': `the fairy, ${who}`, 'data-x': f.at.x, 'data-y': f.at.y, 'data-place': f.at.place }, g);
      }
    }
  }

  private drawTokens(view: View, fresh: (key: string) => string = () => ''): void {
    const extras = view.extras;
    const g = this.layers.tokens;
    const plague = isObject(extras.plague) ? extras.plague : null;
    const cellOf = (o: Json): Pt | null => (isObject(o) && typeof o.x === 'number' && typeof o.y === 'number' ? { x: o.x, y: o.y } : null);
    if (plague && Array.isArray(plague.outbreaks)) {
      for (const o of plague.outbreaks) {
        const p = cellOf(o);
        if (!p || !isObject(o)) continue;
        const active = o.side === 'active';
        const cls = active ? 'tok-outbreak' : 'tok-outbreak tok-eradicated';
        // A diamond (fleas are discs): filled dark for an active outbreak, pale and crossed out once eradicated.
        const id = this.symbol(`outbreak-${String(o.number)}-${active ? 'a' : 'e'}`, 16, (s) => {
          el('rect', { x: -10, y: -10, width: 20, height: 20, rx: 3, transform: 'rotate(45)', class: cls }, s);
          if (!active) el('path', { d: 'M-7 -7 L7 7 M7 -7 L-7 7', class: 'tok-cross' }, s);
          el('text', { 'text-anchor': 'middle', dy: 5, class: active ? 'token-text' : 'token-text token-text-dark' }, s).textContent = String(o.number);
        });
        this.token(id, 16, { x: p.x * CELL + 78, y: p.y * CELL + 22 }, { class: `token ${cls}${fresh(`o ${String(o.number)} ${p.x},${p.y}`)}`, role: 'img', 'aria-label': `outbreak ${String(o.number)} ${active ? 'active' : 'eradicated'}` }, g);
      }
    }
    if (plague && Array.isArray(plague.fleas)) {
      for (const f of plague.fleas) {
        const p = cellOf(f);
        if (!p || !isObject(f)) continue;
        const cls = f.side === 'active' ? 'tok-flea' : 'tok-flea tok-latent';
        // Active: a filled disc; latent: a hollow ring of the same colour.
        const id = this.symbol(f.side === 'active' ? 'flea-a' : 'flea-l', 12, (s) => { el('circle', { r: 9, class: cls }, s); });
        this.token(id, 12, { x: p.x * CELL + 22, y: p.y * CELL + 78 }, { class: `token ${cls}${fresh(`l ${p.x},${p.y} ${String(isObject(f) ? f.half ?? '' : '')}`)}`, role: 'img', 'aria-label': `flea ${String(f.side)}` }, g);
      }
    }
    this.drawTowers(view, fresh);
    this.drawDragon(view, fresh);
    // Abbey & Mayor's barns: a small house in the owner's colour on its grid point.
    for (const b of barnsOf(view)) {
      const name = view.players[b.seat] ?? `seat ${b.seat}`;
      const colour = playerColour(name, b.seat);
      const id = this.symbol(`barn-${b.seat}-${colour.replace(/[^0-9a-z]/gi, '')}`, 14, (s) => {
        el('path', { d: 'M-11 10 V-2 L0 -12 L11 -2 V10 Z', fill: colour, class: 'tok-barn' }, s);
      });
      const p = barnPoint(b);
      this.token(id, 14, { x: p.x * CELL, y: p.y * CELL }, { class: `token tok-barn${fresh(`b ${b.seat} ${b.x},${b.y} ${b.corner}`)}`, role: 'img', 'aria-label': `${name}'s barn` }, g);
    }
    const gb = cellOf(extras.gingerbread ?? null);
    if (gb) {
      const id = this.symbol('ginger', 15, (s) => {
        el('circle', { r: 12, class: 'tok-ginger' }, s);
        el('text', { 'text-anchor': 'middle', dy: 5, class: 'token-text' }, s).textContent = 'G';
      });
      this.token(id, 15, { x: gb.x * CELL + 50, y: gb.y * CELL + 50 }, { class: `token tok-ginger${fresh(`g ${gb.x},${gb.y}`)}`, role: 'img', 'aria-label': 'the gingerbread man' }, g);
    }
  }
}
