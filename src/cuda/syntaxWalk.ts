/**
 * One step of a walk over the CUDA syntax tree: `f` on each child node of `n` (an object or an
 * array of them), skipping source ranges and plain values, until `f` returns true.
 */
export function forChildren(n: object, f: (child: unknown) => boolean): boolean {
  for (const k in n) {
    if (k === 'range' || k === 'nameRange') continue;
    const v = (n as Record<string, unknown>)[k];
    if (v && typeof v === 'object' && f(v)) return true;
  }
  return false;
}
