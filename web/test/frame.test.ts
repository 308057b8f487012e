import { describe, expect, it } from 'vitest';
import { coalesce, gesture, type Timers } from '../src/frame';
import { CELL, cameraTransform, cellBox, screenToWorld, unionBox, worldToScreen, zoomAt, type Camera } from '../src/geometry';

/** A frame clock run by hand. */
function frames(): { request: (cb: () => void) => void; tick(): void; queued(): number } {
  let q: (() => void)[] = [];
  return {
    request: (cb) => { q.push(cb); },
    tick() { const now = q; q = []; for (const cb of now) cb(); },
    queued: () => q.length,
  };
}

describe('coalesce', () => {
  /** Plays `steps` (s: schedule, f: flush, t: a frame) and returns the writes done after each step. */
  const play = (steps: string): number[] => {
    const f = frames();
    let writes = 0;
    const c = coalesce(() => { writes++; }, f.request);
    return [...steps].map((step) => {
      if (step === 's') c.schedule(); else if (step === 'f') c.flush(); else f.tick();
      return writes;
    });
  };

  it('writes once per frame however many events came', () => {
    expect(play('sssss' + 't' + 't' + 'st')).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 2]);
    const f = frames();
    const c = coalesce(() => undefined, f.request);
    for (let i = 0; i < 10; i++) c.schedule();
    expect(f.queued()).toBe(1);
  });

  it('flush writes a pending change now and the frame then does nothing', () => {
    // A schedule after a flush gets its own frame even though the old one is still queued.
    expect(play('f' + 'sf' + 't' + 'st')).toEqual([0, 0, 1, 1, 1, 2]);
  });
});

describe('gesture', () => {
  function clock(): Timers & { advance(ms: number): void } {
    let now = 0;
    let next = 0;
    const timers = new Map<number, { at: number; cb: () => void }>();
    return {
      set(cb, ms) { timers.set(++next, { at: now + ms, cb }); return next; },
      clear(h) { timers.delete(h as number); },
      advance(ms) {
        now += ms;
        for (const [h, t] of [...timers]) if (t.at <= now) { timers.delete(h); t.cb(); }
      },
    };
  }

  it('starts on the first event and ends after a quiet spell', () => {
    const t = clock();
    const log: string[] = [];
    const g = gesture(() => log.push('start'), () => log.push('end'), 100, t);
    g.poke();
    t.advance(60);
    g.poke();
    t.advance(60);
    g.poke();
    expect(log).toEqual(['start']);
    expect(g.active()).toBe(true);
    t.advance(100);
    expect(log).toEqual(['start', 'end']);
    expect(g.active()).toBe(false);
    g.poke();
    expect(log).toEqual(['start', 'end', 'start']);
  });
});

describe('camera transform', () => {
  const box = { x: -300, y: -200, width: 900, height: 700 };
  /** Where the transformed element puts a world point on the screen. */
  const place = (c: Camera, w: { x: number; y: number }): { x: number; y: number } => {
    const m = /translate\((.+)px, (.+)px\) scale\((.+)\)/.exec(cameraTransform(c, box));
    if (!m) throw new Error('no transform');
    const [tx, ty, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return { x: tx + (w.x - box.x) * s, y: ty + (w.y - box.y) * s };
  };

  it('puts every world point where the camera sees it', () => {
    for (const c of [{ x: 0, y: 0, scale: 1 }, { x: -150, y: 40, scale: 0.4 }, { x: 12.5, y: -80, scale: 2.5 }]) {
      for (const w of [{ x: 0, y: 0 }, { x: 250, y: -120 }, { x: -300, y: 500 }]) {
        const got = place(c, w);
        const want = worldToScreen(c, w);
        expect(got.x).toBeCloseTo(want.x, 9);
        expect(got.y).toBeCloseTo(want.y, 9);
      }
    }
  });

  it('zooming about a point keeps it in place through the transform', () => {
    const c = { x: -100, y: -50, scale: 1 };
    const screen = { x: 300, y: 200 };
    const w = screenToWorld(c, screen);
    const z = zoomAt(c, screen, 1.7);
    const got = place(z, w);
    expect(got.x).toBeCloseTo(screen.x, 9);
    expect(got.y).toBeCloseTo(screen.y, 9);
  });
});

describe('world boxes', () => {
  it('cover the cells with a margin', () => {
    expect(cellBox([], 2)).toBeNull();
    expect(cellBox([{ x: 0, y: 0 }], 1)).toEqual({ x: -CELL, y: -CELL, width: 3 * CELL, height: 3 * CELL });
    expect(cellBox([{ x: 2, y: -1 }, { x: -1, y: 3 }], 0)).toEqual({ x: -CELL, y: -CELL, width: 4 * CELL, height: 5 * CELL });
  });

  it('grow by union and keep their identity when nothing grows', () => {
    const a = { x: 0, y: 0, width: 500, height: 500 };
    expect(unionBox(a, { x: 100, y: 100, width: 100, height: 100 })).toBe(a);
    expect(unionBox(a, null)).toBe(a);
    expect(unionBox(null, a)).toBe(a);
    expect(unionBox(a, { x: -100, y: 400, width: 100, height: 200 })).toEqual({ x: -100, y: 0, width: 600, height: 600 });
  });
});
