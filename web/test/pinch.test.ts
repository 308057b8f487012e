import { describe, expect, it } from 'vitest';
import { MAX_SCALE, pinchStep, screenToWorld } from '../src/geometry';

describe('a two-finger gesture', () => {
  const c = { x: -100, y: -50, scale: 1 };
  it('zooms about the fingers: what lay under their middle stays under it', () => {
    const mid = { x: 200, y: 150 };
    const next = pinchStep(c, { mid, d: 100 }, { mid, d: 200 });
    expect(next.scale).toBe(2);
    expect(screenToWorld(next, mid)).toEqual(screenToWorld(c, mid));
  });
  it('pans when both fingers move together, and keeps within the zoom limits', () => {
    const next = pinchStep(c, { mid: { x: 200, y: 150 }, d: 100 }, { mid: { x: 230, y: 110 }, d: 100 });
    expect(next.scale).toBe(1);
    expect(screenToWorld(next, { x: 230, y: 110 })).toEqual(screenToWorld(c, { x: 200, y: 150 }));
    expect(pinchStep(c, { mid: { x: 0, y: 0 }, d: 1 }, { mid: { x: 0, y: 0 }, d: 1000 }).scale).toBe(MAX_SCALE);
    expect(pinchStep(c, { mid: { x: 0, y: 0 }, d: 0 }, { mid: { x: 0, y: 0 }, d: 10 })).toBe(c);
  });
});
