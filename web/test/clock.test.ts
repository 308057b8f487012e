import { describe, expect, it } from 'vitest';
import { clockRequest, clockWords, formatClock, isLow, seatClocks } from '../src/clock';
import { parseClock, parseServerMessage } from '../src/protocol';

const clock = parseClock({
  spec: { initial_ms: 600000, increment_ms: 5000, on_timeout: 'lose' },
  remaining_ms: [598200, 600000], since: 1_000_000, running: 0, turn_started: 999_000, deadline: 1_598_200,
});

describe('clocks at the table', () => {
  it('reads the server\'s clock', () => {
    expect(clock).toMatchObject({ remainingMs: [598200, 600000], running: 0, deadline: 1_598_200, spec: { initialMs: 600000, incrementMs: 5000, turnMs: null } });
    const m = parseServerMessage(JSON.stringify({ status: { status: 'resigned', version: 3, resigned: 1, timeout: 1, clock: { spec: { turn_ms: 60000 }, remaining_ms: null, since: 5, running: null, turn_started: 5, deadline: null } } }));
    expect(m.type === 'status' && m.timeout).toBe(1);
    expect(m.type === 'status' && m.clock?.spec.turnMs).toBe(60000);
  });

  it('reads the welcome of a timed game still waiting for players (the spec alone)', () => {
    const m = parseServerMessage(JSON.stringify({ welcome: {
      game: 'g', seat: 0, status: 'open', version: 0, resigned: null, players: ['Ann', 'Bea'], seats: [], config: {}, view: null, legal: null,
      clock: { spec: { initial_ms: 180000, increment_ms: 5000, on_timeout: 'lose' } }, chat: [],
    } }));
    expect(m.type === 'welcome' && m.clock).toMatchObject({ since: null, remainingMs: null, running: null, spec: { initialMs: 180000 } });
    const open = parseClock({ spec: { turn_ms: 86_400_000 } });
    expect(seatClocks(open, 2, 5)).toEqual([{ seat: 0, ms: null, running: false, low: false }, { seat: 1, ms: null, running: false, low: false }]);
  });

  it('counts the running seat down, the others stay', () => {
    const [a, b] = seatClocks(clock, 2, 1_010_000);
    expect(a).toEqual({ seat: 0, ms: 588200, running: true, low: false });
    expect(b).toEqual({ seat: 1, ms: 600000, running: false, low: false });
    expect(seatClocks(clock, 2, 1_590_000)[0]).toMatchObject({ ms: 8200, low: true });
    expect(seatClocks(clock, 2, 2_000_000)[0]?.ms).toBe(0);
  });

  it('a turn limit: only the running seat has a time, up to its deadline', () => {
    const turn = parseClock({ spec: { turn_ms: 60000 }, remaining_ms: null, since: 0, running: 1, turn_started: 0, deadline: 60000 });
    expect(seatClocks(turn, 2, 15000)).toEqual([{ seat: 0, ms: null, running: false, low: false }, { seat: 1, ms: 45000, running: true, low: false }]);
    expect(seatClocks(turn, 2, 55000)[1]?.low).toBe(true);
  });

  it('writes times as a clock does', () => {
    expect(formatClock(245_000)).toBe('4:05');
    expect(formatClock(9_340)).toBe('0:09.3');
    expect(formatClock(3_723_000)).toBe('1:02:03');
    expect(formatClock(2 * 86_400_000 + 3 * 3_600_000)).toBe('2 d 3 h');
    expect(formatClock(-5)).toBe('0:00.0');
    expect(isLow(90_000, 600_000)).toBe(false);
    expect(isLow(15_000, null)).toBe(true);
    expect(isLow(50_000, 600_000)).toBe(true);
  });

  it('the lobby asks for the time control chosen', () => {
    expect(clockRequest('none', 'lose')).toBeNull();
    expect(clockRequest('rapid', 'bot')).toEqual({ initial_ms: 600000, increment_ms: 10000, on_timeout: 'bot' });
    expect(clockRequest('turn', 'x')).toEqual({ turn_ms: 60000, on_timeout: 'lose' });
  });
});

describe('a time control in words, for the lists of games', () => {
  it('says the lobby\'s own label, else its parts, and "no clock"', () => {
    expect(clockWords(null)).toBe('no clock');
    expect(clockWords({ initial_ms: 180_000, increment_ms: 5_000, on_timeout: 'lose' })).toBe('3 min + 5 s a turn');
    expect(clockWords({ turn_ms: 86_400_000, days_per_move: 1, increment_ms: 0 })).toBe('Correspondence: 1 day a turn');
    expect(clockWords({ turn_ms: 3 * 86_400_000, days_per_move: 3 })).toBe('3 days a turn');
    expect(clockWords({ initial_ms: 300_000, increment_ms: 0, turn_ms: 30_000 })).toBe('5 min, at most 30 s a turn');
  });
});
