/** A line diff of a draft against the original kernel, for the editor's Diff tab. */

export interface DiffLine {
  readonly op: ' ' | '-' | '+';
  readonly text: string;
  /** Line number in the original (for ' ' and '-') or in the draft (for '+'). */
  readonly line: number;
}

/** Lines beyond which the diff is not computed (kernels are far shorter). */
export const MAX_DIFF_LINES = 3000;

/** The longest-common-subsequence diff of two texts by line; undefined when either is too long. */
export function lineDiff(original: string, draft: string): DiffLine[] | undefined {
  const a = original.split('\n');
  const b = draft.split('\n');
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES) return undefined;
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the common lines of a[i..] and b[j..], in one flat array.
  const lcs = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] = a[i] === b[j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]!, line: i + 1 });
      i++;
      j++;
    } else if (j < m && (i >= n || lcs[i * (m + 1) + j + 1]! >= lcs[(i + 1) * (m + 1) + j]!)) {
      out.push({ op: '+', text: b[j]!, line: j + 1 });
      j++;
    } else {
      out.push({ op: '-', text: a[i]!, line: i + 1 });
      i++;
    }
  }
  return out;
}
