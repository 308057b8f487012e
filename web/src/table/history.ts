// The moves before this page opened, from the server's move log
// (src/follow.ts): asked once at the start, and again when a move shows a
// gap (the server was down at load), at most three times a page.

import { fetchHistory } from '../follow';
import type { LogEntry } from '../state';

export interface History {
  readonly entries: LogEntry[];
  /** Asks for the log unless a request is on its way or three were made. */
  ask(): void;
}

/** `loaded` is called with each log that arrives. */
export function history(game: string, loaded: () => void): History {
  let entries: LogEntry[] = [];
  let asking = false;
  let tries = 0;
  return {
    get entries() { return entries; },
    ask() {
      if (asking || tries >= 3) return;
      asking = true;
      tries += 1;
      void fetchHistory(game).then((hs) => { if (hs) { entries = hs; loaded(); } asking = false; });
    },
  };
}
