// Scheduling of DOM writes: many input events per frame become one write
// (requestAnimationFrame), and a gesture is "on" from its first event
// until it has been quiet for a while (the board is a compositor layer
// only meanwhile, then drawn sharp again at its new scale).

/** Requests one call of a callback before the next frame. */
export type FrameRequest = (cb: () => void) => unknown;

/**
 * Returns `schedule`: however often it is called before a frame, `write`
 * runs once, in the next animation frame. `flush` runs a pending write now.
 */
export function coalesce(write: () => void, request: FrameRequest = (cb) => requestAnimationFrame(cb)): { schedule(): void; flush(): void } {
  let queued = false;
  let generation = 0;
  const run = (g: number): void => {
    if (!queued || g !== generation) return;
    queued = false;
    write();
  };
  return {
    schedule() {
      if (queued) return;
      queued = true;
      const g = ++generation;
      request(() => run(g));
    },
    flush() {
      if (!queued) return;
      queued = false;
      generation++;
      write();
    },
  };
}

export interface Timers { set(cb: () => void, ms: number): unknown; clear(handle: unknown): void }

const windowTimers: Timers = {
  set: (cb, ms) => window.setTimeout(cb, ms),
  clear: (h) => window.clearTimeout(h as number),
};

/**
 * Tracks a gesture made of many events: `poke` on each event calls
 * `start` on the first one and `end` once no event came for `quietMs`.
 */
export function gesture(start: () => void, end: () => void, quietMs: number, timers: Timers = windowTimers): { poke(): void; active(): boolean } {
  let handle: unknown = null;
  return {
    poke() {
      if (handle === null) start();
      else timers.clear(handle);
      handle = timers.set(() => { handle = null; end(); }, quietMs);
    },
    active: () => handle !== null,
  };
}
