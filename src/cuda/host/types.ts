/**
 * The host interpreter's static types: C's arithmetic types, pointers, arrays, structs, and the
 * few library types a teaching program declares (`dim3`, `std::vector<T>`, `cudaEvent_t`,
 * `cudaDeviceProp`, `FILE*`). Sizes and layouts are gcc's on x86-64 (see ctypes.ts).
 */
import { ARITH, arithType, layoutStruct, type CArith } from './ctypes.ts';
import type { ScalarKind } from './memory.ts';

export type HType =
  | { readonly k: 'void' }
  | { readonly k: 'arith'; readonly t: CArith }
  | { readonly k: 'ptr'; readonly to: HType }
  | { readonly k: 'array'; readonly of: HType; readonly n: number }
  | { readonly k: 'struct'; readonly name: string; readonly size: number; readonly align: number; readonly fields: ReadonlyMap<string, { type: HType; offset: number }> }
  | { readonly k: 'vector'; readonly of: HType }
  | { readonly k: 'ostream'; readonly err: boolean }
  | { readonly k: 'manip'; readonly name: string };

export const VOID: HType = { k: 'void' };
export const arith = (t: CArith): HType => ({ k: 'arith', t });
export const INT = arith('int');
export const UINT = arith('unsigned int');
export const LONG = arith('long');
export const ULONG = arith('unsigned long');
export const DOUBLE = arith('double');
export const FLOAT = arith('float');
export const BOOL = arith('bool');
export const CHAR = arith('char');
export const ptr = (to: HType): HType => ({ k: 'ptr', to });

export function struct(name: string, members: readonly [string, HType][]): Extract<HType, { k: 'struct' }> {
  const lay = layoutStruct(members.map(([n, t]) => ({ name: n, bytes: sizeOf(t), align: alignOf(t) })));
  const fields = new Map<string, { type: HType; offset: number }>();
  lay.fields.forEach((f, i) => fields.set(f.name, { type: members[i]![1], offset: f.offset }));
  return { k: 'struct', name, size: lay.size, align: lay.align, fields };
}

const U = UINT;
export const DIM3 = struct('dim3', [['x', U], ['y', U], ['z', U]]);
export const TIMEVAL = struct('timeval', [['tv_sec', LONG], ['tv_usec', LONG]]);
/** The members of `cudaDeviceProp` that programs read (the rest of CUDA's struct is left out). */
export const DEVICE_PROP = struct('cudaDeviceProp', [
  ['name', { k: 'array', of: CHAR, n: 256 }],
  ['totalGlobalMem', ULONG],
  ['sharedMemPerBlock', ULONG],
  ['regsPerBlock', INT],
  ['warpSize', INT],
  ['memPitch', ULONG],
  ['maxThreadsPerBlock', INT],
  ['maxThreadsDim', { k: 'array', of: INT, n: 3 }],
  ['maxGridSize', { k: 'array', of: INT, n: 3 }],
  ['totalConstMem', ULONG],
  ['major', INT],
  ['minor', INT],
  ['multiProcessorCount', INT],
  ['l2CacheSize', INT],
  ['maxThreadsPerMultiProcessor', INT],
  ['sharedMemPerMultiprocessor', ULONG],
  ['sharedMemPerBlockOptin', ULONG],
  ['memoryBusWidth', INT],
  ['managedMemory', INT],
  ['unifiedAddressing', INT],
  ['regsPerMultiprocessor', INT],
  ['concurrentKernels', INT],
]);

/** Handle types: an opaque 64-bit value (`cudaEvent_t`, `cudaStream_t`, `FILE*` are pointers in C). */
export const HANDLE = ULONG;

export function sizeOf(t: HType): number {
  switch (t.k) {
    case 'arith':
      return ARITH[t.t].bytes;
    case 'ptr':
    case 'vector':
      return t.k === 'ptr' ? 8 : 24;
    case 'array':
      return t.n * sizeOf(t.of);
    case 'struct':
      return t.size;
    default:
      return 1;
  }
}

export function alignOf(t: HType): number {
  switch (t.k) {
    case 'arith':
      return ARITH[t.t].bytes;
    case 'ptr':
    case 'vector':
      return 8;
    case 'array':
      return alignOf(t.of);
    case 'struct':
      return t.align;
    default:
      return 1;
  }
}

/** How a value of this type is stored in memory (vectors are stored as their handle). */
export function scalarKind(t: HType): ScalarKind | undefined {
  if (t.k === 'ptr') return 'u64';
  if (t.k === 'vector') return 'f64';
  if (t.k !== 'arith') return undefined;
  switch (t.t) {
    case 'bool':
    case 'unsigned char':
      return 'u8';
    case 'char':
    case 'signed char':
      return 'i8';
    case 'short':
      return 'i16';
    case 'unsigned short':
      return 'u16';
    case 'int':
      return 'i32';
    case 'unsigned int':
      return 'u32';
    case 'long':
    case 'long long':
      return 'i64';
    case 'unsigned long':
    case 'unsigned long long':
      return 'u64';
    case 'float':
      return 'f32';
    case 'double':
      return 'f64';
  }
}

export function typeName(t: HType): string {
  switch (t.k) {
    case 'void':
      return 'void';
    case 'arith':
      return t.t;
    case 'ptr':
      return `${typeName(t.to)} *`;
    case 'array':
      return `${typeName(t.of)}[${t.n}]`;
    case 'struct':
      return t.name;
    case 'vector':
      return `std::vector<${typeName(t.of)}>`;
    case 'ostream':
      return 'std::ostream';
    case 'manip':
      return t.name;
  }
}

/** The library's named types, by the base the parser gives. */
export function namedType(base: string): HType | undefined {
  const a = arithType(base);
  if (a) return arith(a);
  switch (base) {
    case 'void':
      return VOID;
    case 'dim3':
    case 'uint3':
      return DIM3;
    case 'cudaDeviceProp':
      return DEVICE_PROP;
    case 'timeval':
      return TIMEVAL;
    case 'cudaEvent_t':
    case 'cudaStream_t':
    case 'FILE':
      return HANDLE;
    case 'cudaError_t':
    case 'cudaMemcpyKind':
      return INT;
    default:
      return undefined;
  }
}

export const isArith = (t: HType): t is Extract<HType, { k: 'arith' }> => t.k === 'arith';
export const isFloat = (t: HType): boolean => t.k === 'arith' && (t.t === 'float' || t.t === 'double');
