// The game table: the board (src/board.ts) and beside it the side panel,
// one part per thing a person sees, each its own module with its own
// state (src/panels/): the head with the seats, the tile in hand, the
// choices, the end of the game, the log and the chat. This module holds
// the connection and the game's state, and tells each part what changed.

import { earlyTiles, featureInfo, mapInfo, startGame, tileUrl, type MapInfo } from './api';
import { Board } from './board';
import { isSchematic } from './art';
import { FIRST_TURN_HINT, FIRST_TURN_HINT_TOUCH, hintSeen, markHintSeen, rulesFor } from './rules';
import { touchScreen } from './panels/touch';
import { playerColour } from './colours';
import { playerLink } from './account';
import { chatPanel } from './chat';
import { errorText, h } from './dom';
import { connect, type Connection, type ConnectionState } from './net';
import { serverPage } from './page';
import { ROTATIONS, actionMessage, type Action, type Rotation } from './protocol';
import { isMyTurn, reduce, scoringEvents, type GameState, type LogEntry } from './state';
import { botThinking, fetchHistory, gains, gainsBySeat, hasGap, isFinalMove, lastTiles, mergeLog } from './follow';
import { RATE_RETRY_MS, settle, type Unacked } from './unacked';
import { shouldStart, waitingRoom } from './waiting';
import { boardMarks, choose, keepPick, refKey, type CityArea, type Mark, type Pick } from './picks';
import { choicesPanel, spotsFor } from './panels/choices';
import { endPanel } from './panels/end';
import { handOf, handPanel, handShown, targetsFor } from './panels/hand';
import { factsPanel } from './panels/facts';
import { headerPanel } from './panels/header';
import { eventRef, logPanel, type FeatureAt } from './panels/log';
import { seatsPanel } from './panels/seats';

export { figuresOffered, spotsFor } from './panels/choices';
export { handTiles, placeableTiles, rotateToNext, targetsFor } from './panels/hand';
export { moveText } from './panels/log';
export { featureText } from './panels/facts';

/** How long the connection must be lost before the banner says so (ms). */
const BANNER_MS = 1000;

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
  // When the connection was last lost (the banner shows after BANNER_MS of it).
  let awaySince = 0;
  let map: MapInfo | null = null;
  // Cells lit by the log (a scored feature), until the next move.
  let highlight: { x: number; y: number }[] = [];
  // A half-made choice on the board (src/picks.ts): a flight, a flea's move, a trade.
  let pick: Pick | null = null;
  // The moves before this page opened, from the server's log (src/follow.ts): the history survives a reload.
  let history: LogEntry[] = [];
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
    hand.clear();
    pick = null;
    // Nothing is legal until the server answers: no double sends.
    state = { ...state, legal: [] };
    draw();
  };
  // The facts of the feature under the pointer, over the board (src/panels/facts.ts).
  const facts = factsPanel(game);
  // While the server is away: a banner over the board, and the move waiting to be sent.
  const banner = h('p', { id: 'connection-banner', class: 'connection-banner', role: 'status', hidden: true });
  const showFeature = (ref: FeatureAt | null): void => {
    if (state) facts.show(ref, state.version, state.players, (cells) => board.setHighlight(cells), highlight);
  };
  const featureCells = (ref: FeatureAt | null): Promise<{ x: number; y: number }[]> => (ref
    ? featureInfo(game, ref).then((f) => f.cells.map(([x, y]) => ({ x, y })), () => [])
    : Promise.resolve([]));
  const boardRoot = wrap instanceof HTMLElement ? wrap : root;
  const board = new Board(boardRoot, {
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
      const el = boardRoot.querySelector(pick ? '.mark-flee-to, .mark-flea-from, .chip-popover .chip-btn' : '.mark');
      if (el instanceof HTMLElement || el instanceof SVGElement) el.focus();
    },
    onBackground: () => { if (pick) { pick = null; draw(); } },
  }, page ?? undefined);
  boardRoot.append(facts.element, banner);
  // The board's pictures, asked for by index.html while this script loaded.
  const early = earlyTiles(game);
  if (early) board.preload(early);

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
  const rules = h('dialog', { id: 'rules', class: 'rules', 'aria-labelledby': 'rules-title' });
  root.appendChild(rules);
  const openRules = (s: GameState): void => {
    rules.replaceChildren(h('h2', { id: 'rules-title' }, 'How to play'),
      ...rulesFor(s.config).map((c) => h('section', { class: 'rules-card', 'data-set': c.id }, h('h3', {}, c.title), h('ul', {}, ...c.lines.map((l) => h('li', {}, l))))),
      h('form', { method: 'dialog' }, h('button', { id: 'rules-close', type: 'submit' }, 'Close')));
    rules.showModal();
  };

  // The side panel's parts, each drawn by its own module, in a fixed order.
  const seats = seatsPanel(navigate);
  const header = headerPanel({ game, seats: seats.element, refit: () => board.refit(), rules: openRules, changed });
  const hand = handPanel({ send, changed, picture, kinds: (t, r) => board.tileKinds(t, r) });
  const choices = choicesPanel({ send, changed, picture, preview: (a) => hand.preview(a) });
  const end = endPanel({
    game, token, navigate, board, cells: (e) => featureCells(eventRef(e)), gain: (g, ms) => seats.gain(g, ms), changed,
    error: (text) => { if (state) { state = { ...state, error: text }; draw(); } },
  });
  const log = logPanel((ref) => showFeature(ref));
  const waiting = h('div', { class: 'slot', id: 'waiting-slot' });
  const notices = h('div', { class: 'slot', id: 'notices-slot' });
  const resign = h('div', { class: 'slot', id: 'resign-slot' });
  // The table chat (src/chat.ts).
  const chat = chatPanel((text) => socket.send({ chat: { text } }), (name) => playerLink(name, navigate));
  const connecting = h('p', { role: 'status' }, 'Connecting to the game…');
  side.replaceChildren(connecting, header.element, waiting, notices, hand.element, choices.element, end.element, log.element, resign, chat.element);

  // "+N" over a scored feature and at the seat, its tiles lit in the scorer's colour.
  const showScore = (entry: LogEntry, fallback: { x: number; y: number } | null): void => {
    const gs = gains(entry, fallback);
    if (gs.length === 0 || !state) return;
    const players = state.players;
    board.flash(gs.filter((g) => g.x !== null && g.y !== null).map((g) => ({ x: g.x ?? 0, y: g.y ?? 0, text: `+${g.points}`, colour: playerColour(players[g.seat] ?? '', g.seat), seat: g.seat })));
    // The scored features' tiles lit in the scorer's colour (the engine's feature lookup, as for hovering).
    const lit = new Set<string>();
    for (const e of entry.events) {
      const seat = e.points.findIndex((p) => p > 0);
      const ref = eventRef(e);
      if (seat < 0 || !ref) continue;
      const key = `${ref.x},${ref.y},${ref.place},${ref.half ?? ''}`;
      if (lit.has(key)) continue;
      lit.add(key);
      const colour = playerColour(players[seat] ?? '', seat);
      void featureCells(ref).then((cells) => board.flashCells(cells, colour));
    }
    seats.gain(gainsBySeat(gs));
  };

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
  const drawBoard = (s: GameState): void => {
    const view = s.view;
    if (!view) return;
    // While a flight, a flea's move or a trade is half made, only what completes it is lit.
    const spots = pick ? [] : spotsFor(s.legal, choices.figure);
    const marks = hand.pending ? [] : boardMarks(s.legal, pick, squareName);
    const lasts = lastTiles(mergeLog(history, s.log)).map((t) => ({ ...t, colour: playerColour(s.players[t.seat] ?? '', t.seat) }));
    void board.render({ view, map, lastTiles: lasts, cities: citiesFor(marks, s.version), targets: hand.pending || pick ? [] : targetsFor(s.legal, hand.tile, hand.rotation), preview: hand.pending, spots, marks, highlight, version: s.version });
  };
  const drawNotices = (s: GameState): void => {
    const out: HTMLElement[] = [];
    if (s.error) out.push(h('p', { class: 'error', role: 'alert' }, s.error));
    // The first turn's hint, once per browser: until it is dismissed or the first tile is placed.
    if (isMyTurn(s) && hand.tile && !hintSeen()) {
      out.push(h('section', { class: 'panel hint', id: 'first-hint', role: 'note', 'aria-label': 'How to take your turn' }, h('p', {}, touchScreen() ? FIRST_TURN_HINT_TOUCH : FIRST_TURN_HINT),
        h('button', { id: 'hint-ok', type: 'button', onclick: () => { markHintSeen(); draw(); } }, 'Got it'), ' ',
        h('button', { id: 'hint-rules', type: 'button', onclick: () => openRules(s) }, 'How to play')));
    }
    if (s.timeout !== null) out.push(h('p', { class: 'status', id: 'timeout' }, `${s.players[s.timeout] ?? `Seat ${s.timeout}`} ran out of time.`));
    notices.replaceChildren(...out);
  };
  const drawBanner = (s: GameState, sending: boolean): void => {
    // Only once a connection was made: a page still making its first (its
    // board drawn by the server) is connecting, not cut off.
    const away = conn !== 'open' && welcomed && Date.now() - awaySince >= BANNER_MS && s.status !== 'finished' && s.status !== 'resigned';
    banner.hidden = !away;
    banner.textContent = away ? `The server is away: reconnecting…${sending ? ' Your move is waiting to be sent.' : ''}` : '';
  };
  const draw = (): void => {
    const s = state;
    connecting.hidden = s !== null;
    header.element.hidden = s === null;
    if (!s) return;
    hand.sync(s);
    choices.sync(s);
    pick = keepPick(s.legal, pick);
    drawBoard(s);
    const thinking = botThinking(s.status, s.view?.currentPlayer ?? null, s.seats);
    // During the final scoring each seat's score climbs with its steps (src/follow.ts).
    seats.update(s, end.scores(s.view?.scores ?? []), thinking);
    const sending = unacked !== null && s.seat !== null && s.view?.currentPlayer === s.seat;
    header.update(s, conn, thinking, sending);
    drawBanner(s, sending);
    waiting.replaceChildren(...(s.status === 'open' ? [waitingRoom(s, { game, token, start, copied, copy, gone, toLobby: () => navigate('/') })] : []));
    drawNotices(s);
    hand.update(s);
    choices.update(s, handShown(handOf(s)));
    end.update(s);
    log.update(end.shownEvents(scoringEvents(s.view?.events ?? [])), mergeLog(history, s.log), s.players);
    resign.replaceChildren(...(s.seat !== null && token && s.status === 'playing' ? [h('button', { onclick: () => { if (confirm('Resign this game?')) socket.send({ resign: {} }); } }, 'Resign')] : []));
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
  // The connection: every message updates the state, then the table is drawn again.
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
    if (m.type === 'rematch' && m.seat !== null && m.token !== null) end.offer({ game: m.game, seat: m.seat, token: m.token });
    if (unacked && state) {
      // The action sent and not answered yet (src/unacked.ts): answered, lost, refused, or to send again.
      const sent = unacked;
      const settled = settle(sent, m, state);
      unacked = settled.unacked;
      state = settled.state;
      if (settled.effect === 'resend') socket.send(actionMessage(sent.action, sent.version));
      else if (settled.effect === 'reconnect') { socket.close(); socket = open(); }
      else if (settled.effect === 'retry') {
        window.setTimeout(() => {
          if (unacked === null || unacked.action !== sent.action) return;
          socket.send(actionMessage(sent.action, sent.version));
        }, RATE_RETRY_MS);
      }
    }
    if (state && shouldStart(state)) start();
    if (state?.resync) { state = { ...state, resync: false }; socket.close(); socket = open(); }
    needMap();
    // The history misses moves (the server was down at load, or moved on while it was fetched): ask again.
    if (state && (m.type === 'welcome' || m.type === 'played') && hasGap(mergeLog(history, state.log), state.version)) askHistory();
    if (before?.version !== state?.version) highlight = [];
    // A move seen live that scored: "+N" over its feature and at the seat.
    if (m.type === 'played' && state && before && state.version === m.version && before.version === m.version - 1) {
      const entry = state.log[state.log.length - 1];
      const all = mergeLog(history, state.log);
      const placed = [...all].reverse().find((e) => e.action.kind === 'place');
      // The last move's final scoring one feature after another, then the result.
      if (entry && isFinalMove(entry)) end.run(entry, state.players);
      else if (entry) showScore(entry, placed?.action.kind === 'place' ? { x: placed.action.x, y: placed.action.y } : null);
    }
    draw();
  }, (c) => {
    // The banner waits a moment: a reconnect that takes no time (a stale version, a lag) is no news.
    if (c !== 'open' && conn === 'open') { awaySince = Date.now(); window.setTimeout(draw, BANNER_MS + 50); }
    conn = c;
    draw();
  });
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
      case 'r': case 'R': if (state) hand.rotate(state); break;
      case 'Enter': if (hand.pending && !(t instanceof HTMLButtonElement)) send(hand.pending); break;
      case 'Escape': hand.clear(); pick = null; draw(); break;
      case 'ArrowLeft': board.panBy(step, 0); break;
      case 'ArrowRight': board.panBy(-step, 0); break;
      case 'ArrowUp': board.panBy(0, step); break;
      case 'ArrowDown': board.panBy(0, -step); break;
      case '+': case '=': board.zoomBy(1.2); break;
      case 'f': case 'F': board.refit(); break;
      case 'l': case 'L': if (state) choices.next(state); break;
      case '-': board.zoomBy(1 / 1.2); break;
      default: return;
    }
    if (e.key.startsWith('Arrow')) e.preventDefault();
  };
  document.addEventListener('keydown', keys);
  draw();
  return () => { document.removeEventListener('keydown', keys); seats.stop(); socket.close(); };
}
