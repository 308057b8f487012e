// The choices: the figure the follower spots place, the Half-and-half
// draft, the actions that are no place on the board (Pass, draw, …) and
// the list of every legal move in words. One section of the side panel;
// its state (the figure chosen, whether the list is open) its own.

import { figureIcon } from '../board';
import { playerColour, playerMark } from '../colours';
import { h } from '../dom';
import { onBoard, draftTiles } from '../picks';
import { capitalise, figureName, type Action, type Rotation } from '../protocol';
import type { GameState } from '../state';
import { describeAction } from '../words';
import type { Where } from '../where';
import { secondTile } from '../traders';
import { dragonStepWords, neutralsWords, portalOpen } from '../dragon';
import type { Place } from './hand';

/** The figures a follower may be placed as now, the normal follower first (`null`; `big` is the large follower). */
export function figuresOffered(legal: Action[]): (string | null)[] {
  const out = [...new Set(legal.flatMap((a) => (a.kind === 'follower' ? [a.figure] : [])))];
  return out.sort((a, b) => (a === null ? -1 : b === null ? 1 : a.localeCompare(b)));
}

/** The actions drawn as follower spots on the board: the followers of the chosen figure (the gingerbread man's cities, flights, fleas and trades are marks: src/picks.ts). */
export function spotsFor(legal: Action[], figure: string | null): Action[] {
  // Princess & Dragon: the fairy's and the princess's choices stand by the followers they name, whatever figure is chosen;
  // Abbey & Mayor's wagon step lights the wagon's targets the same way.
  return legal.filter((a) => (a.kind === 'follower' && a.figure === figure) || a.kind === 'fairy' || a.kind === 'princess' || a.kind === 'wagon');
}

/** Whether the Figure panel is shown: several figures may be placed, or only one that is not the normal follower (its spots say which). */
export function figuresPanelShown(figures: (string | null)[]): boolean {
  return figures.length > 1 || (figures.length === 1 && figures[0] !== null);
}

/** What the chosen figure's spots on the board are, in a line under the buttons. */
export function figureHint(figure: string | null): string {
  switch (figure) {
    case 'builder': return 'The lit spots take your builder: on a road or city of this tile where you already have a follower.';
    case 'pig': return 'The lit spots take your pig: in a field of this tile where you already have a farmer.';
    case 'big': return 'The lit spots take your large follower.';
    case 'mayor': return 'The lit spots take your mayor: only in a city, where it counts one follower per coat of arms.';
    case 'wagon': return 'The lit spots take your wagon: on a road, city or monastery, never a field.';
    default: return 'The lit spots take a follower.';
  }
}

/** What the choices need of the table. */
export interface ChoicesContext {
  send(a: Action): void;
  /** A placement chosen from the list: previewed on the board. */
  preview(a: Place): void;
  /** The figure changed: the board shows its spots. */
  changed(): void;
  picture(tile: string, rotation: Rotation): string;
}

export interface ChoicesPanel {
  element: HTMLElement;
  /** The figure the follower spots place (null: the normal follower). */
  readonly figure: string | null;
  /** Keeps the figure one that is offered. */
  sync(s: GameState): void;
  /** Chooses a figure (the keyboard stays on its button). */
  choose(f: string | null): void;
  /** The next figure offered (L). */
  next(s: GameState): void;
  /** `inHand`: drawing is the pile beside the hand, not a button here; `where` says places in words. */
  update(s: GameState, inHand: boolean, where?: Where): void;
}

/** The builder's second tile: the pile to take it from and the pass that declines it. */
function secondTileSection(second: { draw: Action | null; pass: Action | null }, left: number, send: (a: Action) => void): HTMLElement {
  return h('section', { class: 'panel current', id: 'double-turn', 'aria-label': 'Your builder gives you a second tile' }, h('h2', {}, 'A second tile'),
    h('p', {}, 'Your tile extended the road or city where your builder stands: take a second tile and place it now, or pass.'),
    h('div', { class: 'second-tile' },
      second.draw ? h('button', { type: 'button', id: 'second-tile', class: 'pile', 'data-kind': 'draw', title: 'Take the second tile', onclick: () => { if (second.draw) send(second.draw); } }, `Take the second tile (${left} left)`) : h('span', {}, 'The pile is empty.'),
      second.pass ? h('button', { type: 'button', id: 'pass', 'data-kind': 'pass', onclick: () => { if (second.pass) send(second.pass); } }, 'No second tile') : null));
}

export function choicesPanel(ctx: ChoicesContext): ChoicesPanel {
  const element = h('div', { class: 'slot', id: 'choices-slot' });
  let figure: string | null = null;
  let listOpen = false;
  const panel: ChoicesPanel = {
    element,
    get figure() { return figure; },
    sync(s) {
      const figures = figuresOffered(s.legal);
      if (!figures.includes(figure)) figure = figures[0] ?? null;
    },
    choose(f) {
      figure = f;
      ctx.changed();
      // The panel was drawn again: keep the keyboard where it was.
      (element.querySelector(`#figure-${f ?? 'normal'}`) as HTMLButtonElement | null)?.focus();
    },
    next(s) {
      const f = figuresOffered(s.legal);
      if (f.length > 1) panel.choose(f[(f.indexOf(figure) + 1) % f.length] ?? null);
    },
    update(s, inHand, where) { element.replaceChildren(...draw(s, inHand, where)); },
  };
  const draw = (s: GameState, inHand: boolean, where: Where | undefined): HTMLElement[] => {
    const out: HTMLElement[] = [];
    const view = s.view;
    const figures = figuresOffered(s.legal);
    if (figuresPanelShown(figures)) {
      // Several figures may go on the board (or only one that is not a follower): the markers place the chosen one.
      const me = s.seat ?? view?.currentPlayer ?? 0;
      const colour = playerColour(s.players[me] ?? '', me);
      out.push(h('section', { class: 'panel', 'aria-label': 'Figure to place' }, h('h2', {}, 'Figure'),
        h('div', { class: 'figures', role: 'group', 'aria-label': 'Choose the figure the marked places take (L switches)' },
          ...figures.map((f) => h('button', { id: `figure-${f ?? 'normal'}`, 'data-figure': f ?? '', 'aria-pressed': String(f === figure), onclick: () => panel.choose(f) },
            figureIcon(f, colour, playerMark(me)), ` ${capitalise(figureName(f))}${f === 'big' ? ' (L)' : ''}`))),
        h('p', { class: 'figure-hint' }, figureHint(figure))));
    }
    const draft = draftTiles(s.legal);
    if (draft.length > 0) {
      // The Half-and-half draft: the halves in the pool as pictures, one click takes one.
      out.push(h('section', { class: 'panel current', id: 'draft', 'aria-label': 'Take a half' }, h('h2', {}, 'Take a half'),
        h('div', { class: 'hand draft' }, ...draft.map((d) => h('button', { type: 'button', 'data-tile': d.tile, 'data-kind': 'draft', 'aria-label': describeAction(d.action), title: describeAction(d.action), onclick: () => ctx.send(d.action) },
          h('img', { src: ctx.picture(d.tile, 0), alt: '', width: 56, height: 56 }))))));
    }
    // Princess & Dragon: whose move of the dragon it is (for everyone at the table), and the magic portal's reach.
    const flight = view ? dragonStepWords(view, s.players) : null;
    if (flight) {
      const mine = s.legal.some((a) => a.kind === 'dragon');
      out.push(h('section', { class: 'panel current', id: 'dragon-step', 'aria-label': 'The dragon moves', 'data-mover': String(view?.currentPlayer ?? '') }, h('h2', {}, 'The dragon'),
        h('p', { id: 'dragon-mover' }, flight),
        h('p', {}, mine ? 'Click a lit tile next to the dragon: it eats every figure there (ringed in red). It may not go back to a tile of this flight, nor onto the fairy\'s tile.' : 'Wait while the dragon is moved.')));
    }
    const neutrals = view && !flight ? neutralsWords(view, s.players, where) : [];
    if (neutrals.length > 0) out.push(h('section', { class: 'panel', id: 'neutrals', 'aria-label': 'The dragon and the fairy' }, ...neutrals.map((t) => h('p', {}, t))));
    if (portalOpen(s.legal)) {
      out.push(h('section', { class: 'panel', id: 'portal', 'aria-label': 'Magic portal' }, h('h2', {}, 'Magic portal'),
        h('p', {}, 'Your tile has a magic portal: the lit spots anywhere on the board take your follower (an unfinished, unoccupied feature), or place it on this tile as usual.')));
    }
    // Abbey & Mayor: the final abbey round, one turn for each player still holding an abbey.
    if (view?.phase === 'abbey') {
      const mine = s.legal.some((a) => a.kind === 'place');
      out.push(h('section', { class: 'panel current', id: 'abbey-round', 'aria-label': 'The final abbey round' }, h('h2', {}, 'The final abbey round'),
        h('p', {}, mine ? 'The last tile is down: lay your abbey in a lit hole (with a monk if you like), or pass to keep it.' : s.legal.length > 0 ? 'The last tile is down and no hole is closed on four sides: pass.' : 'The last tile is down: players still holding an abbey may lay it.')));
    }
    // The Tower: the capture step after a floor, and the floors offered in the follower step.
    if (view?.phase === 'capture') {
      const mine = s.legal.some((a) => a.kind === 'capture' || a.kind === 'pass');
      const any = s.legal.some((a) => a.kind === 'capture');
      out.push(h('section', { class: 'panel current', id: 'capture-step', 'aria-label': 'The capture step' }, h('h2', {}, 'Capture'),
        h('p', {}, !mine ? 'A floor was placed: its player may capture a follower in the tower\'s reach.' : any ? 'Click a follower ringed in red (in the tower\'s reach) to capture it, or pass.' : 'No follower stands in the tower\'s reach: pass.')));
    } else if (s.legal.some((a) => a.kind === 'tower')) {
      out.push(h('section', { class: 'panel', id: 'tower-floors', 'aria-label': 'Tower floors' }, h('h2', {}, 'Towers'),
        h('p', {}, 'Instead of a figure, click the yellow disc on a lit tower tile to put a floor there (then you may capture), or a spot on top of an open tower to close it with your follower.')));
    }
    // Traders & Builders: the builder's second tile, offered face down on the table (take it or pass).
    const second = view ? secondTile(view.phase, s.legal) : null;
    if (second) out.push(secondTileSection(second, view?.tilesLeft ?? 0, (a) => ctx.send(a)));
    // (Drawing is the pile beside the hand, when there is a hand to show it in; a ransom is a button at the holder's seat.)
    const steps = s.legal.filter((a) => a.kind !== 'place' && a.kind !== 'follower' && a.kind !== 'draft' && !(a.kind === 'draw' && inHand) && !onBoard(a) && a.kind !== 'ransom' && !(second && (a === second.draw || a === second.pass)));
    if (steps.length > 0) {
      out.push(h('section', { class: 'panel', id: 'choices' }, h('h2', {}, 'Choices'), h('div', { class: 'actions' },
        ...steps.map((a) => h('button', { id: a.kind === 'pass' ? 'pass' : undefined, 'data-kind': a.kind, onclick: () => ctx.send(a) }, describeAction(a))))));
    }
    if (s.legal.length > 0) {
      // The keyboard and screen-reader path to every legal move, in words;
      // closed unless the player opened it (and then kept open across moves).
      out.push(h('details', { class: 'panel', id: 'legal-list', open: listOpen, ontoggle: (e: Event) => { if (e.target instanceof HTMLDetailsElement) listOpen = e.target.open; } }, h('summary', {}, `All ${s.legal.length} legal moves, as a list`), h('div', { class: 'actions', role: 'group', 'aria-label': 'Every legal move' },
        ...s.legal.map((a) => h('button', { 'data-kind': a.kind, onclick: () => (a.kind === 'place' ? ctx.preview(a) : ctx.send(a)) }, describeAction(a, where, s.players))))));
    }
    return out;
  };
  return panel;
}
