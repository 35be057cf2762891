/**
 * Writing CUDA sources in cases: `cu` keeps the text as written (backslashes included, so
 * `"%d\n"` stays a C escape) and drops the newline after the opening backtick, so the first line
 * of the template is line 1. `at` finds where a construct starts, for expected diagnostics.
 */
export function cu(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  return String.raw({ raw: strings.raw }, ...values).replace(/^\n/, '');
}

/** The 1-based line and column where the `nth` (from 1) occurrence of `needle` starts in `source`. */
export function at(source: string, needle: string, nth = 1): { line: number; column: number } {
  let from = -1;
  for (let k = 0; k < nth; k++) {
    from = source.indexOf(needle, from + 1);
    if (from < 0) throw new Error(`${JSON.stringify(needle)} occurs fewer than ${nth} times`);
  }
  const before = source.slice(0, from);
  return { line: before.split('\n').length, column: from - before.lastIndexOf('\n') };
}
