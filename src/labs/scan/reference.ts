/**
 * CPU references and formulas for the scan lab: what the kernels must output, and the counts the
 * work counter shows beside what the simulator measured.
 */
import type { BindingData } from '../../kernel/types.ts';

/**
 * Sequential scan in the input's own arithmetic: u32 wraps modulo 2^32, i32 wraps in two's
 * complement (as WGSL integers do), f32 rounds after every addition (left to right). Returns an
 * array of the same type.
 */
export function scanReference<A extends BindingData>(input: A, exclusive: boolean): A {
  const out = input.slice() as A;
  const n = input.length;
  const add =
    input instanceof Uint32Array
      ? (a: number, b: number) => (a + b) >>> 0
      : input instanceof Int32Array
        ? (a: number, b: number) => (a + b) | 0
        : (a: number, b: number) => Math.fround(a + b);
  let acc = 0;
  for (let i = 0; i < n; i++) {
    const v = input[i]!;
    if (exclusive) {
      out[i] = acc;
      acc = add(acc, v);
    } else {
      acc = add(acc, v);
      out[i] = acc;
    }
  }
  return out;
}

/** Sequential scan in double precision: the yardstick for f32 results summed in other orders. */
export function scanReferenceF64(input: ArrayLike<number>, exclusive: boolean): Float64Array {
  const out = new Float64Array(input.length);
  let acc = 0;
  for (let i = 0; i < input.length; i++) {
    if (exclusive) {
      out[i] = acc;
      acc += input[i]!;
    } else {
      acc += input[i]!;
      out[i] = acc;
    }
  }
  return out;
}

/**
 * Summed-area table of a row-major width × height matrix, rows then columns, each in the input's
 * arithmetic (see {@link scanReference}). Exclusive leaves out the cell's own row and column.
 */
export function summedAreaReference<A extends BindingData>(input: A, width: number, height: number, exclusive: boolean): A {
  if (input.length !== width * height) throw new RangeError(`${input.length} elements are not ${width} × ${height}`);
  const out = input.slice() as A;
  for (let y = 0; y < height; y++) {
    out.set(scanReference(input.subarray(y * width, (y + 1) * width) as A, exclusive), y * width);
  }
  const column = out.slice(0, height) as A;
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) column[y] = out[y * width + x]!;
    const scanned = scanReference(column, exclusive);
    for (let y = 0; y < height; y++) out[y * width + x] = scanned[y]!;
  }
  return out;
}

/**
 * Additions Hillis–Steele performs on n elements (n a power of two, one workgroup): at step k the
 * n − 2^k elements with a neighbour 2^k to their left add it, so Σ_{k<log2 n} (n − 2^k) =
 * n·log2 n − (n − 1). n = 1024: 9 217.
 */
export function hillisSteeleAdditions(n: number): number {
  return n <= 1 ? 0 : n * Math.log2(n) - (n - 1);
}

/**
 * Additions Blelloch's scan performs on n elements (n a power of two): n − 1 in the up-sweep (a
 * binary tree has n − 1 inner nodes) and n − 1 in the down-sweep. n = 1024: 2 046.
 */
export function blellochAdditions(n: number): number {
  return n <= 1 ? 0 : 2 * (n - 1);
}

/** Additions of a sequential loop: the work-efficiency yardstick. */
export function sequentialAdditions(n: number): number {
  return Math.max(0, n - 1);
}

/**
 * The fewest bytes any out-of-place scan of n 4-byte elements moves: each element read once and
 * written once. GB/s figures divide this by the time, whatever extra traffic a variant makes
 * (a multi-pass scan reads and writes the array about twice), so they compare like a copy.
 */
export function bytesMoved(n: number, bytesPerElement = 4): number {
  return 2 * bytesPerElement * n;
}
