// The table's keys: R turns the tile, Enter confirms the placement, Esc
// takes it back (and a half-made choice), arrows pan, + and - zoom, F fits
// the board, L switches the figure. Not while typing, nor while the rules
// dialog is open.

/** What the keys do to the table. */
export interface TableKeys {
  rotate(): void;
  /** Confirms the previewed placement (when there is one). */
  confirm(): void;
  cancel(): void;
  panBy(dx: number, dy: number): void;
  zoomBy(f: number): void;
  refit(): void;
  nextFigure(): void;
  /** The rules dialog is open: its own keys (Esc closes it). */
  dialogOpen(): boolean;
}

/** Listens on the document; the function returned stops listening. */
export function listenKeys(k: TableKeys): () => void {
  const keys = (e: KeyboardEvent): void => {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
    if (k.dialogOpen()) return;
    const step = 60;
    switch (e.key) {
      case 'r': case 'R': k.rotate(); break;
      case 'Enter': if (!(t instanceof HTMLButtonElement)) k.confirm(); break;
      case 'Escape': k.cancel(); break;
      case 'ArrowLeft': k.panBy(step, 0); break;
      case 'ArrowRight': k.panBy(-step, 0); break;
      case 'ArrowUp': k.panBy(0, step); break;
      case 'ArrowDown': k.panBy(0, -step); break;
      case '+': case '=': k.zoomBy(1.2); break;
      case 'f': case 'F': k.refit(); break;
      case 'l': case 'L': k.nextFigure(); break;
      case '-': k.zoomBy(1 / 1.2); break;
      default: return;
    }
    if (e.key.startsWith('Arrow')) e.preventDefault();
  };
  document.addEventListener('keydown', keys);
  return () => document.removeEventListener('keydown', keys);
}
