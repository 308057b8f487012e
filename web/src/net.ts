// One game's WebSocket: hello with the seat's token, and a silent
// reconnect with `since` (the last version we have) after a drop, so the
// server sends exactly the missed actions.

import { InvalidMessage } from './json';
import { ClientMessage, ServerMessage, parseServerMessage } from './protocol';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface Connection {
  send(m: ClientMessage): void;
  close(): void;
}

/** The socket index.html's inline script opens, with the hello it sends and what came before this script took it. */
type EarlySocket = WebSocket & { bastideHello?: string; bastideSent?: boolean; bastideQueue?: MessageEvent<unknown>[] };

/**
 * The socket index.html's inline script opened for this address while the
 * client's script was loading (taken once: a reconnect opens its own). It
 * sends its hello as soon as it opens (a spectator's, or a seat's whose
 * token it found) and keeps the messages that come meanwhile; a socket
 * whose hello is not the one this client would send is closed.
 */
function earlySocket(url: string, hello: string): EarlySocket | null {
  const w = window as { bastideSocket?: EarlySocket };
  const early = w.bastideSocket;
  delete w.bastideSocket;
  if (!early || early.url !== url || early.readyState > WebSocket.OPEN) return null;
  if (early.bastideHello !== undefined && early.bastideHello !== hello) {
    early.close();
    return null;
  }
  return early;
}

export function connect(
  game: string,
  token: string | null,
  since: () => number | null,
  onMessage: (m: ServerMessage) => void,
  onState: (s: ConnectionState) => void,
): Connection {
  let ws: WebSocket | null = null;
  let stopped = false;
  let attempt = 0;
  let ping: number | undefined;
  const open = (): void => {
    onState('connecting');
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${proto}//${location.host}/api/games/${encodeURIComponent(game)}/ws`;
    const hello = JSON.stringify({ hello: { token, since: since() } });
    const early = earlySocket(url, hello);
    const sock: EarlySocket = early ?? new WebSocket(url);
    ws = sock;
    sock.onopen = () => {
      attempt = 0;
      if (performance.getEntriesByName('bastide:ws-open').length === 0) performance.mark('bastide:ws-open');
      if (!sock.bastideSent) sock.send(hello);
      onState('open');
      // The server closes connections silent for 15 minutes.
      ping = window.setInterval(() => sock.send(JSON.stringify({ ping: {} })), 60_000);
    };
    const receive = (e: MessageEvent<unknown>): void => {
      if (typeof e.data !== 'string') return;
      try {
        const m = parseServerMessage(e.data);
        if (m.type === 'error' && m.code === 'lagged') sock.close();
        // The game is gone: the server closes the socket, and there is nothing to come back to.
        if (m.type === 'gone') stopped = true;
        onMessage(m);
      } catch (err) {
        const text = err instanceof InvalidMessage ? err.message : String(err);
        onMessage({ type: 'error', code: 'client', message: `unreadable message from the server (${text})` });
      }
    };
    sock.onmessage = receive;
    // What the early socket received before this script ran, once the
    // caller has its connection (after the current task's script).
    const queued = early?.bastideQueue?.splice(0) ?? [];
    if (queued.length > 0) queueMicrotask(() => { for (const e of queued) receive(e); });
    sock.onclose = () => {
      window.clearInterval(ping);
      if (stopped) return;
      onState('closed');
      attempt += 1;
      // Back off up to 5 s: a restarting server is back within seconds.
      window.setTimeout(open, Math.min(5000, 200 * 2 ** attempt));
    };
    // An early socket may be open already: its open event has passed.
    if (sock.readyState === WebSocket.OPEN) sock.onopen(new Event('open'));
  };
  open();
  return {
    send(m) {
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
    },
    close() {
      stopped = true;
      ws?.close();
    },
  };
}

/** What handles each message of the server (the table). */
export type ServerHandler = (m: ServerMessage) => void;
