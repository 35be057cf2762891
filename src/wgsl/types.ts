/**
 * WGSL types as the checker sees them, their names as Tint prints them, the conversion rank of
 * abstract numerics (§15.7), and the memory layout rules (§14.4: alignment, size, struct member
 * offsets with @size/@align).
 */

export type ScalarName = 'bool' | 'i32' | 'u32' | 'f32' | 'f16' | 'ai' | 'af';

export interface StructMember {
  readonly name: string;
  readonly ty: Ty;
  readonly offset: number;
  readonly align: number;
  readonly size: number;
}

export type Ty =
  | { readonly k: 'scalar'; readonly s: ScalarName }
  | { readonly k: 'vec'; readonly n: number; readonly el: ScalarName }
  | { readonly k: 'mat'; readonly c: number; readonly r: number; readonly el: ScalarName }
  | { readonly k: 'array'; readonly el: Ty; readonly count: number | null; readonly overrideCount?: boolean }
  | { readonly k: 'struct'; readonly name: string; readonly members: readonly StructMember[]; readonly align: number; readonly size: number }
  | { readonly k: 'atomic'; readonly el: ScalarName }
  | { readonly k: 'ptr'; readonly space: string; readonly el: Ty; readonly access: string }
  | {
      readonly k: 'opaque';
      readonly name: string;
      /** Textures: what a texel read returns per channel, and whether it is a depth texture. */
      readonly channel?: ScalarName;
      readonly depth?: boolean;
      readonly dims?: number;
    }
  | { readonly k: 'void' };

export const BOOL: Ty = { k: 'scalar', s: 'bool' };
export const I32: Ty = { k: 'scalar', s: 'i32' };
export const U32: Ty = { k: 'scalar', s: 'u32' };
export const F32: Ty = { k: 'scalar', s: 'f32' };
export const F16: Ty = { k: 'scalar', s: 'f16' };
export const AI: Ty = { k: 'scalar', s: 'ai' };
export const AF: Ty = { k: 'scalar', s: 'af' };
export const VOID: Ty = { k: 'void' };

export function scalar(s: ScalarName): Ty {
  return { k: 'scalar', s };
}

const SCALAR_NAMES: Record<ScalarName, string> = {
  bool: 'bool', i32: 'i32', u32: 'u32', f32: 'f32', f16: 'f16', ai: 'abstract-int', af: 'abstract-float',
};

/** The type's name as Tint writes it in messages. */
export function tyName(t: Ty): string {
  switch (t.k) {
    case 'scalar':
      return SCALAR_NAMES[t.s];
    case 'vec':
      return `vec${t.n}<${SCALAR_NAMES[t.el]}>`;
    case 'mat':
      return `mat${t.c}x${t.r}<${SCALAR_NAMES[t.el]}>`;
    case 'array':
      return t.count === null ? `array<${tyName(t.el)}>` : `array<${tyName(t.el)}, ${t.count}>`;
    case 'struct':
      return t.name;
    case 'atomic':
      return `atomic<${SCALAR_NAMES[t.el]}>`;
    case 'ptr':
      return `ptr<${t.space}, ${tyName(t.el)}, ${t.access}>`;
    case 'opaque':
      return t.name;
    case 'void':
      return 'void';
  }
}

/** The scalar a scalar, vector or matrix is made of. */
export function elemScalar(t: Ty): ScalarName | null {
  return t.k === 'scalar' ? t.s : t.k === 'vec' || t.k === 'mat' ? t.el : null;
}

export function withScalar(t: Ty, s: ScalarName): Ty {
  if (t.k === 'scalar') return scalar(s);
  if (t.k === 'vec') return { ...t, el: s };
  if (t.k === 'mat') return { ...t, el: s };
  if (t.k === 'array') return { ...t, el: withScalar(t.el, s) };
  return t;
}

export function isAbstract(t: Ty): boolean {
  const s = t.k === 'array' ? elemScalar(leaf(t)) : elemScalar(t);
  return s === 'ai' || s === 'af';
}

function leaf(t: Ty): Ty {
  return t.k === 'array' ? leaf(t.el) : t;
}

export function isInt(s: ScalarName | null): boolean {
  return s === 'i32' || s === 'u32' || s === 'ai';
}
export function isFloat(s: ScalarName | null): boolean {
  return s === 'f32' || s === 'f16' || s === 'af';
}

export function sameTy(a: Ty, b: Ty): boolean {
  return tyName(a) === tyName(b);
}

/** Whether an abstract scalar converts automatically to `to` (§15.7.1). */
export function scalarConvertible(from: ScalarName, to: ScalarName): boolean {
  if (from === to) return true;
  if (from === 'ai') return to === 'i32' || to === 'u32' || to === 'f32' || to === 'f16' || to === 'af';
  if (from === 'af') return to === 'f32' || to === 'f16';
  return false;
}

/** Whether a value of type `from` converts automatically to `to`. */
export function convertible(from: Ty, to: Ty): boolean {
  if (sameTy(from, to)) return true;
  if (from.k === 'scalar' && to.k === 'scalar') return scalarConvertible(from.s, to.s);
  if (from.k === 'vec' && to.k === 'vec') return from.n === to.n && scalarConvertible(from.el, to.el);
  if (from.k === 'mat' && to.k === 'mat') return from.c === to.c && from.r === to.r && scalarConvertible(from.el, to.el);
  if (from.k === 'array' && to.k === 'array') return from.count === to.count && convertible(from.el, to.el);
  return false;
}

/** The concrete type an abstract one becomes when nothing else decides (§15.7.2). */
export function concretize(t: Ty): Ty {
  if (t.k === 'array') return { ...t, el: concretize(t.el) };
  const s = elemScalar(t);
  if (s === 'ai') return withScalar(t, 'i32');
  if (s === 'af') return withScalar(t, 'f32');
  return t;
}

/** The common type two operands convert to, or null. */
export function unify(a: Ty, b: Ty): Ty | null {
  if (convertible(a, b)) return b;
  if (convertible(b, a)) return a;
  // ai with af: both go to af.
  const sa = elemScalar(a);
  const sb = elemScalar(b);
  if (sa && sb && a.k === b.k && convertible(withScalar(a, 'af'), withScalar(b, 'af'))) {
    if ((sa === 'ai' || sa === 'af') && (sb === 'ai' || sb === 'af')) return withScalar(a, 'af');
  }
  return null;
}

export function alignOf(t: Ty): number {
  switch (t.k) {
    case 'scalar':
      return t.s === 'f16' ? 2 : 4;
    case 'atomic':
      return 4;
    case 'vec': {
      const s = t.el === 'f16' ? 2 : 4;
      return (t.n === 2 ? 2 : 4) * s;
    }
    case 'mat':
      return alignOf({ k: 'vec', n: t.r, el: t.el });
    case 'array':
      return alignOf(t.el);
    case 'struct':
      return t.align;
    default:
      return 4;
  }
}

export function roundUp(k: number, n: number): number {
  return Math.ceil(n / k) * k;
}

/** Byte size; a runtime-sized array counts as one element. */
export function sizeOf(t: Ty): number {
  switch (t.k) {
    case 'scalar':
      return t.s === 'f16' ? 2 : 4;
    case 'atomic':
      return 4;
    case 'vec':
      return t.n * (t.el === 'f16' ? 2 : 4);
    case 'mat':
      return t.c * roundUp(alignOf({ k: 'vec', n: t.r, el: t.el }), sizeOf({ k: 'vec', n: t.r, el: t.el }));
    case 'array':
      return (t.count ?? 1) * strideOf(t);
    case 'struct':
      return t.size;
    default:
      return 0;
  }
}

export function strideOf(t: Ty & { k: 'array' }): number {
  return roundUp(alignOf(t.el), sizeOf(t.el));
}

/** Whether a type may live in a host-shareable buffer (§6.2). */
export function hostShareable(t: Ty): boolean {
  switch (t.k) {
    case 'scalar':
      return t.s === 'i32' || t.s === 'u32' || t.s === 'f32' || t.s === 'f16';
    case 'vec':
    case 'mat':
      return t.el !== 'bool';
    case 'atomic':
      return true;
    case 'array':
      return hostShareable(t.el);
    case 'struct':
      return t.members.every((m) => hostShareable(m.ty));
    default:
      return false;
  }
}

export function containsAtomic(t: Ty): boolean {
  if (t.k === 'atomic') return true;
  if (t.k === 'array') return containsAtomic(t.el);
  if (t.k === 'struct') return t.members.some((m) => containsAtomic(m.ty));
  return false;
}

export function containsRuntimeArray(t: Ty): boolean {
  if (t.k === 'array') return t.count === null;
  if (t.k === 'struct') return t.members.some((m) => containsRuntimeArray(m.ty));
  return false;
}

/** Whether values of this type can be constructed, copied and compared (§6.2: constructible). */
export function constructible(t: Ty): boolean {
  switch (t.k) {
    case 'scalar':
    case 'vec':
    case 'mat':
      return true;
    case 'array':
      return t.count !== null && !t.overrideCount && constructible(t.el);
    case 'struct':
      return t.members.every((m) => constructible(m.ty));
    default:
      return false;
  }
}
