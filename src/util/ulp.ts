/**
 * Distance between f32 values in units in the last place: the values' bit patterns laid on one
 * monotonic integer line (negative floats mirrored below zero, so -0 and +0 are both 0), where
 * |a - b| counts the representable floats between them.
 */
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** An f32's bit pattern (a u32) on the ordered line. */
export function orderedBits(bits: number): number {
  return bits & 0x80000000 ? -(bits & 0x7fffffff) : bits >>> 0;
}

/** The number `x`, rounded to f32, on the ordered line. */
export function orderedF32(x: number): number {
  f32[0] = x;
  return orderedBits(u32[0]!);
}

/** ulps between two numbers taken as f32 values. */
export function ulpDistance(a: number, b: number): number {
  return Math.abs(orderedF32(a) - orderedF32(b));
}

/** ulps between two f32 bit patterns (u32 words read back from a buffer). */
export function ulpDistanceOfBits(a: number, b: number): number {
  return Math.abs(orderedBits(a) - orderedBits(b));
}
