/**
 * The stage camera's arithmetic, without React or the DOM: which columns of a picture fit a panel
 * so that the subject is whole and legible, and how what lies outside is summarised. A panel
 * measures its width, asks `frameColumns` which columns to draw, and draws each collapsed run as
 * one narrow "⋯ 1–15" column, so the learner sees that there is more and where.
 */

/** One column of the framed picture: a real column, or a run of columns drawn collapsed. */
export type FramedColumn = { readonly kind: 'column'; readonly index: number } | { readonly kind: 'gap'; readonly from: number; readonly to: number };

/** What a collapsed run costs, in columns (it is drawn narrower than a real one). */
export const GAP_COST = 0.6;

/**
 * Columns 0…total−1 framed to at most `budget` column widths: every column in `subject` is shown;
 * the rest of the budget goes to the subject's neighbours, nearest first, then to the columns at
 * the start (the first words give the picture its bearings); runs that do not fit collapse.
 */
export function frameColumns(total: number, subject: readonly number[], budget: number): FramedColumn[] {
  const all = (): FramedColumn[] => Array.from({ length: total }, (_, index) => ({ kind: 'column', index }));
  if (total <= Math.floor(budget)) return all();
  const wanted = [...new Set(subject.filter((c) => c >= 0 && c < total))].sort((a, b) => a - b);
  const shown = new Set(wanted.length > 0 ? wanted : [0]);
  const cost = () => {
    let gaps = 0;
    for (let c = 0; c < total; c++) if (!shown.has(c) && (c === 0 || shown.has(c - 1))) gaps++;
    return shown.size + gaps * GAP_COST;
  };
  // Grow outwards from the subject one ring at a time (distance 1, 2, …), then from column 0.
  const seeds = [...shown];
  for (let d = 1; d < total; d++) {
    let grew = false;
    for (const c of seeds) {
      for (const n of [c - d, c + d]) {
        if (n < 0 || n >= total || shown.has(n)) continue;
        shown.add(n);
        if (cost() > budget) {
          shown.delete(n);
          continue;
        }
        grew = true;
      }
    }
    if (!grew) break;
  }
  const out: FramedColumn[] = [];
  for (let c = 0; c < total; c++) {
    if (shown.has(c)) out.push({ kind: 'column', index: c });
    else {
      const last = out[out.length - 1];
      if (last?.kind === 'gap') out[out.length - 1] = { kind: 'gap', from: last.from, to: c };
      else out.push({ kind: 'gap', from: c, to: c });
    }
  }
  return out;
}

/** x offsets of framed columns: real columns `width` wide, gaps `width · GAP_COST`. */
export function columnOffsets(frame: readonly FramedColumn[], width: number): { x: number[]; total: number; at: Map<number, number> } {
  const x: number[] = [];
  const at = new Map<number, number>();
  let left = 0;
  for (const col of frame) {
    x.push(left);
    if (col.kind === 'column') at.set(col.index, left);
    left += col.kind === 'column' ? width : width * GAP_COST;
  }
  return { x, total: left, at };
}

/** A framing as a short key (`0,1,2-15,16`), so that a view can keep one frame while it is unchanged. */
export function frameKey(frame: readonly FramedColumn[]): string {
  return frame.map((c) => (c.kind === 'column' ? String(c.index) : `${c.from}-${c.to}`)).join(',');
}

/** Parses `frameKey`'s output back into the framing. */
export function parseFrameKey(key: string): FramedColumn[] {
  if (key === '') return [];
  return key.split(',').map((part) => {
    const dash = part.indexOf('-');
    return dash < 0 ? { kind: 'column', index: Number(part) } : { kind: 'gap', from: Number(part.slice(0, dash)), to: Number(part.slice(dash + 1)) };
  });
}
