// The facts of the feature under the pointer ("city (open): 3 tiles, worth
// 6 now; no followers"), over the board's bottom edge in a box of fixed
// size: pointing at the board never moves anything beside it. The
// feature's tiles are outlined on the board meanwhile.

import { featureInfo, type FeatureInfo } from '../api';
import { h } from '../dom';
import type { Pt } from '../geometry';
import type { FeatureAt } from './log';

/** The facts in words: "city (open): 3 tiles, 1 coat of arms, worth 8 now; followers: RED 1". */
export function featureText(f: FeatureInfo, players: string[]): string {
  const owners = f.followers.map((n, i) => (n > 0 ? `${players[i] ?? i} ${n}` : '')).filter((x) => x).join(', ');
  const state = f.kind === 'city' || f.kind === 'road' ? (f.complete ? 'complete' : 'open') : '';
  const extra = f.kind === 'city' && f.extra > 0 ? `, ${f.extra} coat${f.extra > 1 ? 's' : ''} of arms` : f.kind === 'field' ? `, ${f.extra} completed cit${f.extra === 1 ? 'y' : 'ies'}` : '';
  return `${f.kind}${state ? ` (${state})` : ''}: ${f.tiles} tile${f.tiles === 1 ? '' : 's'}${extra}, worth ${f.points} now; ${owners ? `followers: ${owners}` : 'no followers'}`;
}

export interface FactsPanel {
  /** The box over the board (the table puts it in the board's frame). */
  element: HTMLElement;
  /**
   * Shows the facts of `ref` as the game stands at `version` (null: none,
   * and the board outlines `rest` again); `outline` lights its tiles.
   */
  show(ref: FeatureAt | null, version: number, players: string[], outline: (cells: Pt[]) => void, rest: Pt[]): void;
}

export function factsPanel(game: string): FactsPanel {
  const element = h('p', { id: 'feature-info', class: 'board-facts', 'aria-live': 'polite' });
  // Feature details by "version x y place half": the board only changes with the version.
  const asked = new Map<string, Promise<FeatureInfo>>();
  return {
    element,
    show(ref, version, players, outline, rest) {
      if (!ref) { outline(rest); element.textContent = ''; return; }
      const key = `${version} ${ref.x} ${ref.y} ${ref.place} ${ref.half ?? ''}`;
      let p = asked.get(key);
      if (!p) { p = featureInfo(game, ref); asked.set(key, p); }
      p.then((f) => {
        outline(f.cells.map(([x, y]) => ({ x, y })));
        element.textContent = featureText(f, players);
      }).catch(() => { element.textContent = ''; });
    },
  };
}
