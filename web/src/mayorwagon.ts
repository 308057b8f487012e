// Abbey & Mayor at the table: whether each seat's mayor and wagon are in
// its supply. Read from the view's expansion parts (notation.md: `mayors`,
// `wagons`); pure, tested in test/mayor-wagon.test.ts.

import type { View } from './protocol';

/** Whether each seat's mayor (or wagon) is in its supply (null: the game has no Abbey & Mayor). */
export function mayorWagonInSupply(view: View, figure: 'mayor' | 'wagon'): boolean[] | null {
  const v = view.extras[figure === 'mayor' ? 'mayors' : 'wagons'];
  return Array.isArray(v) ? v.map((x) => x === true) : null;
}

/** A seat's mayor and wagon in words: "mayor and wagon in the supply", "mayor on the board, wagon in the supply" ("" without them). */
export function mayorWagonWords(mayor: boolean | null, wagon: boolean | null): string {
  if (mayor === null || wagon === null) return '';
  const where = (home: boolean): string => (home ? 'in the supply' : 'on the board');
  return mayor === wagon ? `mayor and wagon ${where(mayor)}` : `mayor ${where(mayor)}, wagon ${where(wagon)}`;
}
