// The game table: board, current tile with rotation, legal cells, preview
// with confirm/undo, follower spots, every other legal action as a button,
// players, log and the end-of-game summary.

import { earlyTiles, featureInfo, mapInfo, rematchGame, startGame, tileUrl, type FeatureInfo, type MapInfo } from './api';
import { Board, FLASH_MS, TILE_DRAG, figureIcon } from './board';
import { isSchematic, setSchematic } from './art';
import { FIRST_TURN_HINT, hintSeen, markHintSeen, rulesFor } from './rules';
import { playerColour, playerMark } from './colours';
import { playerLink } from './account';
import { chatPanel, replaceKeeping } from './chat';
import { errorText, h } from './dom';
import { nextRotation } from './geometry';
import { connect, type Connection, type ConnectionState } from './net';
import { serverPage } from './page';
import { ROTATIONS, actionMessage, capitalise, figureName, type Action, type FeatureRef, type Rotation, type ScoreEvent } from './protocol';
import { isMyTurn, reduce, scoringEvents, type GameState, type LogEntry } from './state';
import { openCreated } from './lobby';
import { formatClock, seatClocks } from './clock';
import { botThinking, fetchHistory, finalScoring, gains, gainsBySeat, hasGap, isFinalMove, lastTiles, mergeLog, scoresDuring, type Finale } from './follow';
import { summary } from './summary';
import { saveToken } from './tokens';
import { LOST, onPlayed, onRefused, onWelcome, RATE_RETRY_MS, type Unacked } from './unacked';
import { shouldStart, waitingRoom } from './waiting';
import { boardMarks, choose, draftTiles, keepPick, onBoard, refKey, type CityArea, type Mark, type Pick } from './picks';
import { chipsByColour, chipsWords, describeAction, halvesWords, isHalf, rotationWords, seatKindWords, statusWords, tileLine, tileWords } from './words';

type Place = Extract<Action, { kind: 'place' }>;

export interface Ui { tile: string | null; rotation: Rotation; pending: Place | null; highlight: { x: number; y: number }[]; figure: string | null; pick: Pick | null; listOpen: boolean }

/** The figures a follower may be placed as now, the normal follower first (`null`; `big` is the large follower). */
export function figuresOffered(legal: Action[]): (string | null)[] {
  const out = [...new Set(legal.flatMap((a) => (a.kind === 'follower' ? [a.figure] : [])))];
  return out.sort((a, b) => (a === null ? -1 : b === null ? 1 : a.localeCompare(b)));
}

/** The actions drawn as follower spots on the board: the followers of the chosen figure (the gingerbread man's cities, flights, fleas and trades are marks: src/picks.ts). */
export function spotsFor(legal: Action[], figure: string | null): Action[] {
  return legal.filter((a) => a.kind === 'follower' && a.figure === figure);
}

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

/** The next rotation with a legal placement (or simply the next one when none has). */
export function rotateToNext(legal: Action[], tile: string | null, r: Rotation): Rotation {
  let next = nextRotation(r, ROTATIONS);
  for (let i = 0; i < 4 && targetsFor(legal, tile, next).length === 0; i++) next = nextRotation(next, ROTATIONS);
  return targetsFor(legal, tile, next).length > 0 ? next : nextRotation(r, ROTATIONS);
}

export function featureText(f: FeatureInfo, players: string[]): string {
  const owners = f.followers.map((n, i) => (n > 0 ? `${players[i] ?? i} ${n}` : '')).filter((x) => x).join(', ');
  const state = f.kind === 'city' || f.kind === 'road' ? (f.complete ? 'complete' : 'open') : '';
  const extra = f.kind === 'city' && f.extra > 0 ? `, ${f.extra} coat${f.extra > 1 ? 's' : ''} of arms` : f.kind === 'field' ? `, ${f.extra} completed cit${f.extra === 1 ? 'y' : 'ies'}` : '';
  return `${f.kind}${state ? ` (${state})` : ''}: ${f.tiles} tile${f.tiles === 1 ? '' : 's'}${extra}, worth ${f.points} now; ${owners ? `followers: ${owners}` : 'no followers'}`;
}

const MOVES_SHOWN = 80;

/** A move in the log: who did what, a follower with its picture (the large one bigger); a follower's move highlights its feature. */
export function moveText(m: LogEntry, players: string[]): string {
  return `${players[m.seat] ?? `seat ${m.seat}`}: ${describeAction(m.action)}`;
}

function moveItem(m: LogEntry, players: string[], show: (ref: FeatureRef) => void): HTMLLIElement {
  const a = m.action;
  const text = moveText(m, players);
  if (a.kind !== 'follower') return h('li', { 'data-kind': a.kind }, text);
  return h('li', { 'data-kind': a.kind, 'data-figure': a.figure ?? '', class: a.figure ? 'move-big' : '' },
    h('button', { onclick: () => show(a.at) }, figureIcon(a.figure, playerColour(players[m.seat] ?? '', m.seat), playerMark(m.seat)), ` ${text}`));
}

function eventText(e: ScoreEvent, players: string[]): string {
  const pts = e.points.map((p, i) => (p ? `${players[i] ?? i} +${p}` : '')).filter((s) => s).join(', ');
  const where = e.x !== null && e.y !== null ? ` at (${e.x}, ${e.y})` : '';
  return `${e.reason}${e.feature ? ` ${e.feature}` : ''}${where}${pts ? `: ${pts}` : ''}`;
}

/**
 * A button that folds the side panel away and back. Only a phone shows it
 * (style.css): there the panel lies under the board, and folded the board
 * takes the whole screen.
 */
function foldablePanel(side: HTMLElement): void {
  const layout = side.parentElement;
  if (!layout) return;
  side.id = 'side-panel';
  const toggle = h('button', { class: 'panel-toggle', id: 'panel-toggle', type: 'button', 'aria-controls': 'side-panel', 'aria-expanded': 'true' }, 'Hide panel ▾');
  toggle.addEventListener('click', () => {
    const hidden = layout.classList.toggle('panel-hidden');
    toggle.setAttribute('aria-expanded', String(!hidden));
    toggle.textContent = hidden ? 'Show panel ▴' : 'Hide panel ▾';
  });
  layout.insertBefore(toggle, side);
}

export function table(root: HTMLElement, game: string, token: string | null, navigate: (path: string) => void): () => void {
  let state: GameState | null = null;
  let conn: ConnectionState = 'connecting';
  let map: MapInfo | null = null;
  const ui: Ui = { tile: null, rotation: 0, pending: null, highlight: [], figure: null, pick: null, listOpen: false };
  // The moves before this page opened, from the server's log (src/follow.ts): the history survives a reload.
  let history: LogEntry[] = [];
  // "+N" at the seat panels for a moment after a score.
  let seatGains = new Map<number, number>();
  let gainTimer: number | undefined;
  const showScore = (entry: LogEntry, fallback: { x: number; y: number } | null): void => {
    const gs = gains(entry, fallback);
    if (gs.length === 0 || !state) return;
    const players = state.players;
    board.flash(gs.filter((g) => g.x !== null && g.y !== null).map((g) => ({ x: g.x ?? 0, y: g.y ?? 0, text: `+${g.points}`, colour: playerColour(players[g.seat] ?? '', g.seat), seat: g.seat })));
    // The scored features' tiles lit in the scorer's colour (the engine's feature lookup, as for hovering).
    const lit = new Set<string>();
    for (const e of entry.events) {
      const seat = e.points.findIndex((p) => p > 0);
      if (seat < 0 || e.x === null || e.y === null || !e.place) continue;
      const key = `${e.x},${e.y},${e.place},${typeof e.raw.half === 'string' ? e.raw.half : ''}`;
      if (lit.has(key)) continue;
      lit.add(key);
      const colour = playerColour(players[seat] ?? '', seat);
      featureInfo(game, { x: e.x, y: e.y, place: e.place, half: typeof e.raw.half === 'string' ? e.raw.half : null })
        .then((f) => board.flashCells(f.cells.map(([x, y]) => ({ x, y })), colour)).catch(() => undefined);
    }
    seatGains = gainsBySeat(gs);
    window.clearTimeout(gainTimer);
    gainTimer = window.setTimeout(() => { seatGains = new Map(); draw(); }, 2600);
  };
  // The final scoring seen live, step by step (src/follow.ts): while it
  // runs, the steps shown so far stand where the end panel will.
  let finale: { steps: Finale['steps']; shown: number } | null = null;
  const featureCells = (e: ScoreEvent): Promise<{ x: number; y: number }[]> => {
    if (e.x === null || e.y === null || !e.place) return Promise.resolve([]);
    return featureInfo(game, { x: e.x, y: e.y, place: e.place, half: typeof e.raw.half === 'string' ? e.raw.half : null })
      .then((f) => f.cells.map(([x, y]) => ({ x, y })), () => []);
  };
  const runFinale = (entry: LogEntry): void => {
    const reduced = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const f = finalScoring(entry, reduced);
    if (f.steps.length === 0 || !state) return;
    const players = state.players;
    const run = { steps: f.steps, shown: 0 };
    finale = run;
    // Every feature's tiles first (one lookup each, at once), so that each step lights at its time.
    void Promise.all(f.steps.map((st) => featureCells(st.event))).then((cells) => {
      // Each step stays lit until the result, and a moment after it.
      const hold = (at: number): number => Math.max(FLASH_MS, f.resultAt - at + FLASH_MS);
      for (const st of f.steps) {
        window.setTimeout(() => {
          if (finale !== run) return;
          const seat = st.event.points.findIndex((p) => p > 0);
          board.flashCells(cells[st.index] ?? [], playerColour(players[seat] ?? '', seat), hold(st.at), st.index);
          board.flash(st.gains.filter((g) => g.x !== null && g.y !== null).map((g) => ({ x: g.x ?? 0, y: g.y ?? 0, text: `+${g.points}`, colour: playerColour(players[g.seat] ?? '', g.seat), seat: g.seat })), hold(st.at), st.index);
          seatGains = gainsBySeat(run.steps.slice(0, st.index + 1).flatMap((x) => x.gains));
          run.shown = Math.max(run.shown, st.index + 1);
          draw();
        }, st.at);
      }
      // Then the result: the end panel in place of the steps.
      window.setTimeout(() => {
        if (finale !== run) return;
        finale = null;
        window.clearTimeout(gainTimer);
        gainTimer = window.setTimeout(() => { seatGains = new Map(); draw(); }, FLASH_MS);
        draw();
      }, f.resultAt);
    });
  };
  const finalePanel = (s: GameState, run: { steps: Finale['steps']; shown: number }): HTMLElement =>
    h('section', { class: 'panel', id: 'final-scoring', 'aria-live': 'polite', 'data-shown': run.shown, 'data-steps': run.steps.length }, h('h2', {}, 'Final scoring'),
      h('ol', { class: 'log' }, ...run.steps.slice(0, run.shown).map((st) => h('li', { 'data-final-step': st.index }, eventText(st.event, s.players)))));
  // The server drew the board into this page: take it over, start from
  // the state it embedded (the public view), and let the WebSocket's
  // welcome update it.
  const page = serverPage(root, game);
  const wrap = page?.svg.closest('.boardwrap') ?? h('div', { class: 'boardwrap' });
  const side = page?.side ?? h('aside', { class: 'side', 'aria-label': 'Game panel' });
  if (!page || !(wrap instanceof HTMLElement)) root.replaceChildren(h('div', { class: 'layout' }, wrap, side));
  foldablePanel(side);
  // Whether this connection's welcome came: until then a (re)connection
  // asks for everything (`since` null), as the page's state is a
  // spectator's and a seat needs its own view and legal moves.
  let welcomed = false;
  // The last action sent, until the server answers (src/unacked.ts): its
  // legal moves come back if it is refused, and a reconnect re-sends or
  // reports it.
  let unacked: Unacked | null = null;
  const send = (a: Action): void => {
    if (!state) return;
    // The first placement: the first turn's hint has done its work.
    if (a.kind === 'place') markHintSeen();
    // A closed socket drops it: the reconnect's welcome then re-sends it.
    socket.send(actionMessage(a, state.version));
    unacked = { action: a, version: state.version, legal: state.legal, resent: false };
    ui.pending = null;
    ui.pick = null;
    // Nothing is legal until the server answers: no double sends.
    state = { ...state, legal: [] };
    draw();
  };
  // Feature details by "version x y place half": the board only changes with the version.
  const features = new Map<string, Promise<FeatureInfo>>();
  const info = h('p', { id: 'feature-info', 'aria-live': 'polite', class: 'status' });
  const showFeature = (ref: { x: number; y: number; place: string; half: string | null } | null): void => {
    if (!ref || !state) { board.setHighlight(ui.highlight); info.textContent = ''; return; }
    const key = `${state.version} ${ref.x} ${ref.y} ${ref.place} ${ref.half ?? ''}`;
    let p = features.get(key);
    if (!p) { p = featureInfo(game, ref); features.set(key, p); }
    const players = state.players;
    p.then((f) => {
      board.setHighlight(f.cells.map(([x, y]) => ({ x, y })));
      info.textContent = featureText(f, players);
    }).catch(() => { info.textContent = ''; });
  };
  const boardRoot = wrap instanceof HTMLElement ? wrap : root;
  const board = new Board(boardRoot, {
    onFeature: showFeature,
    onTarget: (a) => { ui.pending = a; draw(); (side.querySelector('#confirm') as HTMLButtonElement | null)?.focus(); },
    onSpot: (a) => send(a),
    onMark: (m: Mark) => {
      if (!state) return;
      const next = choose(state.legal, ui.pick, m);
      ui.pick = next.pick;
      if (next.send) { send(next.send); return; }
      draw();
      // The keyboard goes on to what completes the choice (the board was drawn anew), or back to the mark.
      const el = boardRoot.querySelector(ui.pick ? '.mark-flee-to, .mark-flea-from, .chip-popover .chip-btn' : '.mark');
      if (el instanceof HTMLElement || el instanceof SVGElement) el.focus();
    },
    onBackground: () => { if (ui.pick) { ui.pick = null; draw(); } },
  }, page ?? undefined);
  // The board's pictures, asked for by index.html while this script loaded.
  const early = earlyTiles(game);
  if (early) board.preload(early);

  // The tiles of each city the gingerbread man may go to, asked of the server once per version (the board lights them).
  const cityCells = new Map<string, [number, number][]>();
  const citiesFor = (marks: Mark[], version: number): CityArea[] => marks.flatMap((m): CityArea[] => {
    if (m.kind !== 'ginger-city') return [];
    const key = `${version} ${refKey(m.ref)}`;
    const cells = cityCells.get(key);
    if (!cells) {
      cityCells.set(key, []);
      featureInfo(game, m.ref).then((f) => { cityCells.set(key, f.cells); if (state?.version === version) draw(); }).catch(() => undefined);
    }
    return [{ mark: m, cells: cells ?? [] }];
  });
  const squareName = (x: number, y: number): string => {
    const c = map?.chumak.find((q) => q.x === x && q.y === y);
    return c ? `the Chumak square ${c.name}` : `the Chumak square at (${x}, ${y})`;
  };
  const chooseFigure = (f: string | null): void => {
    ui.figure = f;
    draw();
    // The panel was drawn again: keep the keyboard where it was.
    (side.querySelector(`#figure-${f ?? 'normal'}`) as HTMLButtonElement | null)?.focus();
  };
  // A tile dragged to the board: the board shows its cells, the panel
  // stays as it is until the drag ends (redrawing it would end the drag).
  let dragging = false;
  const dragTile = (t: string) => (e: Event): void => {
    if (!(e instanceof DragEvent) || !e.dataTransfer || !state) return;
    e.dataTransfer.setData(TILE_DRAG, t);
    e.dataTransfer.effectAllowed = 'move';
    if (ui.tile !== t) { ui.tile = t; ui.rotation = rotateToNext(state.legal, t, 270); }
    ui.pending = null;
    dragging = true;
    draw();
  };
  const dragEnd = (): void => {
    dragging = false;
    draw();
    if (ui.pending) (side.querySelector('#confirm') as HTMLButtonElement | null)?.focus();
  };
  // A timed game's clock at each seat (src/clock.ts), counting down for the seat to act; the ticker below rewrites only these.
  const clockSpan = (s: GameState, seat: number): HTMLElement | null => {
    if (!s.clock) return null;
    const c = seatClocks(s.clock, s.players.length, Date.now())[seat];
    if (!c || (c.ms === null && !c.running)) return null;
    const running = c.running && s.status === 'playing';
    return h('span', { class: `clock${running ? ' clock-running' : ''}${running && c.low ? ' clock-low' : ''}`, 'data-seat': seat, 'data-ms': c.ms ?? '', role: 'timer', 'aria-label': `${s.players[seat] ?? ''}'s time: ${formatClock(c.ms ?? 0)}` }, formatClock(c.ms ?? 0));
  };
  const tick = window.setInterval(() => {
    const s = state;
    if (!s?.clock || s.status !== 'playing') return;
    for (const c of seatClocks(s.clock, s.players.length, Date.now())) {
      if (!c.running || c.ms === null) continue;
      const span = side.querySelector(`.clock[data-seat="${c.seat}"]`);
      if (!(span instanceof HTMLElement)) continue;
      span.textContent = formatClock(c.ms);
      span.dataset.ms = String(c.ms);
      span.classList.toggle('clock-low', c.low);
    }
  }, 200);
  // "How to play": a card for the base game and each expansion of this game (src/rules.ts).
  const rules = h('dialog', { id: 'rules', class: 'rules', 'aria-labelledby': 'rules-title' });
  root.appendChild(rules);
  const openRules = (s: GameState): void => {
    rules.replaceChildren(h('h2', { id: 'rules-title' }, 'How to play'),
      ...rulesFor(s.config).map((c) => h('section', { class: 'rules-card', 'data-set': c.id }, h('h3', {}, c.title), h('ul', {}, ...c.lines.map((l) => h('li', {}, l))))),
      h('form', { method: 'dialog' }, h('button', { id: 'rules-close', type: 'submit' }, 'Close')));
    rules.showModal();
  };
  // The panel's tiles drawn as the board draws them (its pictures, with the
  // tile art unless the schematic tiles are chosen); the server's image
  // until the board has the picture, then the panel is drawn again.
  const asked = new Set<string>();
  const picture = (t: string, r: Rotation): string => {
    const art = board.tilePicture(t, r, !isSchematic());
    if (art) return art;
    if (!asked.has(t)) {
      asked.add(t);
      board.want(ROTATIONS.map((rotation) => ({ tile: t, rotation })))?.then(() => { if (state) draw(); }, () => undefined);
    }
    return tileUrl(t, r);
  };
  const draw = (): void => {
    const s = state;
    if (!s) { side.replaceChildren(h('p', { role: 'status' }, `Connecting to game ${game}…`)); return; }
    const places = placeableTiles(s.legal);
    if (ui.tile === null || !places.includes(ui.tile)) {
      ui.tile = places[0] ?? null;
      ui.pending = null;
      if (ui.tile && targetsFor(s.legal, ui.tile, ui.rotation).length === 0) ui.rotation = rotateToNext(s.legal, ui.tile, ui.rotation);
    }
    const figures = figuresOffered(s.legal);
    if (!figures.includes(ui.figure)) ui.figure = figures[0] ?? null;
    const view = s.view;
    ui.pick = keepPick(s.legal, ui.pick);
    if (view) {
      // While a flight, a flea's move or a trade is half made, only what completes it is lit.
      const spots = ui.pick ? [] : spotsFor(s.legal, ui.figure);
      const marks = ui.pending ? [] : boardMarks(s.legal, ui.pick, squareName);
      const lasts = lastTiles(mergeLog(history, s.log)).map((t) => ({ ...t, colour: playerColour(s.players[t.seat] ?? '', t.seat) }));
      void board.render({ view, map, lastTiles: lasts, cities: citiesFor(marks, s.version), targets: ui.pending || ui.pick ? [] : targetsFor(s.legal, ui.tile, ui.rotation), preview: ui.pending, spots, marks, highlight: ui.highlight, version: s.version });
    }
    const thinking = botThinking(s.status, view?.currentPlayer ?? null, s.seats);
    // During the final scoring each seat's score climbs with its steps (src/follow.ts).
    const scores = finale ? scoresDuring(view?.scores ?? [], finale.steps, finale.shown) : view?.scores ?? [];
    const players = h('ul', { class: 'players', 'aria-label': 'Players and scores' }, ...s.players.map((name, i) => {
      const seat = s.seats[i];
      const turn = view?.currentPlayer === i && s.status === 'playing';
      const big = view?.bigFollowers ? (view.bigFollowers[i] ?? false) : null;
      // Half-and-half and Map Chips: one's own hand is shown in full elsewhere (halves) or here (chips by colour), others' as counts.
      const halves = view?.halves?.[i];
      const chips = view?.chipHands?.[i];
      const hands = [halves ? halvesWords(halves) : '', chips ? chipsWords(chips) : ''].filter((x) => x);
      return h('li', { class: turn ? 'turn' : '', 'aria-label': `${name}${i === s.seat ? ' (you)' : ''}: ${scores[i] ?? 0} points, ${view?.supply[i] ?? 0} followers left${big === null ? '' : big ? ' and the large follower' : ', the large follower on the board'}${hands.length ? `, ${hands.join(', ')}` : ''}, ${seat ? seatKindWords(seat.kind) : ''}${seat?.joined ? '' : ', not joined'}${turn ? ', to play' : ''}`, 'data-seat': i },
        h('span', { class: 'swatch', style: `background:${playerColour(name, i)}`, 'aria-hidden': 'true' }, playerMark(i)),
        h('span', { class: 'pname' }, `${name}${i === s.seat ? ' (you)' : ''}`),
        seat?.player ? h('span', { class: 'paccount' }, ' ', playerLink(seat.player, navigate)) : null,
        h('span', { class: 'score', 'data-score': scores[i] ?? 0 }, String(scores[i] ?? 0)),
        clockSpan(s, i),
        thinking === i ? h('span', { class: 'thinking', 'data-seat': i, title: `${seat ? `the ${seatKindWords(seat.kind)}` : 'the bot'} is choosing its move` }, h('span', { class: 'thinking-dots', 'aria-hidden': 'true' }, '•••'), ' thinking') : null,
        seatGains.has(i) ? h('span', { class: 'seat-gain', 'data-gain': seatGains.get(i) ?? 0, 'aria-hidden': 'true' }, `+${seatGains.get(i) ?? 0}`) : null,
        h('span', { class: 'pinfo' }, `· ${view?.supply[i] ?? 0}${big ? ' + large' : ''} left · ${seat ? seatKindWords(seat.kind) : ''}${seat?.kind === 'human' ? (seat.joined ? ' · joined' : ' · not joined') : ''}`),
        halves ? h('span', { class: 'hand-count', 'data-halves': 'hidden' in halves ? halves.hidden : halves.tiles.length }, `· ${halvesWords(halves)}`) : null,
        chips ? h('span', { class: 'chip-hand', 'data-chips': 'hidden' in chips ? chips.hidden : chips.chips.length },
          ...('hidden' in chips ? [`· ${chipsWords(chips)}`] : chips.chips.length === 0 ? ['· no chips'] : chipsByColour(chips.chips).map(([c, vs]) => h('span', { class: `chip-pill chip-${c.replace(/[^a-z]/gi, '')}`, title: `${c} ${vs.join(', ')}` }, vs.join('+'))))) : null);
    }));
    const mine = isMyTurn(s);
    // The tab's title tells a player in another tab that it is their turn.
    document.title = `${mine ? '▶ Your turn — ' : ''}Bastide ${game}`;
    const status = `${s.status === 'playing' ? (mine ? 'Your turn' : `${s.players[view?.currentPlayer ?? 0] ?? ''} ${thinking !== null ? `(${seatKindWords(s.seats[thinking]?.kind ?? 'bot')}) is thinking` : 'to play'}`) : statusWords(s.status)} · ${view?.tilesLeft ?? 0} tiles left · ${conn === 'open' ? 'connected' : 'reconnecting…'}`;
    const panels: HTMLElement[] = [h('section', { class: 'panel' }, h('h2', {}, `Game ${game}`), h('p', { class: 'status', role: 'status', id: 'status', 'data-status': s.status, 'data-mine': String(mine), 'data-version': s.version }, status), players, info,
      h('p', {}, h('button', { onclick: () => board.refit() }, 'Fit board (F)'), ' ',
        h('button', { id: 'how-to-play', type: 'button', 'aria-haspopup': 'dialog', onclick: () => openRules(s) }, 'How to play'), ' ',
        h('button', { id: 'schematic', type: 'button', 'aria-pressed': String(isSchematic()), title: 'Plain flat tiles instead of the drawn ones', onclick: () => { setSchematic(!isSchematic()); draw(); } }, 'Schematic tiles'), ' ', h('a', { href: `/api/games/${game}/record`, download: `bastide-${game}.json` }, 'record'), ' ', h('a', { href: `/replay/${game}` }, 'replay')))];
    if (s.error) panels.push(h('p', { class: 'error', role: 'alert' }, s.error));
    // The first turn's hint, once per browser: until it is dismissed or the first tile is placed.
    if (mine && ui.tile && !hintSeen()) {
      panels.push(h('section', { class: 'panel hint', id: 'first-hint', role: 'note', 'aria-label': 'How to take your turn' }, h('p', {}, FIRST_TURN_HINT),
        h('button', { id: 'hint-ok', type: 'button', onclick: () => { markHintSeen(); draw(); } }, 'Got it'), ' ',
        h('button', { id: 'hint-rules', type: 'button', onclick: () => openRules(s) }, 'How to play')));
    }
    if (s.timeout !== null) panels.push(h('p', { class: 'status', id: 'timeout' }, `${s.players[s.timeout] ?? `Seat ${s.timeout}`} ran out of time.`));
    const own = s.seat !== null ? view?.halves?.[s.seat] : undefined;
    const hand = handTiles(places, own && 'tiles' in own ? own.tiles : []);
    const pickTile = (t: string): void => { ui.tile = t; ui.pending = null; ui.rotation = rotateToNext(s.legal, t, 270); draw(); (side.querySelector(`.hand button[data-tile="${CSS.escape(t)}"]`) as HTMLButtonElement | null)?.focus(); };
    // The hand as pictures (the server's drawing of each tile, as on the
    // board): the one chosen in its rotation; halves that wait for the
    // player's turn are shown, not offered.
    const handGroup = hand.length > 1 || hand.some(isHalf) ? h('div', { class: 'hand', role: 'group', 'aria-label': places.length > 0 ? 'Choose a tile' : 'Your halves, for your turn' },
      ...hand.map((t) => {
        const can = places.includes(t);
        const chosen = t === ui.tile;
        return h('button', { type: 'button', 'data-tile': t, 'aria-pressed': String(chosen), disabled: can ? undefined : 'disabled', 'aria-label': `${tileWords(t)}${can ? '' : ' (for your turn)'}`, onclick: () => pickTile(t) },
          h('img', { src: picture(t, chosen ? ui.rotation : 0), alt: '', width: 56, height: 56, draggable: can ? 'true' : 'false', ondragstart: can ? dragTile(t) : undefined, ondragend: can ? dragEnd : undefined }));
      }),
      // Half-and-half: drawing instead of playing a half is the pile beside the hand, face down.
      ...s.legal.filter((a) => a.kind === 'draw').slice(0, 1).map((a) => h('button', { type: 'button', id: 'draw-pile', class: 'draw-pile', 'data-kind': 'draw', 'aria-label': `Draw a tile instead (${view?.tilesLeft ?? 0} left)`, title: 'Draw a tile instead of playing a half', onclick: () => send(a) },
        h('span', { class: 'pile-face', 'aria-hidden': 'true' }, '?'), h('span', { class: 'pile-count', 'aria-hidden': 'true' }, String(view?.tilesLeft ?? 0))))) : null;
    if (ui.tile) {
      const tile = ui.tile;
      const fits = targetsFor(s.legal, tile, ui.rotation).length;
      panels.push(h('section', { class: 'panel current', 'aria-label': 'Tile to place' }, h('h2', {}, handGroup ? 'Your tiles' : 'Your tile'),
        handGroup,
        h('img', { src: picture(tile, ui.rotation), alt: `${tileWords(tile)}, ${rotationWords(ui.rotation)}`, id: 'current-tile', 'data-tile': tile, 'data-rotation': ui.rotation, draggable: 'true', ondragstart: dragTile(tile), ondragend: dragEnd, title: 'Click to turn it, or drag it onto a marked cell', onclick: () => { ui.rotation = rotateToNext(s.legal, tile, ui.rotation); ui.pending = null; draw(); } }),
        h('p', { id: 'tile-line' }, tileLine(tile, ui.rotation, fits)),
        h('button', { id: 'rotate', onclick: () => { ui.rotation = rotateToNext(s.legal, tile, ui.rotation); ui.pending = null; draw(); } }, 'Rotate (R)')));
    } else {
      if (view?.drawn && s.status === 'playing') panels.push(h('section', { class: 'panel current' }, h('h2', {}, 'Drawn tile'), h('img', { src: picture(view.drawn, 0), alt: tileWords(view.drawn) })));
      if (handGroup && s.status === 'playing') panels.push(h('section', { class: 'panel current', 'aria-label': 'Your halves' }, h('h2', {}, 'Your halves'), handGroup));
    }
    if (ui.pending) {
      const p = ui.pending;
      panels.push(h('section', { class: 'panel', 'aria-label': 'Confirm the placement' }, h('p', {}, describeAction(p)),
        h('button', { id: 'confirm', onclick: () => send(p) }, 'Confirm (Enter)'), ' ',
        h('button', { id: 'undo', onclick: () => { ui.pending = null; draw(); } }, 'Undo (Esc)')));
    }
    if (figures.length > 1) {
      // Both figures may go on the board: the markers place the chosen one.
      const me = s.seat ?? view?.currentPlayer ?? 0;
      const colour = playerColour(s.players[me] ?? '', me);
      panels.push(h('section', { class: 'panel', 'aria-label': 'Figure to place' }, h('h2', {}, 'Figure'),
        h('div', { class: 'figures', role: 'group', 'aria-label': 'Choose the figure the marked places take (L switches)' },
          ...figures.map((f) => h('button', { id: `figure-${f ?? 'normal'}`, 'data-figure': f ?? '', 'aria-pressed': String(f === ui.figure), onclick: () => chooseFigure(f) },
            figureIcon(f, colour, playerMark(me)), ` ${capitalise(figureName(f))}${f === 'big' ? ' (L)' : ''}`)))));
    }
    const draft = draftTiles(s.legal);
    if (draft.length > 0) {
      // The Half-and-half draft: the halves in the pool as pictures, one click takes one.
      panels.push(h('section', { class: 'panel current', id: 'draft', 'aria-label': 'Take a half' }, h('h2', {}, 'Take a half'),
        h('div', { class: 'hand draft' }, ...draft.map((d) => h('button', { type: 'button', 'data-tile': d.tile, 'data-kind': 'draft', 'aria-label': describeAction(d.action), title: describeAction(d.action), onclick: () => send(d.action) },
          h('img', { src: picture(d.tile, 0), alt: '', width: 56, height: 56 }))))));
    }
    // (Drawing is the pile beside the hand, when there is a hand to show it in.)
    const steps = s.legal.filter((a) => a.kind !== 'place' && a.kind !== 'follower' && a.kind !== 'draft' && !(a.kind === 'draw' && handGroup) && !onBoard(a));
    if (steps.length > 0) {
      panels.push(h('section', { class: 'panel', id: 'choices' }, h('h2', {}, 'Choices'), h('div', { class: 'actions' },
        ...steps.map((a) => h('button', { id: a.kind === 'pass' ? 'pass' : undefined, 'data-kind': a.kind, onclick: () => send(a) }, describeAction(a))))));
    }
    if (s.legal.length > 0) {
      // The keyboard and screen-reader path to every legal action, in words;
      // closed unless the player opened it (and then kept open across moves).
      panels.push(h('details', { class: 'panel', id: 'legal-list', open: ui.listOpen, ontoggle: (e: Event) => { if (e.target instanceof HTMLDetailsElement) ui.listOpen = e.target.open; } }, h('summary', {}, `All ${s.legal.length} legal moves, as a list`), h('div', { class: 'actions', role: 'group', 'aria-label': 'Every legal move' },
        ...s.legal.map((a) => h('button', { 'data-kind': a.kind, onclick: () => (a.kind === 'place' ? (ui.tile = a.tile, ui.rotation = a.rotation, ui.pending = a, draw()) : send(a)) }, describeAction(a))))));
    }
    if (view && (s.status === 'finished' || s.status === 'resigned')) panels.push(finale ? finalePanel(s, finale) : summary(view, s.resigned, rematchButton(s)));
    const events = scoringEvents(view?.events ?? []);
    panels.push(h('section', { class: 'panel' }, h('h2', {}, `Log (${events.length} scores)`), h('ol', { class: 'log', 'aria-label': 'Scoring events', reversed: true },
      ...events.slice().reverse().map((e) => h('li', {}, h('button', { onclick: () => { if (e.x !== null && e.y !== null && e.place) showFeature({ x: e.x, y: e.y, place: e.place, half: typeof e.raw.half === 'string' ? e.raw.half : null }); } }, eventText(e, s.players)))))));
    const moves = mergeLog(history, s.log);
    if (moves.length > 0) {
      panels.push(h('section', { class: 'panel', id: 'moves' }, h('h2', {}, `Moves (${moves.length})`), h('ol', { class: 'log moves', 'aria-label': 'Moves, newest first', reversed: true },
        ...moves.slice(-MOVES_SHOWN).reverse().map((m) => moveItem(m, s.players, showFeature)))));
    }
    if (s.status === 'open') panels.splice(1, 0, waitingRoom(s, { game, token, start, copied, copy, gone, toLobby: () => navigate('/') }));
    if (s.seat !== null && token && s.status === 'playing') panels.push(h('button', { onclick: () => { if (confirm('Resign this game?')) socket.send({ resign: {} }); } }, 'Resign'));
    if (!dragging) replaceKeeping(side, chat.element, panels);
  };

  // The waiting room (src/waiting.ts): starting, once; the invite copied last.
  let startAsked = false;
  const start = (): void => {
    if (!token || startAsked) return;
    startAsked = true;
    startGame(game, token).catch((e: unknown) => {
      startAsked = false;
      // Someone else's start is no failure: their status message says so.
      if (state && state.status === 'open') { state = { ...state, error: `Could not start: ${errorText(e)}` }; draw(); }
    });
  };
  // The server's sentence once the game is gone (an open game expired): the waiting room says it.
  let gone: string | null = null;
  let copied: { seat: number; text: string } | null = null;
  const copy = (seat: number, link: string): void => {
    const done = (text: string): void => { copied = { seat, text }; draw(); };
    // Without the clipboard (refused, or an insecure page), the link to copy by hand.
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!clipboard) { done(link); return; }
    clipboard.writeText(link).then(() => done('copied'), () => done(link));
  };

  // The rematch: offered to a seat once the game is over. Someone else's
  // arrives as a `rematch` message with this person's new seat and token.
  let offer: { game: string; seat: number; token: string } | null = null;
  const playOffer = (o: { game: string; seat: number; token: string }): void => {
    saveToken(o.game, o.seat, o.token);
    navigate(`/play/${o.game}#seat=${o.seat}`);
  };
  const askRematch = (s: GameState): void => {
    if (!token || s.seat === null) return;
    // Seats turn by one: old seat s is new seat s - 1.
    const mine = (s.seat + s.seats.length - 1) % s.seats.length;
    rematchGame(game, token).then((g) => openCreated(g, mine, navigate)).catch((e: unknown) => {
      if (offer) playOffer(offer);
      else if (state) { state = { ...state, error: `No rematch: ${errorText(e)}` }; draw(); }
    });
  };
  const rematchButton = (s: GameState): HTMLElement | null => {
    if (s.seat === null || !token) return null;
    const o = offer;
    return h('p', {}, o ? h('button', { id: 'rematch', type: 'button', onclick: () => playOffer(o) }, 'Play the rematch')
      : h('button', { id: 'rematch', type: 'button', onclick: () => askRematch(s) }, 'Rematch'));
  };

  const needMap = (): void => {
    const name = typeof state?.config.map === 'string' ? state.config.map : null;
    if (name && !map) void mapInfo(name).then((mi) => { map = mi; draw(); });
  };
  // The history once at the start, and again after a reconnect if the first try failed (a server down at load).
  // (At most three times a page: a server that cannot give it is not asked on every move.)
  let historyAsked = false;
  let historyTries = 0;
  const askHistory = (): void => {
    if (historyAsked || historyTries >= 3) return;
    historyAsked = true;
    historyTries += 1;
    void fetchHistory(game).then((hs) => { if (hs) { history = hs; draw(); } historyAsked = false; });
  };
  // The table chat (src/chat.ts): kept below the panels across redraws.
  const chat = chatPanel((text) => socket.send({ chat: { text } }), (name) => playerLink(name, navigate));
  const open = (): Connection => connect(game, token, () => (welcomed && state?.view ? state.version : null), (m) => {
    if (m.type === 'welcome') { chat.reset(m.chat); chat.spectating(m.seat === null); }
    if (m.type === 'chat') { chat.add(m.line); return; }
    if (m.type === 'error' && chat.claims(m.code)) { chat.error(m.message); return; }
    if (m.type === 'gone') { gone = m.message; draw(); return; }
    const before = state;
    if (m.type === 'welcome') {
      welcomed = true;
      if (performance.getEntriesByName('bastide:welcome').length === 0) performance.mark('bastide:welcome');
    }
    state = reduce(state, m);
    if (m.type === 'rematch' && m.seat !== null && m.token !== null) offer = { game: m.game, seat: m.seat, token: m.token };
    if (unacked && state) {
      const sent = unacked;
      if (m.type === 'welcome') {
        const next = onWelcome(sent, m.version, state.legal);
        if (next === 'resend') {
          socket.send(actionMessage(sent.action, sent.version));
          unacked = { ...sent, resent: true };
          state = { ...state, legal: [] };
        } else if (next === 'lost') {
          unacked = null;
          state = { ...state, error: LOST };
        }
      } else if (m.type === 'played') {
        const next = onPlayed(sent, m, state.seat);
        if (next !== 'pending') unacked = null;
        if (next === 'lost') state = { ...state, error: LOST };
      } else if (m.type === 'status') {
        unacked = null;
      } else if (m.type === 'error' && m.code === 'stale_version') {
        // Someone acted first: reconnect with `since` to catch up.
        unacked = null;
        socket.close();
        socket = open();
      } else if (m.type === 'error' && m.code !== 'lagged' && onRefused(sent, m.code) === 'retry') {
        unacked = { ...sent, resent: true };
        state = { ...state, error: null, legal: [] };
        window.setTimeout(() => {
          if (unacked === null || unacked.action !== sent.action) return;
          socket.send(actionMessage(sent.action, sent.version));
        }, RATE_RETRY_MS);
      } else if (m.type === 'error' && m.code !== 'lagged') {
        // (A lagged connection reconnects: its welcome settles the action.)
        unacked = null;
        state = { ...state, legal: sent.legal };
      }
    }
    if (state && shouldStart(state)) start();
    if (state?.resync) { state = { ...state, resync: false }; socket.close(); socket = open(); }
    needMap();
    // The history misses moves (the server was down at load, or moved on while it was fetched): ask again.
    if (state && (m.type === 'welcome' || m.type === 'played') && hasGap(mergeLog(history, state.log), state.version)) askHistory();
    if (before?.version !== state?.version) ui.highlight = [];
    // A move seen live that scored: "+N" over its feature and at the seat.
    if (m.type === 'played' && state && before && state.version === m.version && before.version === m.version - 1) {
      const entry = state.log[state.log.length - 1];
      const all = mergeLog(history, state.log);
      const placed = [...all].reverse().find((e) => e.action.kind === 'place');
      // The last move's final scoring one feature after another, then the result.
      if (entry && isFinalMove(entry)) runFinale(entry);
      else if (entry) showScore(entry, placed?.action.kind === 'place' ? { x: placed.action.x, y: placed.action.y } : null);
    }
    draw();
  }, (c) => { conn = c; draw(); });
  if (page) {
    state = reduce(null, page.welcome);
    needMap();
  }
  let socket: Connection = open();
  askHistory();

  const keys = (e: KeyboardEvent): void => {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
    // The rules card is open: its own keys (Esc closes it).
    if (rules.open) return;
    const step = 60;
    switch (e.key) {
      case 'r': case 'R': if (state && ui.tile) { ui.rotation = rotateToNext(state.legal, ui.tile, ui.rotation); ui.pending = null; draw(); } break;
      case 'Enter': if (ui.pending && !(t instanceof HTMLButtonElement)) send(ui.pending); break;
      case 'Escape': ui.pending = null; ui.pick = null; draw(); break;
      case 'ArrowLeft': board.panBy(step, 0); break;
      case 'ArrowRight': board.panBy(-step, 0); break;
      case 'ArrowUp': board.panBy(0, step); break;
      case 'ArrowDown': board.panBy(0, -step); break;
      case '+': case '=': board.zoomBy(1.2); break;
      case 'f': case 'F': board.refit(); break;
      case 'l': case 'L': if (state) { const f = figuresOffered(state.legal); if (f.length > 1) chooseFigure(f[(f.indexOf(ui.figure) + 1) % f.length] ?? null); } break;
      case '-': board.zoomBy(1 / 1.2); break;
      default: return;
    }
    if (e.key.startsWith('Arrow')) e.preventDefault();
  };
  document.addEventListener('keydown', keys);
  draw();
  return () => { document.removeEventListener('keydown', keys); window.clearTimeout(gainTimer); window.clearInterval(tick); socket.close(); };
}
