import { describe, expect, it } from 'vitest';
import { readRecord, replayBody } from '../src/record';

// A seed the server chooses: far above 2^53, where JavaScript numbers round.
const SEED = '14276715017308306393';
const text = `{
  "format": 1,
  "config": {"players": ["RED", "BLUE"], "seed": ${SEED}, "map": "ukraine", "base": "base"},
  "actions": [{"place": {"tile": "base/U", "x": 1, "y": 0, "rotation": 0}}, {"pass": {}}]
}`;

describe('records are kept lossless', () => {
  it('a seed above 2^53 is not what JSON.parse gives back', () => {
    // The defect this guards against: the round trip changes the seed.
    expect(JSON.stringify(JSON.parse(text))).not.toContain(SEED);
  });
  it('the replay body carries the seed digit for digit', () => {
    const r = readRecord(text);
    expect(r.actions).toBe(2);
    expect(r.map).toBe('ukraine');
    const body = replayBody(r, 1);
    expect(body).toContain(`"seed": ${SEED}`);
    // Still JSON, the record and the step in it.
    const parsed = JSON.parse(body) as { record: { actions: unknown[] }; at: number };
    expect(parsed.at).toBe(1);
    expect(parsed.record.actions).toHaveLength(2);
    // Exactly the record's text between the wrapper's braces.
    expect(body).toBe(`{"record":${text.trim()},"at":1}`);
  });
  it('what is not a record is refused with a reason', () => {
    expect(() => readRecord('{"config": {}')).toThrow(/not JSON/);
    expect(() => readRecord('[1, 2]')).toThrow(/JSON object/);
    expect(() => readRecord('{"config": {}}')).toThrow(/"actions"/);
    expect(() => replayBody(readRecord(text), -1)).toThrow(/whole number/);
    expect(() => replayBody(readRecord(text), 1.5)).toThrow(/whole number/);
  });
});
