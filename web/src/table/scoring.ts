// A move seen live that scored: "+N" over the scored feature and at the
// seat, the feature's tiles lit in the scorer's colour for a moment (the
// engine's feature lookup, as for hovering).

import { featureInfo } from '../api';
import type { Board } from '../board';
import { playerColour } from '../colours';
import { gains, gainsBySeat } from '../follow';
import type { ScoreEvent } from '../protocol';
import type { LogEntry } from '../state';
import { eventRef, type FeatureAt } from '../panels/log';

/** The cells of a feature (none for no feature, or when the lookup fails). */
export function featureCells(game: string, ref: FeatureAt | null): Promise<{ x: number; y: number }[]> {
  return ref ? featureInfo(game, ref).then((f) => f.cells.map(([x, y]) => ({ x, y })), () => []) : Promise.resolve([]);
}

/** The features of `events` that scored, once each, with the seat that scored first. */
export function scoredFeatures(events: ScoreEvent[]): { ref: FeatureAt; seat: number }[] {
  const out: { ref: FeatureAt; seat: number }[] = [];
  const seen = new Set<string>();
  for (const e of events) {
    const seat = e.points.findIndex((p) => p > 0);
    const ref = eventRef(e);
    if (seat < 0 || !ref) continue;
    const key = `${ref.x},${ref.y},${ref.place},${ref.half ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ref, seat });
  }
  return out;
}

/**
 * Shows what `entry` scored: "+N" over each scored feature (over
 * `fallback`, the tile placed last, for a score of no place) and at the
 * seats (`seatGain`), the features' tiles lit in the scorer's colour.
 */
export function showScore(game: string, board: Board, players: string[], entry: LogEntry, fallback: { x: number; y: number } | null, seatGain: (g: Map<number, number>) => void): void {
  const gs = gains(entry, fallback);
  if (gs.length === 0) return;
  board.flash(gs.filter((g) => g.x !== null && g.y !== null).map((g) => ({ x: g.x ?? 0, y: g.y ?? 0, text: `+${g.points}`, colour: playerColour(players[g.seat] ?? '', g.seat), seat: g.seat })));
  for (const { ref, seat } of scoredFeatures(entry.events)) {
    const colour = playerColour(players[seat] ?? '', seat);
    void featureCells(game, ref).then((cells) => board.flashCells(cells, colour));
  }
  seatGain(gainsBySeat(gs));
}
