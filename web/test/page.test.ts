import { describe, expect, it } from 'vitest';
import { parsePage } from '../src/page';
import { reduce } from '../src/state';

const layout = { id: 'base/D', rotation: 90, width: 100, height: 100, origin: [0, 0], cell: 100, cells: [[0, 0]], spots: [{ cell: [0, 0], place: 'N', feature: 0, kind: 'city', x: 50, y: 20, lying: false }] };
// As the server writes it: `<`, `>` and `&` escaped inside the JSON strings.
const welcome = JSON.stringify({ welcome: {
  game: 'abc', seat: null, status: 'playing', version: 4, resigned: null, players: ['</script>', 'B'],
  seats: [{ seat: 0, kind: 'human', joined: true }, { seat: 1, kind: 'greedy', joined: true }], config: { players: ['</script>', 'B'] },
  view: { players: ['</script>', 'B'], scores: [0, 0], finished: false, current_player: 0, phase: 'place', drawn: null, tiles_left: 3, supply: [7, 7], events: [], board: [{ tile: 'base/D', x: 0, y: 0, rotation: 90 }], followers: [], seat: null },
} }).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

describe("a game's page", () => {
  it('holds a welcome and the layouts of its symbols', () => {
    const p = parsePage(welcome, JSON.stringify([{ key: 'base/D@90', symbol: 'tile-0', layout }]));
    expect(p.welcome.players[0]).toBe('</script>');
    expect(p.tiles[0]?.symbol).toBe('tile-0');
    expect(p.tiles[0]?.layout.spots[0]?.place).toBe('N');
    // The client starts from it as from a spectator's welcome.
    const s = reduce(null, p.welcome);
    expect(s?.seat).toBeNull();
    expect(s?.view?.board).toHaveLength(1);
    expect(s?.legal).toEqual([]);
  });
  it('is refused when it is not a welcome or the tiles are malformed', () => {
    expect(() => parsePage(JSON.stringify({ pong: {} }), '[]')).toThrow();
    expect(() => parsePage(welcome, JSON.stringify([{ key: 'base/D@90', layout }]))).toThrow();
    expect(() => parsePage(welcome, '{')).toThrow();
  });
});
