// The tile in hand: the tile to place (turned by a click, R, or a click on
// its preview on the board), the other tiles of a Half-and-half hand, the
// pile to draw from, and the placement waiting for Confirm. One section of
// the side panel, its state (the tile, its rotation, the previewed
// placement) its own; the table reads it to light the board.

import { TILE_DRAG } from '../board';
import { h } from '../dom';
import { nextRotation } from '../geometry';
import { ROTATIONS, type Action, type Rotation } from '../protocol';
import type { GameState } from '../state';
import { touchScreen } from './touch';
import { isHeld, moveWords, rotationWords, tileLine, tileWords } from '../words';

export type Place = Extract<Action, { kind: 'place' }>;

/** The tiles the player may place now (the drawn one, halves from the hand). */
export function placeableTiles(legal: Action[]): string[] {
  return [...new Set(legal.filter((a): a is Place => a.kind === 'place').map((a) => a.tile))];
}

/** Legal placements of `tile` turned `rotation`. */
export function targetsFor(legal: Action[], tile: string | null, rotation: Rotation): Place[] {
  return legal.filter((a): a is Place => a.kind === 'place' && a.tile === tile && a.rotation === rotation);
}

/**
 * The tiles shown in the player's hand: the ones placeable now (the
 * drawn tile first), then their other halves, which wait for their turn
 * (own halves are shown whoever's turn it is).
 */
export function handTiles(places: string[], own: string[]): string[] {
  return [...new Set([...places, ...own])];
}

/** The tiles of the hand `s` shows this seat: the placeable ones, then its own halves waiting for its turn. */
export function handOf(s: GameState): string[] {
  const own = s.seat !== null ? s.view?.halves?.[s.seat] : undefined;
  return handTiles(placeableTiles(s.legal), own && 'tiles' in own ? own.tiles : []);
}

/** Whether the hand is shown as a row of tiles (more than one, or tiles held: halves, the abbey): then drawing is the pile beside it. */
export function handShown(hand: string[]): boolean {
  return hand.length > 1 || hand.some(isHeld);
}

/** The next rotation with a legal placement (or simply the next one when none has). */
export function rotateToNext(legal: Action[], tile: string | null, r: Rotation): Rotation {
  let next = nextRotation(r, ROTATIONS);
  for (let i = 0; i < 4 && targetsFor(legal, tile, next).length === 0; i++) next = nextRotation(next, ROTATIONS);
  return targetsFor(legal, tile, next).length > 0 ? next : nextRotation(r, ROTATIONS);
}

/**
 * The previewed placement turned to the next rotation that fits the same
 * cell (the same placement when no other does): turning keeps the tile
 * where it was put.
 */
export function turnPreview(legal: Action[], p: Place): Place {
  const here = legal.filter((a): a is Place => a.kind === 'place' && a.tile === p.tile && a.x === p.x && a.y === p.y && a.half === p.half);
  let r = p.rotation;
  for (let i = 0; i < 3; i++) {
    r = nextRotation(r, ROTATIONS);
    const next = here.find((a) => a.rotation === r);
    if (next) return next;
  }
  return p;
}

/** What the hand needs of the table. */
export interface HandContext {
  send(a: Action): void;
  /** The choice changed (tile, rotation, preview): the table draws the board and the panels again. */
  changed(): void;
  /** A tile's picture in a rotation (the board's drawing of it). */
  picture(tile: string, rotation: Rotation): string;
  /** The kinds of a tile's features, once its picture is here (none before). */
  kinds(tile: string, rotation: Rotation): string[];
}

export interface HandPanel {
  element: HTMLElement;
  /** The tile chosen (null: none to place). */
  readonly tile: string | null;
  readonly rotation: Rotation;
  /** The placement previewed on the board, waiting for Confirm. */
  readonly pending: Place | null;
  /** Whether a tile is being dragged to the board (the panel is not drawn again until it ends). */
  readonly dragging: boolean;
  /** Keeps the choice legal for `s` (a tile that may be placed, turned where it fits). */
  sync(s: GameState): void;
  /** Turns the tile to its next rotation with a legal placement. */
  rotate(s: GameState): void;
  /** Previews a placement (a lit cell clicked, or a move of the list). */
  preview(a: Place): void;
  /** Drops the previewed placement. */
  cancel(): void;
  /** Drops the previewed placement without drawing (the move was sent: the table draws). */
  clear(): void;
  update(s: GameState): void;
}

export function handPanel(ctx: HandContext): HandPanel {
  const element = h('div', { class: 'slot', id: 'hand-slot' });
  let tile: string | null = null;
  let rotation: Rotation = 0;
  let pending: Place | null = null;
  let dragging = false;
  let last: GameState | null = null;
  const focusConfirm = (): void => { (element.querySelector('#confirm') as HTMLButtonElement | null)?.focus(); };
  // A tile dragged to the board: the board shows its cells, the panel
  // stays as it is until the drag ends (redrawing it would end the drag).
  const dragTile = (t: string) => (e: Event): void => {
    if (!(e instanceof DragEvent) || !e.dataTransfer || !last) return;
    e.dataTransfer.setData(TILE_DRAG, t);
    e.dataTransfer.effectAllowed = 'move';
    if (tile !== t) { tile = t; rotation = rotateToNext(last.legal, t, 270); }
    pending = null;
    dragging = true;
    ctx.changed();
  };
  const dragEnd = (): void => {
    dragging = false;
    ctx.changed();
    if (pending) focusConfirm();
  };
  const panel: HandPanel = {
    element,
    get tile() { return tile; },
    get rotation() { return rotation; },
    get pending() { return pending; },
    get dragging() { return dragging; },
    sync(s) {
      last = s;
      const places = placeableTiles(s.legal);
      if (tile === null || !places.includes(tile)) {
        tile = places[0] ?? null;
        pending = null;
        if (tile && targetsFor(s.legal, tile, rotation).length === 0) rotation = rotateToNext(s.legal, tile, rotation);
      }
    },
    rotate(s) {
      if (!tile) return;
      if (pending) {
        // A previewed placement turns where it lies.
        pending = turnPreview(s.legal, pending);
        rotation = pending.rotation;
      } else {
        rotation = rotateToNext(s.legal, tile, rotation);
      }
      ctx.changed();
    },
    preview(a) {
      tile = a.tile;
      rotation = a.rotation;
      pending = a;
      ctx.changed();
      focusConfirm();
    },
    cancel() { pending = null; ctx.changed(); },
    clear() { pending = null; },
    update(s) {
      last = s;
      if (dragging) return;
      element.replaceChildren(...draw(s));
    },
  };
  const pickTile = (s: GameState, t: string): void => {
    tile = t;
    pending = null;
    rotation = rotateToNext(s.legal, t, 270);
    ctx.changed();
    (element.querySelector(`.hand button[data-tile="${CSS.escape(t)}"]`) as HTMLButtonElement | null)?.focus();
  };
  const draw = (s: GameState): HTMLElement[] => {
    const view = s.view;
    const places = placeableTiles(s.legal);
    const hand = handOf(s);
    const out: HTMLElement[] = [];
    // The hand as pictures (the server's drawing of each tile, as on the
    // board): the one chosen in its rotation; halves that wait for the
    // player's turn are shown, not offered.
    const handGroup = handShown(hand) ? h('div', { class: 'hand', role: 'group', 'aria-label': places.length > 0 ? 'Choose a tile' : 'Your halves, for your turn' },
      ...hand.map((t) => {
        const can = places.includes(t);
        const chosen = t === tile;
        return h('button', { type: 'button', 'data-tile': t, 'aria-pressed': String(chosen), disabled: can ? undefined : 'disabled', 'aria-label': `${tileWords(t)}${can ? '' : ' (for your turn)'}`, onclick: () => pickTile(s, t) },
          h('img', { src: ctx.picture(t, chosen ? rotation : 0), alt: '', width: 56, height: 56, draggable: can ? 'true' : 'false', ondragstart: can ? dragTile(t) : undefined, ondragend: can ? dragEnd : undefined }));
      }),
      // Half-and-half, the abbey: drawing instead of playing a tile held is the pile beside the hand, face down.
      ...s.legal.filter((a) => a.kind === 'draw').slice(0, 1).map((a) => h('button', { type: 'button', id: 'draw-pile', class: 'draw-pile', 'data-kind': 'draw', 'aria-label': `Draw a tile instead (${view?.tilesLeft ?? 0} left)`, title: 'Draw a tile instead of playing a tile you hold', onclick: () => ctx.send(a) },
        h('span', { class: 'pile-face', 'aria-hidden': 'true' }, '?'), h('span', { class: 'pile-count', 'aria-hidden': 'true' }, String(view?.tilesLeft ?? 0))))) : null;
    if (tile) {
      const t = tile;
      const fits = targetsFor(s.legal, t, rotation).length;
      out.push(h('section', { class: 'panel current', 'aria-label': 'Tile to place' }, h('h2', {}, handGroup ? 'Your tiles' : 'Your tile'),
        handGroup,
        h('img', { src: ctx.picture(t, rotation), alt: `${tileWords(t)}, ${rotationWords(rotation)}`, id: 'current-tile', 'data-tile': t, 'data-rotation': rotation, draggable: 'true', ondragstart: dragTile(t), ondragend: dragEnd, title: touchScreen() ? 'Tap to turn it' : 'Click to turn it, or drag it onto a marked cell', onclick: () => panel.rotate(s) }),
        h('p', { id: 'tile-line' }, tileLine(t, rotation, fits, ctx.kinds(t, rotation))),
        h('button', { id: 'rotate', onclick: () => panel.rotate(s) }, touchScreen() ? 'Turn' : 'Rotate (R)')));
    } else {
      if (view?.drawn && s.status === 'playing') out.push(h('section', { class: 'panel current' }, h('h2', {}, 'Drawn tile'), h('img', { src: ctx.picture(view.drawn, 0), alt: tileWords(view.drawn) })));
      if (handGroup && s.status === 'playing') out.push(h('section', { class: 'panel current', 'aria-label': 'Your halves' }, h('h2', {}, 'Your halves'), handGroup));
    }
    if (pending) {
      const p = pending;
      out.push(h('section', { class: 'panel', id: 'confirm-panel', 'aria-label': 'Confirm the placement' }, h('p', {}, `${moveWords(p)}${touchScreen() ? ' (tap the tile to turn it)' : ' (click it to turn it)'}`),
        h('button', { id: 'confirm', onclick: () => ctx.send(p) }, touchScreen() ? 'Confirm' : 'Confirm (Enter)'), ' ',
        h('button', { id: 'undo', onclick: () => panel.cancel() }, touchScreen() ? 'Undo' : 'Undo (Esc)')));
    }
    return out;
  };
  return panel;
}
