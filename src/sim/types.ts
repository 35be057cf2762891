/**
 * WGSL types as the simulator sees them. Values live flattened in registers ("slots": a vec3 is
 * 3 slots, a struct the sum of its members); in memory they follow WGSL's layout rules in 4-byte
 * words (vec3 aligns to 16 bytes, struct members to their alignment, array stride = roundUp).
 * f16 values take half a word: sizes, alignments and offsets of f16 types are multiples of 0.5
 * (an f16 is 0.5 words, vec2<f16> 1, vec3<f16> and vec4<f16> 2 with alignment 2).
 */

export type Scalar = 'u32' | 'i32' | 'f32' | 'f16' | 'bool' | 'ai' | 'af';

export type Ty =
  | { readonly k: 'scalar'; readonly s: Scalar }
  | { readonly k: 'vec'; readonly n: number; readonly s: Scalar }
  /** `matCxR`: C columns of vecR, column-major (registers: column j at slots j*R…). */
  | { readonly k: 'mat'; readonly c: number; readonly r: number; readonly s: Scalar }
  | { readonly k: 'array'; readonly elem: Ty; readonly count: number | null }
  | {
      readonly k: 'struct';
      readonly name: string;
      readonly members: readonly Member[];
      /** Alignment and size in words (from the members' @align/@size). */
      readonly align: number;
      readonly size: number;
    }
  | { readonly k: 'atomic'; readonly s: 'u32' | 'i32' }
  | { readonly k: 'ptr'; readonly space: string; readonly elem: Ty };

export interface Member {
  readonly name: string;
  readonly ty: Ty;
  /** Offset in words inside the struct's memory layout. */
  readonly offset: number;
  /** Offset in slots inside the struct's register layout. */
  readonly slot: number;
}

const scalars = new Map<Scalar, Ty>();
export function scalar(s: Scalar): Ty {
  let t = scalars.get(s);
  if (!t) {
    t = { k: 'scalar', s };
    scalars.set(s, t);
  }
  return t;
}
export const U32 = scalar('u32');
export const I32 = scalar('i32');
export const F32 = scalar('f32');
export const F16 = scalar('f16');
export const BOOL = scalar('bool');
export const AI = scalar('ai');
export const AF = scalar('af');

export function vec(n: number, s: Scalar): Ty {
  return n === 1 ? scalar(s) : { k: 'vec', n, s };
}

export function mat(c: number, r: number, s: Scalar): Ty {
  return { k: 'mat', c, r, s };
}

/** Words between a matrix's columns in memory (a column is a vecR: vec3 aligns to 4). */
export function columnStride(r: number): number {
  return r === 2 ? 2 : 4;
}

/** Number of register slots a value of this type occupies. */
export function slots(t: Ty): number {
  switch (t.k) {
    case 'scalar':
    case 'atomic':
    case 'ptr':
      return 1;
    case 'vec':
      return t.n;
    case 'mat':
      return t.c * t.r;
    case 'array':
      return (t.count ?? 0) * slots(t.elem);
    case 'struct':
      return t.members.reduce((a, m) => a + slots(m.ty), 0);
  }
}

/** WGSL alignment in words. */
export function alignOf(t: Ty): number {
  switch (t.k) {
    case 'scalar':
      return compWords(t.s);
    case 'atomic':
    case 'ptr':
      return 1;
    case 'vec':
      return (t.n === 2 ? 2 : 4) * compWords(t.s);
    case 'mat':
      return columnStride(t.r);
    case 'array':
      return alignOf(t.elem);
    case 'struct':
      return t.align;
  }
}

/** WGSL size in words (a runtime-sized array counts as 0 elements). */
export function sizeOf(t: Ty): number {
  switch (t.k) {
    case 'scalar':
      return compWords(t.s);
    case 'atomic':
    case 'ptr':
      return 1;
    case 'vec':
      return t.n * compWords(t.s);
    case 'mat':
      return t.c * columnStride(t.r);
    case 'array':
      return (t.count ?? 0) * strideOf(t.elem);
    case 'struct':
      return t.size;
  }
}

/** Words one scalar of `s` takes in memory, alone or as a vector's component (0.5 for f16). */
export function compWords(s: Scalar): number {
  return s === 'f16' ? 0.5 : 1;
}

/**
 * The fewest words a buffer bound to `t` may have (WebGPU's minimum binding size): its size, and
 * for a runtime-sized array (alone or ending a struct) room for one element.
 */
export function minBindingWords(t: Ty): number {
  if (t.k === 'array' && t.count === null) return strideOf(t.elem);
  if (t.k === 'struct') {
    const last = t.members[t.members.length - 1];
    if (last && last.ty.k === 'array' && last.ty.count === null) return roundUp(last.offset + strideOf(last.ty.elem), t.align);
  }
  return sizeOf(t);
}

export function strideOf(elem: Ty): number {
  return roundUp(sizeOf(elem), alignOf(elem));
}

export function roundUp(x: number, a: number): number {
  return Math.ceil(x / a) * a;
}

/**
 * A struct's layout. `align` and `size` are a member's `@align(n)` / `@size(n)` in BYTES when
 * given (WGSL's units); offsets follow WGSL: each member at the next multiple of its alignment.
 */
export function makeStruct(
  name: string,
  ms: readonly { name: string; ty: Ty; align?: number | undefined; size?: number | undefined }[],
): Ty {
  const members: Member[] = [];
  let off = 0;
  let slot = 0;
  // A struct aligns to its most aligned member (2 bytes for f16-only structs).
  let structAlign = 0;
  for (const m of ms) {
    // An @align below the type's own alignment is refused in storage and uniform memory (Tint:
    // the offset must be a multiple of it); elsewhere the member still aligns as its type does,
    // so a u32 never starts mid-word.
    const align = Math.max(m.align ?? 0, alignOf(m.ty) * 4);
    structAlign = Math.max(structAlign, align);
    off = roundUp(off, align);
    members.push({ name: m.name, ty: m.ty, offset: off / 4, slot });
    off += m.size ?? sizeOf(m.ty) * 4;
    slot += slots(m.ty);
  }
  const size = roundUp(off, structAlign);
  // Offsets and sizes are whole bytes, even ones with f16 members: word units in halves.
  return { k: 'struct', name, members, align: structAlign / 4, size: size / 4 };
}

/** The scalar type at the leaves of a numeric type (vectors, atomics). */
export function leafScalar(t: Ty): Scalar | null {
  if (t.k === 'scalar' || t.k === 'vec' || t.k === 'atomic' || t.k === 'mat') return t.s;
  return null;
}

export function isAbstract(t: Ty): boolean {
  const s = leafScalar(t);
  return s === 'ai' || s === 'af';
}

/** Replaces the abstract leaf scalar with `s` (abstract int → i32 by default). */
export function concretize(t: Ty, s?: Scalar): Ty {
  if (t.k === 'scalar') return t.s === 'ai' ? scalar(s ?? 'i32') : t.s === 'af' ? scalar(s ?? 'f32') : t;
  if (t.k === 'vec') return t.s === 'ai' || t.s === 'af' ? vec(t.n, s ?? (t.s === 'ai' ? 'i32' : 'f32')) : t;
  if (t.k === 'mat') return t.s === 'af' ? mat(t.c, t.r, 'f32') : t;
  if (t.k === 'array') return { k: 'array', elem: concretize(t.elem, s), count: t.count };
  return t;
}

export function typeName(t: Ty): string {
  switch (t.k) {
    case 'scalar':
      return t.s === 'ai' ? 'abstract-int' : t.s === 'af' ? 'abstract-float' : t.s;
    case 'vec':
      return `vec${t.n}<${typeName(scalar(t.s))}>`;
    case 'mat':
      return `mat${t.c}x${t.r}<${typeName(scalar(t.s))}>`;
    case 'array':
      return t.count === null ? `array<${typeName(t.elem)}>` : `array<${typeName(t.elem)}, ${t.count}>`;
    case 'struct':
      return t.name;
    case 'atomic':
      return `atomic<${t.s}>`;
    case 'ptr':
      return `ptr<${t.space}, ${typeName(t.elem)}>`;
  }
}

/** Whether f16 values occur anywhere in `t` (its memory then has half-word parts). */
export function hasF16(t: Ty): boolean {
  switch (t.k) {
    case 'scalar':
    case 'vec':
    case 'mat':
      return t.s === 'f16';
    case 'array':
      return hasF16(t.elem);
    case 'struct':
      return t.members.some((m) => hasF16(m.ty));
    default:
      return false;
  }
}

/**
 * The memory layout of a type holding f16, in 2-byte halves: each component's half offset from
 * the value's start and how it is stored (0 u32, 1 i32, 2 f32 — a whole word at an even half —
 * and 3 f16, one half).
 */
export function halfLayout(t: Ty): { hoffs: Int32Array; views: Uint8Array } {
  const hoffs: number[] = [];
  const views: number[] = [];
  const walk = (ty: Ty, off: number): void => {
    switch (ty.k) {
      case 'scalar':
      case 'atomic':
        hoffs.push(off);
        views.push(ty.s === 'f16' ? 3 : ty.s === 'i32' ? 1 : ty.s === 'f32' ? 2 : 0);
        return;
      case 'vec':
        for (let c = 0; c < ty.n; c++) walk(scalar(ty.s), off + c * compWords(ty.s) * 2);
        return;
      case 'mat':
        for (let j = 0; j < ty.c; j++) walk(vec(ty.r, ty.s), off + j * columnStride(ty.r) * 2);
        return;
      case 'array': {
        const st = strideOf(ty.elem) * 2;
        for (let i = 0; i < (ty.count ?? 0); i++) walk(ty.elem, off + i * st);
        return;
      }
      case 'struct':
        for (const m of ty.members) walk(m.ty, off + m.offset * 2);
        return;
      case 'ptr':
        return;
    }
  };
  walk(t, 0);
  return { hoffs: Int32Array.from(hoffs), views: Uint8Array.from(views) };
}
