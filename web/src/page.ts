// A game's page as the server sends it (crates/server/src/assets.rs,
// table_page): the table's markup with the board's tiles already drawn, and
// the public state a spectator's `welcome` carries, as JSON. The board is
// painted with the page; the client takes it over from this state, and the
// WebSocket's `welcome` (a seat's own view, or a newer version) updates it.

import { parseLayout, type TileLayout } from './api';
import { arr, obj, str } from './json';
import { parseServerMessage, type ServerMessage } from './protocol';

/** A tile kind and rotation drawn in the page: its `<symbol>`'s id and its layout. */
export interface PageTile { key: string; symbol: string; layout: TileLayout }

export interface ServerPage {
  /** The board's SVG, with its `<defs>`, layers and one `<use>` per piece. */
  svg: SVGSVGElement;
  /** The side panel's element. */
  side: HTMLElement;
  welcome: Extract<ServerMessage, { type: 'welcome' }>;
  tiles: PageTile[];
}

/** The embedded state's two JSON texts, checked (throws `InvalidMessage` on anything else). */
export function parsePage(welcomeText: string, tilesText: string): { welcome: ServerPage['welcome']; tiles: PageTile[] } {
  const welcome = parseServerMessage(welcomeText);
  if (welcome.type !== 'welcome') throw new Error('the page holds no welcome');
  const tiles = arr(JSON.parse(tilesText) as unknown, 'tiles', (t, q) => {
    const o = obj(t, q);
    return { key: str(o.key, `${q}.key`), symbol: str(o.symbol, `${q}.symbol`), layout: parseLayout(o.layout) };
  });
  return { welcome, tiles };
}

/**
 * The board the server drew into this page for `game`, taken once (the
 * JSON elements are removed: a later visit to the same address within the
 * page, e.g. back from the lobby, draws as usual); `null` when the page
 * holds none, or one that cannot be read.
 */
export function serverPage(root: HTMLElement, game: string): ServerPage | null {
  const w = document.getElementById('bastide-welcome');
  const t = document.getElementById('bastide-tiles');
  w?.remove();
  t?.remove();
  const svg = root.querySelector('svg.board[data-game]');
  const side = root.querySelector('aside.side');
  if (!w || !t || !(svg instanceof SVGSVGElement) || !(side instanceof HTMLElement) || svg.dataset.game !== game) return null;
  try {
    const { welcome, tiles } = parsePage(w.textContent ?? '', t.textContent ?? '');
    return welcome.game === game ? { svg, side, welcome, tiles } : null;
  } catch {
    return null;
  }
}
