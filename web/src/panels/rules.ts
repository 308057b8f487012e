// "How to play": a dialog with a card for the base game and each
// expansion of the game (src/rules.ts), opened from the head or the first
// turn's hint. Its own element; while it is open the table's keys wait.

import { h } from '../dom';
import { rulesFor } from '../rules';
import type { GameState } from '../state';

export interface RulesDialog {
  element: HTMLDialogElement;
  /** Opens it with the cards of `s`'s sets. */
  open(s: GameState): void;
  /** Whether it is open (the table's keys are its own then). */
  readonly isOpen: boolean;
}

export function rulesDialog(): RulesDialog {
  const element = h('dialog', { id: 'rules', class: 'rules', 'aria-labelledby': 'rules-title' });
  return {
    element,
    open(s) {
      element.replaceChildren(h('h2', { id: 'rules-title' }, 'How to play'),
        ...rulesFor(s.config).map((c) => h('section', { class: 'rules-card', 'data-set': c.id }, h('h3', {}, c.title), h('ul', {}, ...c.lines.map((l) => h('li', {}, l))))),
        h('form', { method: 'dialog' }, h('button', { id: 'rules-close', type: 'submit' }, 'Close')));
      element.showModal();
    },
    get isOpen() { return element.open; },
  };
}
