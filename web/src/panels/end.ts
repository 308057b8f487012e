// The end of the game: the final scoring seen live, one feature after
// another (src/follow.ts), then the summary with the rematch. One section
// of the side panel; its state (the steps shown, the rematch offered) its
// own.

import { rematchGame } from '../api';
import { FLASH_MS, type Board } from '../board';
import { playerColour } from '../colours';
import { errorText, h } from '../dom';
import { finalScoring, gainsBySeat, scoresDuring, type Finale } from '../follow';
import { openCreated } from '../lobby';
import type { Pt } from '../geometry';
import type { ScoreEvent } from '../protocol';
import type { GameState, LogEntry } from '../state';
import { summary } from '../summary';
import { saveToken } from '../tokens';
import { eventText } from './log';

/** What a score event says, as a key: equal keys, the same score. */
function eventKey(e: ScoreEvent): string {
  return JSON.stringify([e.reason, e.feature, e.x, e.y, e.place, e.points]);
}

/**
 * The game's score events less the final scoring's steps not shown yet
 * (the last of each kind: the final scoring ends the list), so that the log
 * tells no more than the animation has.
 */
export function withoutSteps(events: ScoreEvent[], hidden: ScoreEvent[]): ScoreEvent[] {
  const left = new Map<string, number>();
  for (const e of hidden) left.set(eventKey(e), (left.get(eventKey(e)) ?? 0) + 1);
  const out: ScoreEvent[] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (!e) continue;
    const k = eventKey(e);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1); else out.push(e);
  }
  return out.reverse();
}

/** What the end panel needs of the table. */
export interface EndContext {
  game: string;
  token: string | null;
  navigate(path: string): void;
  board: Board;
  /** The tiles of a scored feature (none when it is not on the board). */
  cells(e: ScoreEvent): Promise<Pt[]>;
  /** "+N" at the seats. */
  gain(gains: Map<number, number>, ms?: number): void;
  /** The steps shown changed: the table draws the seats, the log and this panel again. */
  changed(): void;
  /** Something failed that the table shows (a rematch refused). */
  error(text: string): void;
}

export interface EndPanel {
  element: HTMLElement;
  /** Plays the final scoring of the game's last move, step by step. */
  run(entry: LogEntry, players: string[]): void;
  /** Whether the final scoring is still stepping. */
  readonly running: boolean;
  /** The seats' scores while it steps (the final ones otherwise). */
  scores(final: number[]): number[];
  /** The score events the log may show: the final scoring's only once its step is shown. */
  shownEvents(events: ScoreEvent[]): ScoreEvent[];
  /** Someone asked for a rematch: this seat's place in it. */
  offer(o: { game: string; seat: number; token: string }): void;
  update(s: GameState): void;
}

export function endPanel(ctx: EndContext): EndPanel {
  const element = h('div', { class: 'slot', id: 'end-slot' });
  let finale: { steps: Finale['steps']; shown: number } | null = null;
  // The rematch: offered to a seat once the game is over. Someone else's
  // arrives as a `rematch` message with this person's new seat and token.
  let offer: { game: string; seat: number; token: string } | null = null;
  const playOffer = (o: { game: string; seat: number; token: string }): void => {
    saveToken(o.game, o.seat, o.token);
    ctx.navigate(`/play/${o.game}#seat=${o.seat}`);
  };
  const askRematch = (s: GameState): void => {
    if (!ctx.token || s.seat === null) return;
    // Seats turn by one: old seat s is new seat s - 1.
    const mine = (s.seat + s.seats.length - 1) % s.seats.length;
    rematchGame(ctx.game, ctx.token).then((g) => openCreated(g, mine, ctx.navigate)).catch((e: unknown) => {
      if (offer) playOffer(offer);
      else ctx.error(`No rematch: ${errorText(e)}`);
    });
  };
  const rematchButton = (s: GameState): HTMLElement | null => {
    if (s.seat === null || !ctx.token) return null;
    const o = offer;
    return h('p', {}, o ? h('button', { id: 'rematch', type: 'button', onclick: () => playOffer(o) }, 'Play the rematch')
      : h('button', { id: 'rematch', type: 'button', onclick: () => askRematch(s) }, 'Rematch'));
  };
  const finalePanel = (s: GameState, run: { steps: Finale['steps']; shown: number }): HTMLElement =>
    h('section', { class: 'panel', id: 'final-scoring', 'aria-live': 'polite', 'data-shown': run.shown, 'data-steps': run.steps.length }, h('h2', {}, 'Final scoring'),
      h('ol', { class: 'log' }, ...run.steps.slice(0, run.shown).map((st) => h('li', { 'data-final-step': st.index }, eventText(st.event, s.players)))));
  return {
    element,
    get running() { return finale !== null; },
    scores(final) { return finale ? scoresDuring(final, finale.steps, finale.shown) : final; },
    shownEvents(events) {
      return finale ? withoutSteps(events, finale.steps.slice(finale.shown).map((st) => st.event)) : events;
    },
    offer(o) { offer = o; },
    run(entry, players) {
      const reduced = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      const f = finalScoring(entry, reduced);
      if (f.steps.length === 0) return;
      const run = { steps: f.steps, shown: 0 };
      finale = run;
      // Every feature's tiles first (one lookup each, at once), so that each step lights at its time.
      void Promise.all(f.steps.map((st) => ctx.cells(st.event))).then((cells) => {
        // Each step stays lit until the result, and a moment after it.
        const hold = (at: number): number => Math.max(FLASH_MS, f.resultAt - at + FLASH_MS);
        for (const st of f.steps) {
          window.setTimeout(() => {
            if (finale !== run) return;
            const seat = st.event.points.findIndex((p) => p > 0);
            ctx.board.flashCells(cells[st.index] ?? [], playerColour(players[seat] ?? '', seat), hold(st.at), st.index);
            ctx.board.flash(st.gains.filter((g) => g.x !== null && g.y !== null).map((g) => ({ x: g.x ?? 0, y: g.y ?? 0, text: `+${g.points}`, colour: playerColour(players[g.seat] ?? '', g.seat), seat: g.seat })), hold(st.at), st.index);
            run.shown = Math.max(run.shown, st.index + 1);
            ctx.gain(gainsBySeat(run.steps.slice(0, run.shown).flatMap((x) => x.gains)), f.resultAt - st.at + FLASH_MS);
            ctx.changed();
          }, st.at);
        }
        // Then the result: the end panel in place of the steps.
        window.setTimeout(() => {
          if (finale !== run) return;
          finale = null;
          // The final board is seen plain: the steps' "+N" and lit tiles fade.
          ctx.board.clearEffects();
          ctx.gain(gainsBySeat(run.steps.flatMap((x) => x.gains)), FLASH_MS);
          ctx.changed();
        }, f.resultAt);
      });
    },
    update(s) {
      const view = s.view;
      const over = view && (s.status === 'finished' || s.status === 'resigned');
      element.replaceChildren(...(over ? [finale ? finalePanel(s, finale) : summary(view, s.resigned, rematchButton(s))] : []));
    },
  };
}
