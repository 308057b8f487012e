// The replay viewer: a record from a finished game or a file, stepped
// forward and back, dragged along a slider or played by itself; each
// position is the engine's own replay (POST /api/replay), so what is shown
// is what `bastide replay` computes.

import { getRecord, mapInfo, replayStep, type MapInfo } from './api';
import { Board, figureIcon } from './board';
import { playerColour, playerMark } from './colours';
import { h, errorText } from './dom';
import { parseAction, parseView } from './protocol';
import { describeAction, gameName } from './words';
import { whereOn } from './where';
import { readRecord, type RecordText } from './record';
import { summary } from './summary';

/** How long autoplay shows each action (ms). */
const AUTOPLAY_MS = 700;

export function replay(root: HTMLElement, game: string | null): () => void {
  let record: RecordText | null = null;
  let at = 0;
  let total = 0;
  let map: MapInfo | null = null;
  const wrap = h('div', { class: 'boardwrap' });
  const side = h('aside', { class: 'side', 'aria-label': 'Replay controls' });
  root.replaceChildren(h('div', { class: 'layout' }, wrap, side));
  const board = new Board(wrap, { onTarget: () => undefined, onSpot: () => undefined });
  const info = h('p', { role: 'status', id: 'replay-status', class: 'message' });
  const title = h('h2', {}, game ? 'Replay' : 'Replay a record');
  // The slider: every action of the game, dragged to any of them.
  const slider = h('input', { type: 'range', id: 'replay-slider', min: 0, max: 0, value: 0, step: 1, 'aria-label': 'Action shown' });
  slider.addEventListener('input', () => { stop(); void go(Number(slider.value)); });
  // Autoplay: a step every AUTOPLAY_MS until the end (or Pause).
  let timer: number | undefined;
  const play = h('button', { id: 'autoplay', type: 'button', 'aria-pressed': 'false' }, 'Play ▶▶');
  const stop = (): void => {
    window.clearInterval(timer);
    timer = undefined;
    play.textContent = 'Play ▶▶';
    play.setAttribute('aria-pressed', 'false');
  };
  play.addEventListener('click', () => {
    if (timer !== undefined) { stop(); return; }
    if (at >= total) void go(0);
    play.textContent = 'Pause ❚❚';
    play.setAttribute('aria-pressed', 'true');
    timer = window.setInterval(() => { if (at >= total) stop(); else void go(at + 1); }, AUTOPLAY_MS);
  });
  const extra = h('div', {});
  const go = async (n: number): Promise<void> => {
    if (!record) return;
    try {
      const step = await replayStep(record, Math.max(0, Math.min(total || n, n)));
      at = step.at;
      total = step.actions;
      slider.max = String(total);
      slider.value = String(at);
      const view = parseView(step.view);
      if (game) title.textContent = `Replay: ${gameName(view.players, record.sets)}`;
      const a = step.action ? parseAction(step.action) : null;
      const text = `Action ${at} of ${total}: ${a ? describeAction(a, whereOn(view.board, (p) => board.tileKinds(p.tile, p.rotation))) : 'start'} · ${view.players.map((p, i) => `${p} ${view.scores[i] ?? 0}`).join(', ')}`;
      // A follower's step shows the figure as the board draws it (the large one bigger).
      // (Its owner is the follower standing there; one scored at once has gone home: grey.)
      const icon = (): SVGSVGElement | null => {
        if (a?.kind !== 'follower') return null;
        const f = view.followers.find((x) => x.x === a.at.x && x.y === a.at.y && x.place === a.at.place && x.half === a.at.half);
        return f ? figureIcon(a.figure, playerColour(view.players[f.seat] ?? '', f.seat), playerMark(f.seat)) : figureIcon(a.figure, '#999999', '');
      };
      const i = icon();
      info.replaceChildren(...(i ? [i, ' '] : []), text);
      extra.replaceChildren(...(view.finished ? [summary(view, null)] : []));
      await board.render({ view, map, targets: [], preview: null, spots: [], marks: [], highlight: [], version: at });
    } catch (e) {
      info.textContent = `Cannot replay: ${errorText(e)}`;
    }
  };
  const load = async (r: RecordText): Promise<void> => {
    record = r;
    map = r.map ? await mapInfo(r.map) : null;
    total = r.actions;
    await go(0);
  };
  const file = h('input', { type: 'file', accept: 'application/json,.json', 'aria-label': 'Load a game record file' });
  file.addEventListener('change', () => {
    const f = file.files?.[0];
    if (!f) return;
    // The file's text as it is: parsing it into numbers would round its seed.
    void f.text().then((t) => load(readRecord(t))).catch((e: unknown) => { info.textContent = `Cannot read that file: ${errorText(e)}`; });
  });
  const button = (label: string, id: string, f: () => number): HTMLButtonElement => h('button', { id, onclick: () => { void go(f()); } }, label);
  side.replaceChildren(h('section', { class: 'panel' }, title, file, info,
    h('div', { role: 'group', 'aria-label': 'Step' }, button('« Start (Home)', 'first', () => 0), button('◀ Back (J)', 'back', () => at - 1), button('Forward (K) ▶', 'forward', () => at + 1), button('End (End) »', 'last', () => total)),
    h('div', { class: 'replay-play' }, play, slider)), extra);
  const keys = (e: KeyboardEvent): void => {
    if (e.key === 'j' || e.key === 'PageUp') void go(at - 1);
    else if (e.key === 'k' || e.key === 'PageDown') void go(at + 1);
    else if (e.key === 'Home') void go(0);
    else if (e.key === 'End') void go(total);
  };
  document.addEventListener('keydown', keys);
  if (game) getRecord(game).then(load).catch((e: unknown) => { info.textContent = `Cannot load the record: ${errorText(e)}`; });
  return () => { stop(); document.removeEventListener('keydown', keys); };
}
