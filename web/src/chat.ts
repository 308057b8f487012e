// The table's chat (docs/server.md, "Table chat"): the players' channel,
// which everyone at the table reads, and the spectators', which only
// spectators read. The panel is made once per table and kept in the side
// panel across redraws, so that typing survives a move arriving.

import { h } from './dom';
import { int, obj, oneOf, opt, str } from './json';

/** One line as the server sends it. */
export interface ChatLine { channel: 'players' | 'spectators'; from: string; seat: number | null; player: string | null; text: string; at: number }

/** The longest line the server takes, in characters. */
export const MAX_CHAT_CHARS = 300;

export function parseChatLine(v: unknown, p: string): ChatLine {
  const o = obj(v, p);
  return {
    channel: oneOf(o.channel, `${p}.channel`, ['players', 'spectators'] as const), from: str(o.from, `${p}.from`),
    seat: opt(o.seat, `${p}.seat`, int), player: opt(o.player, `${p}.player`, str), text: str(o.text, `${p}.text`), at: int(o.at, `${p}.at`),
  };
}

/**
 * What the client sends for `text`, or why not: the server's rule (1 to
 * 300 characters once control characters are spaces and the ends
 * trimmed), checked here to spare a refused round trip.
 */
export function chatText(text: string): { text: string } | { error: string } {
  // eslint-disable-next-line no-control-regex
  const t = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
  const n = [...t].length;
  if (n === 0) return { error: 'Type something first.' };
  if (n > MAX_CHAT_CHARS) return { error: `At most ${MAX_CHAT_CHARS} characters (this has ${n}).` };
  return { text: t };
}

/**
 * Replaces `parent`'s children with `children`, all before `kept`, which
 * stays in place (never detached: its focus and caret survive).
 */
export function replaceKeeping(parent: HTMLElement, kept: HTMLElement, children: Node[]): void {
  for (const c of [...parent.childNodes]) if (c !== kept) c.remove();
  if (kept.parentNode !== parent) parent.append(kept);
  for (const c of children) parent.insertBefore(c, kept);
}

export interface ChatPanel {
  element: HTMLElement;
  /** The welcome's lines (a reconnect's too): the list as the server keeps it. */
  reset(lines: ChatLine[]): void;
  add(line: ChatLine): void;
  /** Whether an error is the answer to a line just sent (then it is shown here). */
  claims(code: string): boolean;
  error(message: string): void;
  /** Whether this connection is a spectator's (says which channel the input writes to). */
  spectating(yes: boolean): void;
}

/** The chat panel; `say` sends a line's text. `link` draws a signed-in writer's name. */
export function chatPanel(say: (text: string) => void, link: (name: string) => HTMLElement): ChatPanel {
  const list = h('ol', { class: 'chat-lines', id: 'chat-lines', role: 'log', 'aria-live': 'polite', 'aria-label': 'Chat lines' });
  const input = h('input', { id: 'chat-input', maxlength: MAX_CHAT_CHARS, autocomplete: 'off', 'aria-label': 'Chat message', placeholder: 'Say something to the table' });
  const note = h('p', { class: 'chat-note', id: 'chat-note' });
  const status = h('p', { class: 'status chat-status', role: 'status', id: 'chat-status' });
  let sentAt = 0;
  const form = h('form', {
    class: 'chat-form', 'aria-label': 'Send a chat line',
    onsubmit: (e: Event) => {
      e.preventDefault();
      const c = chatText(input.value);
      if ('error' in c) { status.textContent = c.error; return; }
      status.textContent = '';
      sentAt = Date.now();
      say(c.text);
      input.value = '';
    },
  }, input, ' ', h('button', { type: 'submit', id: 'chat-send' }, 'Send'));
  const element = h('section', { class: 'panel chat', id: 'chat', 'aria-label': 'Table chat' }, h('h2', {}, 'Chat'), list, form, note, status);
  const item = (l: ChatLine): HTMLElement => h('li', { class: `chat-line chat-${l.channel}`, 'data-channel': l.channel },
    l.channel === 'spectators' ? h('span', { class: 'chat-channel' }, '(spectators) ') : null,
    h('span', { class: 'chat-from' }, l.player ? link(l.player) : l.from), ': ', h('span', { class: 'chat-text' }, l.text));
  const scroll = (): void => { list.scrollTop = list.scrollHeight; };
  return {
    element,
    reset(lines) { list.replaceChildren(...lines.map(item)); scroll(); },
    add(line) {
      list.append(item(line));
      // The server keeps the last 100; so does the page.
      while (list.children.length > 100) list.firstElementChild?.remove();
      scroll();
    },
    claims(code) { return code === 'bad_chat' || (code === 'rate_limited' && Date.now() - sentAt < 3000); },
    error(message) { status.textContent = message; },
    spectating(yes) {
      note.textContent = yes ? 'You are watching: your lines go to the spectators only; the players’ lines are shown to all.' : 'Everyone at the table reads this, spectators too.';
    },
  };
}
