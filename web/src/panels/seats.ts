// The seats: each player's colour, name, score, clock, followers left and
// hand, the seat to act lit. Its own list element, redrawn only by its
// own update; the clocks tick in place and a score's "+N" fades at the
// seat without moving the line (style.css).

import { playerLink } from '../account';
import { formatClock, seatClocks } from '../clock';
import { playerColour, playerMark } from '../colours';
import { h } from '../dom';
import type { GameState } from '../state';
import { chipsByColour, chipsWords, halvesWords, seatKindWords } from '../words';
import { GOODS, goodsOf, goodsWords, inSupply, specialsWords, type Goods } from '../traders';
import { mayorWagonInSupply, mayorWagonWords } from '../mayorwagon';
import { floorsOf, prisonersOf, prisonersWords, ransomsAt } from '../tower';
import { describeAction } from '../words';
import type { Action } from '../protocol';

/** How long a seat's "+N" stays (ms): the length of its CSS animation. */
const GAIN_MS = 2600;

export interface SeatsPanel {
  element: HTMLUListElement;
  /** Draws the seats of `s` with these scores; `thinking` is the bot choosing its move. */
  update(s: GameState, scores: number[], thinking: number | null): void;
  /** "+N" at each seat of `gains` for `ms`, then gone. */
  gain(gains: Map<number, number>, ms?: number): void;
  /** Stops the clocks' ticker and the gains' timer. */
  stop(): void;
}

/** The seats' list; `navigate` follows a signed-in player's link, `send` plays a button at a seat (The Tower's ransom). */
export function seatsPanel(navigate: (path: string) => void, send: (a: Action) => void = () => undefined): SeatsPanel {
  const element = h('ul', { class: 'players', 'aria-label': 'Players and scores' });
  let gains = new Map<number, number>();
  let gainTimer: number | undefined;
  let last: { s: GameState; scores: number[]; thinking: number | null } | null = null;
  const redraw = (): void => { if (last) draw(last.s, last.scores, last.thinking); };
  // A timed game's clock at each seat (src/clock.ts), counting down for the seat to act; the ticker below rewrites only these.
  const clockSpan = (s: GameState, seat: number): HTMLElement | null => {
    if (!s.clock) return null;
    const c = seatClocks(s.clock, s.players.length, Date.now())[seat];
    if (!c || (c.ms === null && !c.running)) return null;
    const running = c.running && s.status === 'playing';
    return h('span', { class: `clock${running ? ' clock-running' : ''}${running && c.low ? ' clock-low' : ''}`, 'data-seat': seat, 'data-ms': c.ms ?? '', role: 'timer', 'aria-label': `${s.players[seat] ?? ''}'s time: ${formatClock(c.ms ?? 0)}` }, formatClock(c.ms ?? 0));
  };
  // Traders & Builders: the seat's goods as tokens (each kind its pill) and its builder and pig.
  const goodsSpan = (g: Goods): HTMLElement => h('span', { class: 'goods', 'data-goods': GOODS.map((k) => g[k]).join(','), title: goodsWords(g) },
    ' · ', ...GOODS.map((k) => h('span', { class: `goods-pill goods-${k}${g[k] === 0 ? ' goods-none' : ''}`, 'data-kind': k, 'aria-hidden': 'true' }, `${k} ${g[k]}`)));
  const draw = (s: GameState, scores: number[], thinking: number | null): void => {
    const view = s.view;
    const goods = view ? goodsOf(view) : null;
    const builders = view ? inSupply(view, 'builder') : null;
    const pigs = view ? inSupply(view, 'pig') : null;
    // Abbey & Mayor: where each seat's mayor and wagon are.
    const mayors = view ? mayorWagonInSupply(view, 'mayor') : null;
    const wagons = view ? mayorWagonInSupply(view, 'wagon') : null;
    // The Tower: floors left, the prisoners each seat holds, and a ransom button at the holder where one may be paid now.
    const floors = view ? floorsOf(view) : null;
    const prisoners = view ? prisonersOf(view) : [];
    element.replaceChildren(...s.players.map((name, i) => {
      const seat = s.seats[i];
      const turn = view?.currentPlayer === i && s.status === 'playing';
      const big = view?.bigFollowers ? (view.bigFollowers[i] ?? false) : null;
      // Half-and-half and Map Chips: one's own hand is shown in full elsewhere (halves) or here (chips by colour), others' as counts.
      const halves = view?.halves?.[i];
      const chips = view?.chipHands?.[i];
      const g = goods?.[i];
      const specials = specialsWords(builders?.[i] ?? null, pigs?.[i] ?? null);
      const mw = mayorWagonWords(mayors?.[i] ?? null, wagons?.[i] ?? null);
      const held = prisonersWords(prisoners, i, s.players);
      const towerWords = floors ? `${floors[i] ?? 0} floor${floors[i] === 1 ? '' : 's'}${held ? `, ${held}` : ''}` : '';
      const ransoms = ransomsAt(s.legal, i);
      const hands = [halves ? halvesWords(halves) : '', chips ? chipsWords(chips) : '', g ? goodsWords(g) : '', specials, mw, towerWords].filter((x) => x);
      return h('li', { class: turn ? 'turn' : '', 'aria-label': `${name}${i === s.seat ? ' (you)' : ''}: ${scores[i] ?? 0} points, ${view?.supply[i] ?? 0} followers left${big === null ? '' : big ? ' and the large follower' : ', the large follower on the board'}${hands.length ? `, ${hands.join(', ')}` : ''}, ${seat ? seatKindWords(seat.kind) : ''}${seat?.joined ? '' : ', not joined'}${turn ? ', to play' : ''}`, 'data-seat': i },
        h('span', { class: 'swatch', style: `background:${playerColour(name, i)}`, 'aria-hidden': 'true' }, playerMark(i)),
        h('span', { class: 'pname' }, `${name}${i === s.seat ? ' (you)' : ''}`),
        seat?.player ? h('span', { class: 'paccount' }, ' ', playerLink(seat.player, navigate)) : null,
        h('span', { class: 'score', 'data-score': scores[i] ?? 0 }, String(scores[i] ?? 0)),
        clockSpan(s, i),
        thinking === i ? h('span', { class: 'thinking', 'data-seat': i, title: `${seat ? `the ${seatKindWords(seat.kind)}` : 'the bot'} is choosing its move` }, h('span', { class: 'thinking-dots', 'aria-hidden': 'true' }, '•••'), ' thinking') : null,
        gains.has(i) ? h('span', { class: 'seat-gain', 'data-gain': gains.get(i) ?? 0, 'aria-hidden': 'true' }, `+${gains.get(i) ?? 0}`) : null,
        h('span', { class: 'pinfo' }, `· ${view?.supply[i] ?? 0}${big ? ' + large' : ''} left · ${seat ? seatKindWords(seat.kind) : ''}${seat?.kind === 'human' ? (seat.joined ? ' · joined' : ' · not joined') : ''}`),
        halves ? h('span', { class: 'hand-count', 'data-halves': 'hidden' in halves ? halves.hidden : halves.tiles.length }, `· ${halvesWords(halves)}`) : null,
        chips ? h('span', { class: 'chip-hand', 'data-chips': 'hidden' in chips ? chips.hidden : chips.chips.length },
          ...('hidden' in chips ? [`· ${chipsWords(chips)}`] : chips.chips.length === 0 ? ['· no chips'] : chipsByColour(chips.chips).map(([c, vs]) => h('span', { class: `chip-pill chip-${c.replace(/[^a-z]/gi, '')}`, title: `${c} ${vs.join(', ')}` }, vs.join('+'))))) : null,
        g ? goodsSpan(g) : null,
        specials ? h('span', { class: 'specials', 'data-builder': String(builders?.[i] ?? ''), 'data-pig': String(pigs?.[i] ?? '') }, ` · ${specials}`) : null,
        mw ? h('span', { class: 'mayor-wagon', 'data-mayor': String(mayors?.[i] ?? ''), 'data-wagon': String(wagons?.[i] ?? '') }, ` · ${mw}`) : null,
        towerWords ? h('span', { class: 'tower-seat', 'data-floors': String(floors?.[i] ?? ''), 'data-prisoners': String(prisoners.filter((p) => p.holder === i).length) }, ` · ${towerWords}`) : null,
        ...ransoms.map((a) => h('button', { type: 'button', class: 'ransom', 'data-kind': 'ransom', 'data-seat': i, 'data-figure': a.figure ?? '', title: describeAction(a, undefined, s.players), onclick: () => send(a) }, `Ransom (3 points)${a.figure ? `: ${a.figure === 'big' ? 'large follower' : a.figure}` : ''}`)));
    }));
  };
  const tick = window.setInterval(() => {
    const s = last?.s;
    if (!s?.clock || s.status !== 'playing') return;
    for (const c of seatClocks(s.clock, s.players.length, Date.now())) {
      if (!c.running || c.ms === null) continue;
      const span = element.querySelector(`.clock[data-seat="${c.seat}"]`);
      if (!(span instanceof HTMLElement)) continue;
      span.textContent = formatClock(c.ms);
      span.dataset.ms = String(c.ms);
      span.classList.toggle('clock-low', c.low);
    }
  }, 200);
  return {
    element,
    update(s, scores, thinking) { last = { s, scores, thinking }; draw(s, scores, thinking); },
    gain(g, ms = GAIN_MS) {
      gains = g;
      window.clearTimeout(gainTimer);
      gainTimer = window.setTimeout(() => { gains = new Map(); redraw(); }, ms);
      redraw();
    },
    stop() { window.clearInterval(tick); window.clearTimeout(gainTimer); },
  };
}
