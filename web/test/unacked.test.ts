import { describe, expect, it } from 'vitest';
import type { Action, ServerMessage } from '../src/protocol';
import type { GameState } from '../src/state';
import { LOST, onPlayed, onRefused, onWelcome, settle, type Unacked } from '../src/unacked';

const pass: Action = { kind: 'pass' };
const place: Action = { kind: 'place', tile: 'base/U', x: 1, y: 0, rotation: 90, half: null };
const sent = (action: Action, resent = false): Unacked => ({ action, version: 5, legal: [action], resent });

describe('an action the connection lost', () => {
  it('is sent again once when the server is where it was sent and still allows it', () => {
    expect(onWelcome(sent(pass), 5, [place, pass])).toBe('resend');
    // An equal action built anew counts as the same.
    expect(onWelcome(sent({ ...place }), 5, [{ kind: 'place', tile: 'base/U', x: 1, y: 0, rotation: 90, half: null }])).toBe('resend');
    expect(onWelcome(sent(pass, true), 5, [pass])).toBe('lost');
  });
  it('is reported when it is no longer legal there', () => {
    expect(onWelcome(sent(pass), 5, [place])).toBe('lost');
    expect(onWelcome(sent({ ...place, rotation: 0 }), 5, [place])).toBe('lost');
    expect(onWelcome(sent(pass), 5, [])).toBe('lost');
  });
  it('waits for the catch-up when the server moved on', () => {
    expect(onWelcome(sent(pass), 6, [])).toBe('wait');
  });
  it('is acknowledged by its own played message, lost to another', () => {
    expect(onPlayed(sent(pass), { version: 6, seat: 0, action: pass }, 0)).toBe('acked');
    expect(onPlayed(sent(pass), { version: 6, seat: 1, action: pass }, 0)).toBe('lost');
    expect(onPlayed(sent(pass), { version: 6, seat: 0, action: place }, 0)).toBe('lost');
    expect(onPlayed(sent(pass), { version: 7, seat: 0, action: pass }, 0)).toBe('lost');
    expect(onPlayed(sent(pass), { version: 5, seat: 0, action: place }, 0)).toBe('pending');
  });
  it('is sent again once when the server ignored it for its message rate, and offered again when refused', () => {
    expect(onRefused(sent(pass), 'rate_limited')).toBe('retry');
    expect(onRefused(sent(pass, true), 'rate_limited')).toBe('offer');
    expect(onRefused(sent(pass), 'illegal_action')).toBe('offer');
  });
});

describe('settling an action sent', () => {
  const state = { seat: 0, legal: [], error: null } as unknown as GameState;
  const err = (code: string): ServerMessage => ({ type: 'error', code, message: '' });
  it('says what the connection must do for each answer', () => {
    expect(settle(sent(pass), err('stale_version'), state)).toMatchObject({ unacked: null, effect: 'reconnect' });
    expect(settle(sent(pass), err('lagged'), state)).toMatchObject({ unacked: sent(pass), effect: 'none' });
    expect(settle(sent(pass), err('rate_limited'), state)).toMatchObject({ unacked: sent(pass, true), effect: 'retry', state: { legal: [] } });
    // Refused: the legal moves it was chosen from come back.
    expect(settle(sent(pass), err('illegal'), state)).toMatchObject({ unacked: null, effect: 'none', state: { legal: [pass] } });
    expect(settle(sent(pass), { type: 'played', version: 6, seat: 1, action: pass } as ServerMessage, state)).toMatchObject({ unacked: null, state: { error: LOST } });
    expect(settle(sent(pass), { type: 'played', version: 5, seat: 0, action: place } as ServerMessage, state).unacked).toEqual(sent(pass));
  });
});
