/**
 * CUDA types as the checker sees them, and how each is computed in WGSL. WebGPU has no 64-bit
 * integers or doubles: those are computed in 32 bits (`long`, `size_t`, `long long` as i32/u32,
 * `double` as f32), and the lowering warns at every line that declares or computes with one.
 */
import type { TypeRef } from './ast.ts';
import type { CudaScalarType } from './types.ts';

export type CType =
  | { k: 'int'; name: CudaScalarType; bits: 8 | 16 | 32 | 64; signed: boolean }
  | { k: 'bool' }
  | { k: 'float'; bits: 32 | 64 }
  | { k: 'void' }
  | { k: 'dim3' }
  | { k: 'ptr'; to: CType; isConst: boolean }
  | { k: 'array'; of: CType; n: number | null }
  | { k: 'struct'; name: string }
  | { k: 'str' };

export const INT: CType = { k: 'int', name: 'int', bits: 32, signed: true };
export const UINT: CType = { k: 'int', name: 'unsigned int', bits: 32, signed: false };
export const FLOAT: CType = { k: 'float', bits: 32 };
export const BOOL: CType = { k: 'bool' };
export const VOID: CType = { k: 'void' };
export const DIM3: CType = { k: 'dim3' };

const INTS: Record<string, [CudaScalarType, 8 | 16 | 32 | 64, boolean]> = {
  char: ['char', 8, true],
  'signed char': ['signed char', 8, true],
  'unsigned char': ['unsigned char', 8, false],
  short: ['short', 16, true],
  'unsigned short': ['unsigned short', 16, false],
  int: ['int', 32, true],
  'unsigned int': ['unsigned int', 32, false],
  long: ['long', 64, true],
  'unsigned long': ['unsigned long', 64, false],
  'long long': ['long long', 64, true],
  'unsigned long long': ['unsigned long long', 64, false],
  size_t: ['unsigned long', 64, false],
  ssize_t: ['long', 64, true],
  ptrdiff_t: ['long', 64, true],
  int8_t: ['signed char', 8, true],
  uint8_t: ['unsigned char', 8, false],
  int16_t: ['short', 16, true],
  uint16_t: ['unsigned short', 16, false],
  int32_t: ['int', 32, true],
  uint32_t: ['unsigned int', 32, false],
  int64_t: ['long long', 64, true],
  uint64_t: ['unsigned long long', 64, false],
  uint: ['unsigned int', 32, false],
};

/**
 * CUDA's built-in vector types (Programming Guide, "Built-in Vector Types"): `int2`…`float4`,
 * structs of 2, 3 or 4 components `x y z w`, made with `make_int4(…)`. They are WGSL vectors
 * (`vec4<i32>`), and a pointer to one is a buffer of them (`array<vec4<i32>>`).
 */
export const VECTOR_TYPES: ReadonlyMap<string, { of: CType; n: 2 | 3 | 4 }> = new Map(
  (['int', 'uint', 'float'] as const).flatMap((s) =>
    ([2, 3, 4] as const).map((n) => [`${s}${n}`, { of: s === 'int' ? INT : s === 'uint' ? UINT : FLOAT, n }] as const),
  ),
);

/** The vector type `t` names (`int4` …), or undefined for any other type. */
export function vectorOf(t: CType): { of: CType; n: 2 | 3 | 4 } | undefined {
  return t.k === 'struct' ? VECTOR_TYPES.get(t.name) : undefined;
}

/** The base type named by `base`, or undefined for names this front end does not know. */
export function baseType(base: string, typedefs: ReadonlyMap<string, CType>, structs: ReadonlySet<string>): CType | undefined {
  const i = INTS[base];
  if (i) return { k: 'int', name: i[0], bits: i[1], signed: i[2] };
  if (base === 'float') return FLOAT;
  if (base === 'double' || base === 'long double') return { k: 'float', bits: 64 };
  if (base === 'bool') return BOOL;
  if (base === 'void') return VOID;
  if (base === 'dim3' || base === 'uint3') return DIM3;
  if (VECTOR_TYPES.has(base)) return { k: 'struct', name: base };
  const t = typedefs.get(base);
  if (t) return t;
  if (structs.has(base)) return { k: 'struct', name: base };
  return undefined;
}

export function withPointers(t: CType, ref: TypeRef): CType {
  let r = t;
  for (let i = 0; i < ref.pointers.length; i++) r = { k: 'ptr', to: r, isConst: i === 0 ? ref.isConst : false };
  return r;
}

export const isArith = (t: CType): boolean => t.k === 'int' || t.k === 'float' || t.k === 'bool';
export const isInt = (t: CType): t is Extract<CType, { k: 'int' }> => t.k === 'int';

/** The WGSL type that holds a value of `t` (in registers: sub-word integers widen to 32 bits). */
export function wgslType(t: CType): string {
  switch (t.k) {
    case 'int':
      return t.signed ? 'i32' : 'u32';
    case 'bool':
      return 'bool';
    case 'float':
      return 'f32';
    case 'dim3':
      return 'vec3<u32>';
    case 'array':
      return `array<${wgslType(t.of)}, ${t.n ?? 1}>`;
    case 'struct': {
      const v = VECTOR_TYPES.get(t.name);
      return v ? `vec${v.n}<${wgslType(v.of)}>` : t.name;
    }
    default:
      return 'i32';
  }
}

/** The field types of a struct, by name (for `sizeof` and alignment of user structs). */
export type StructFields = (name: string) => readonly CType[] | undefined;

/** C's `sizeof`, in bytes; a user struct is laid out as x86-64 does, each field at its alignment. */
export function sizeOf(t: CType, fields?: StructFields): number {
  switch (t.k) {
    case 'int':
      return t.bits / 8;
    case 'bool':
      return 1;
    case 'float':
      return t.bits / 8;
    case 'dim3':
      return 12;
    case 'ptr':
      return 8;
    case 'array':
      return (t.n ?? 0) * sizeOf(t.of, fields);
    case 'struct': {
      const v = VECTOR_TYPES.get(t.name);
      if (v) return v.n * sizeOf(v.of);
      const fs = fields?.(t.name);
      if (!fs) return 4;
      let at = 0;
      for (const f of fs) {
        const a = alignOf(f, fields);
        at = Math.ceil(at / a) * a + sizeOf(f, fields);
      }
      const align = alignOf(t, fields);
      return Math.max(align, Math.ceil(at / align) * align);
    }
    default:
      return 4;
  }
}

/** C's `alignof` on x86-64 (CUDA's vector types: their own size, up to 16). */
export function alignOf(t: CType, fields?: StructFields): number {
  if (t.k === 'array') return alignOf(t.of, fields);
  if (t.k === 'dim3') return 4;
  if (t.k === 'struct') {
    const v = VECTOR_TYPES.get(t.name);
    if (v) return v.n === 3 ? sizeOf(v.of) : v.n * sizeOf(v.of);
    const fs = fields?.(t.name) ?? [];
    return Math.max(1, ...fs.map((f) => alignOf(f, fields)));
  }
  return Math.max(1, sizeOf(t, fields));
}

export function typeName(t: CType): string {
  switch (t.k) {
    case 'int':
      return t.name;
    case 'float':
      return t.bits === 64 ? 'double' : 'float';
    case 'ptr':
      return `${t.isConst ? 'const ' : ''}${typeName(t.to)} *`;
    case 'array':
      return `${typeName(t.of)}[${t.n ?? ''}]`;
    case 'struct':
      return VECTOR_TYPES.has(t.name) ? t.name : `struct ${t.name}`;
    case 'str':
      return 'const char *';
    default:
      return t.k;
  }
}

/** C's integer promotions then usual arithmetic conversions (with 64-bit types kept by name). */
export function arithmetic(a: CType, b: CType): CType {
  if (a.k === 'float' || b.k === 'float') {
    const bits = (a.k === 'float' && a.bits === 64) || (b.k === 'float' && b.bits === 64) ? 64 : 32;
    return { k: 'float', bits };
  }
  const pa = promote(a);
  const pb = promote(b);
  if (pa.k !== 'int' || pb.k !== 'int') return INT;
  if (pa.bits !== pb.bits) {
    const [big, small] = pa.bits > pb.bits ? [pa, pb] : [pb, pa];
    return big.signed && !small.signed && small.bits === big.bits ? { ...big, signed: false } : big;
  }
  return pa.signed && pb.signed ? pa : !pa.signed ? pa : pb;
}

/** Integer promotion: `char`, `short`, `bool` compute as `int`. */
export function promote(t: CType): CType {
  if (t.k === 'bool') return INT;
  if (t.k === 'int' && t.bits < 32) return INT;
  return t;
}

export const is64 = (t: CType): boolean => (t.k === 'int' && t.bits === 64) || (t.k === 'float' && t.bits === 64);
