// The game table: the board (src/board.ts) and beside it the side panel,
// one part per thing a person sees, each its own module with its own
// state (src/panels/): the head with the seats, the notices, the tile in
// hand, the choices, the end of the game, the log and the chat. What the
// board shows is src/table/scene.ts; the waiting room, the move history,
// the scores seen live and the keys have their modules in src/table/ too.
// This module holds the connection and the game's state, and tells each
// part what changed.

import { earlyTiles, tileUrl } from './api';
import { Board } from './board';
import { isSchematic } from './art';
import { markHintSeen } from './rules';
import { playerLink } from './account';
import { chatPanel } from './chat';
import { h } from './dom';
import { connect, type Connection, type ServerHandler } from './net';
import { serverPage } from './page';
import { ROTATIONS, type Action, type Rotation } from './protocol';
import { logEvents, reduce, type GameState } from './state';
import { FIGURE_EVENTS } from './dragon';
import { TOWER_EVENTS } from './tower';
import { botThinking, hasGap, isFinalMove, mergeLog } from './follow';
import { shouldStart } from './waiting';
import { choose, keepPick, type Mark, type Pick } from './picks';
import { connectionBanner } from './panels/banner';
import { choicesPanel } from './panels/choices';
import { endPanel } from './panels/end';
import { handOf, handPanel, handShown } from './panels/hand';
import { factsPanel } from './panels/facts';
import { headerPanel } from './panels/header';
import { eventRef, logPanel, type FeatureAt } from './panels/log';
import { noticesPanel } from './panels/notices';
import { rulesDialog } from './panels/rules';
import { seatsPanel } from './panels/seats';
import { history as moveHistory } from './table/history';
import { listenKeys } from './table/keys';
import { outbox } from './table/outbox';
import { room as waitingRoomPart } from './table/room';
import { scene as boardScene } from './table/scene';
import { featureCells, showScore } from './table/scoring';

export { figuresOffered, spotsFor } from './panels/choices';
export { handTiles, placeableTiles, rotateToNext, targetsFor } from './panels/hand';
export { moveText } from './panels/log';
export { featureText } from './panels/facts';

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

/** The board's frame and the side panel: the server's (a page it drew) or new ones. */
function frame(root: HTMLElement, game: string): { page: ReturnType<typeof serverPage>; wrap: HTMLElement; side: HTMLElement } {
  const page = serverPage(root, game);
  const found = page?.svg.closest('.boardwrap');
  const wrap = found instanceof HTMLElement ? found : h('div', { class: 'boardwrap' });
  const side = page?.side ?? h('aside', { class: 'side', 'aria-label': 'Game panel' });
  if (!page || !(found instanceof HTMLElement)) root.replaceChildren(h('div', { class: 'layout' }, wrap, side));
  foldablePanel(side);
  return { page, wrap, side };
}

export function table(root: HTMLElement, game: string, token: string | null, navigate: (path: string) => void): () => void {
  let state: GameState | null = null;
  // Cells lit by the log (a scored feature), until the next move.
  let highlight: { x: number; y: number }[] = [];
  // A half-made choice on the board (src/picks.ts): a flight, a flea's move, a trade.
  let pick: Pick | null = null;
  // The server drew the board into this page: take it over, start from
  // the state it embedded (the public view), and let the WebSocket's
  // welcome update it.
  const { page, wrap, side } = frame(root, game);
  // Whether this connection's welcome came: until then a (re)connection
  // asks for everything (`since` null), as the page's state is a
  // spectator's and a seat needs its own view and legal moves.
  let welcomed = false;
  // The last action sent, until the server answers (src/table/outbox.ts).
  const sent = outbox(() => socket, () => { socket.close(); socket = open(); });
  const send = (a: Action): void => {
    if (!state) return;
    // The first placement: the first turn's hint has done its work.
    if (a.kind === 'place') markHintSeen();
    state = sent.send(a, state);
    hand.clear();
    pick = null;
    draw();
  };
  const showError = (text: string): void => { if (state) { state = { ...state, error: text }; draw(); } };
  // The facts of the feature under the pointer, over the board (src/panels/facts.ts).
  const facts = factsPanel(game);
  const banner = connectionBanner();
  const showFeature = (ref: FeatureAt | null): void => {
    if (state) facts.show(ref, state.version, state.players, (cells) => board.setHighlight(cells), highlight);
  };
  const board = new Board(wrap, {
    onFeature: showFeature,
    onTarget: (a) => hand.preview(a),
    onPreview: () => { if (state) hand.rotate(state); },
    onSpot: (a) => send(a),
    onMark: (m: Mark) => {
      if (!state) return;
      const next = choose(state.legal, pick, m);
      pick = next.pick;
      if (next.send) { send(next.send); return; }
      draw();
      // The keyboard goes on to what completes the choice (the board was drawn anew), or back to the mark.
      const el = wrap.querySelector(pick ? '.mark-flee-to, .mark-flea-from, .chip-popover .chip-btn' : '.mark');
      if (el instanceof HTMLElement || el instanceof SVGElement) el.focus();
    },
    onBackground: () => { if (pick) { pick = null; draw(); } },
  }, page ?? undefined);
  wrap.append(facts.element, banner.element);
  // The board's pictures, asked for by index.html while this script loaded.
  const early = earlyTiles(game);
  if (early) board.preload(early);
  const view = boardScene(game, board, (version) => { if (state && (version === null || state.version === version)) draw(); });

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
  const changed = (): void => draw();
  // "How to play": a card for the base game and each expansion of this game (src/rules.ts).
  const rules = rulesDialog();
  root.appendChild(rules.element);

  // The side panel's parts, each drawn by its own module, in a fixed order.
  const seats = seatsPanel(navigate, send);
  const header = headerPanel({ game, seats: seats.element, refit: () => board.refit(), rules: (s) => rules.open(s), changed });
  const hand = handPanel({ send, changed, picture, kinds: (t, r) => board.tileKinds(t, r) });
  const choices = choicesPanel({ send, changed, picture, preview: (a) => hand.preview(a) });
  const end = endPanel({
    game, token, navigate, board, cells: (e) => featureCells(game, eventRef(e)), gain: (g, ms) => seats.gain(g, ms), changed, error: showError,
  });
  const log = logPanel((ref) => showFeature(ref));
  const room = waitingRoomPart(game, token, {
    // Someone else's start is no failure: their status message says so.
    failed: (text) => { if (state?.status === 'open') showError(text); },
    changed, toLobby: () => navigate('/'), navigate,
  });
  const notices = noticesPanel((s) => rules.open(s), changed);
  const resign = h('div', { class: 'slot', id: 'resign-slot' });
  // The table chat (src/chat.ts).
  const chat = chatPanel((text) => socket.send({ chat: { text } }), (name) => playerLink(name, navigate));
  const moves = moveHistory(game, changed);
  const connecting = h('p', { role: 'status' }, 'Connecting to the game…');
  side.replaceChildren(connecting, header.element, room.element, notices.element, hand.element, choices.element, end.element, log.element, resign, chat.element);

  const draw = (): void => {
    const s = state;
    connecting.hidden = s !== null;
    header.element.hidden = s === null;
    if (!s) return;
    hand.sync(s);
    choices.sync(s);
    pick = keepPick(s.legal, pick);
    const all = mergeLog(moves.entries, s.log);
    view.draw(s, { pick, figure: choices.figure, tile: hand.tile, rotation: hand.rotation, pending: hand.pending, moves: all, highlight });
    const thinking = botThinking(s.status, s.view?.currentPlayer ?? null, s.seats);
    // During the final scoring each seat's score climbs with its steps (src/follow.ts).
    seats.update(s, end.scores(s.view?.scores ?? []), thinking);
    const sending = sent.sending && s.seat !== null && s.view?.currentPlayer === s.seat;
    header.update(s, banner.state, thinking, sending);
    banner.update(s, welcomed, sending);
    room.update(s);
    notices.update(s, hand.tile !== null);
    hand.update(s);
    choices.update(s, handShown(handOf(s)), view.where(s));
    end.update(s);
    log.update(end.shownEvents(logEvents(s.view?.events ?? [], [...FIGURE_EVENTS, ...TOWER_EVENTS])), all, s.players);
    resign.replaceChildren(...(s.seat !== null && token && s.status === 'playing' ? [h('button', { onclick: () => { if (confirm('Resign this game?')) socket.send({ resign: {} }); } }, 'Resign')] : []));
  };

  // A move seen live: its final scoring one feature after another, then the result; or what it scored.
  const seenLive = (before: GameState | null, version: number): void => {
    if (!state || !before || state.version !== version || before.version !== version - 1) return;
    const entry = state.log[state.log.length - 1];
    if (!entry) return;
    if (isFinalMove(entry)) { end.run(entry, state.players); return; }
    const placed = [...mergeLog(moves.entries, state.log)].reverse().find((e) => e.action.kind === 'place');
    showScore(game, board, state.players, entry, placed?.action.kind === 'place' ? { x: placed.action.x, y: placed.action.y } : null, (g) => seats.gain(g));
  };
  // The connection: every message updates the state, then the table is drawn again.
  const onMessage: ServerHandler = (m) => {
    if (m.type === 'welcome') { chat.reset(m.chat); chat.spectating(m.seat === null); }
    if (m.type === 'chat') { chat.add(m.line); return; }
    if (m.type === 'error' && chat.claims(m.code)) { chat.error(m.message); return; }
    if (m.type === 'gone') { room.gone(m.message); return; }
    const before = state;
    if (m.type === 'welcome') {
      welcomed = true;
      if (performance.getEntriesByName('bastide:welcome').length === 0) performance.mark('bastide:welcome');
    }
    state = reduce(state, m);
    if (m.type === 'rematch' && m.seat !== null && m.token !== null) end.offer({ game: m.game, seat: m.seat, token: m.token });
    if (state) state = sent.settle(m, state);
    if (state && shouldStart(state)) room.start();
    if (state?.resync) { state = { ...state, resync: false }; socket.close(); socket = open(); }
    if (state) view.needMap(state);
    // The history misses moves (the server was down at load, or moved on while it was fetched): ask again.
    if (state && (m.type === 'welcome' || m.type === 'played') && hasGap(mergeLog(moves.entries, state.log), state.version)) moves.ask();
    if (before?.version !== state?.version) highlight = [];
    if (m.type === 'played') seenLive(before, m.version);
    draw();
  };
  const open = (): Connection => connect(game, token, () => (welcomed && state?.view ? state.version : null), onMessage, (c) => {
    banner.connection(c, draw);
    draw();
  });
  if (page) {
    state = reduce(null, page.welcome);
    if (state) view.needMap(state);
  }
  let socket: Connection = open();
  moves.ask();

  const stopKeys = listenKeys({
    rotate: () => { if (state) hand.rotate(state); },
    confirm: () => { if (hand.pending) send(hand.pending); },
    cancel: () => { hand.clear(); pick = null; draw(); },
    panBy: (dx, dy) => board.panBy(dx, dy),
    zoomBy: (f) => board.zoomBy(f),
    refit: () => board.refit(),
    nextFigure: () => { if (state) choices.next(state); },
    dialogOpen: () => rules.isOpen,
  });
  draw();
  return () => { stopKeys(); seats.stop(); socket.close(); };
}
