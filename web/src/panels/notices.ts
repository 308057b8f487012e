// The notices above the hand: a refusal or error, the first turn's hint
// (once per browser) and who ran out of time. One slot of the side panel.

import { h } from '../dom';
import { FIRST_TURN_HINT, FIRST_TURN_HINT_TOUCH, hintSeen, markHintSeen } from '../rules';
import { isMyTurn, type GameState } from '../state';
import { touchScreen } from './touch';

export interface NoticesPanel {
  element: HTMLElement;
  /** `tileInHand`: this seat has a tile to place (the hint is about placing it). */
  update(s: GameState, tileInHand: boolean): void;
}

/** `rules` opens "How to play"; `changed` redraws the table (the hint was dismissed). */
export function noticesPanel(rules: (s: GameState) => void, changed: () => void): NoticesPanel {
  const element = h('div', { class: 'slot', id: 'notices-slot' });
  return {
    element,
    update(s, tileInHand) {
      const out: HTMLElement[] = [];
      if (s.error) out.push(h('p', { class: 'error', role: 'alert' }, s.error));
      // The first turn's hint, once per browser: until it is dismissed or the first tile is placed.
      if (isMyTurn(s) && tileInHand && !hintSeen()) {
        out.push(h('section', { class: 'panel hint', id: 'first-hint', role: 'note', 'aria-label': 'How to take your turn' }, h('p', {}, touchScreen() ? FIRST_TURN_HINT_TOUCH : FIRST_TURN_HINT),
          h('button', { id: 'hint-ok', type: 'button', onclick: () => { markHintSeen(); changed(); } }, 'Got it'), ' ',
          h('button', { id: 'hint-rules', type: 'button', onclick: () => rules(s) }, 'How to play')));
      }
      if (s.timeout !== null) out.push(h('p', { class: 'status', id: 'timeout' }, `${s.players[s.timeout] ?? `Seat ${s.timeout}`} ran out of time.`));
      element.replaceChildren(...out);
    },
  };
}
