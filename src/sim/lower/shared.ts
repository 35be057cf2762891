/** The lowering's shared vocabulary: references, values, bindings, the program it builds, and small helpers. */
import { type Global, type Pos, WgslError } from '../ast.ts';
import type { MemInfo, OpFn, Warp } from '../machine.ts';
import { halfLayout, leafScalar, mat, scalar, vec, type Scalar, type Ty } from '../types.ts';

export interface Label {
  pc: number;
}

export type Ref =
  | { readonly k: 'reg'; readonly ty: Ty; readonly base: number; readonly dyn: number }
  | {
      readonly k: 'mem';
      readonly ty: Ty;
      readonly mem: MemInfo;
      readonly off: number;
      readonly dyn: number;
      /**
       * A last dynamic index the memory instruction applies itself (fused address math). A
       * negative `count` is a runtime-sized array starting at word `-count - 1`: its length
       * comes from the run's binding.
       */
      readonly ix?: { readonly reg: number; readonly stride: number; readonly count: number };
    };

export type Val =
  | { readonly k: 'r'; readonly ty: Ty; readonly reg: number; readonly alias: boolean }
  | { readonly k: 'c'; readonly ty: Ty; readonly c: readonly number[] }
  | { readonly k: 'p'; readonly ty: Ty; readonly ref: Ref };

export type Binding = { k: 'ref'; ref: Ref } | { k: 'val'; val: Val };

/** One taint flow of an instruction: union of `src` registers into each `dst` register. */
export interface TaintFlow {
  readonly src: Int32Array;
  readonly dst: Int32Array;
}

export interface Builtins {
  lid: number;
  lidx: number;
  gid: number;
  wgid: number;
  nwg: number;
  sgid: number;
  sgsize: number;
  /** subgroup_id: the warp's index in its workgroup. */
  sgIndex: number;
  /** num_subgroups: warps per workgroup. */
  nsg: number;
}

/** The compiled kernel. */
export interface Program {
  readonly ops: OpFn[];
  readonly counted: Uint8Array;
  readonly opLine: Int32Array;
  readonly opColumn: Int32Array;
  readonly opKind: Uint8Array;
  readonly taint: (readonly TaintFlow[] | null)[];
  readonly nregs: number;
  readonly constInit: readonly (readonly [number, number])[];
  readonly builtins: Builtins;
  readonly workgroupSize: readonly [number, number, number];
  /** Every memory the kernel names: buffers (sized by each run's bindings) and workgroup variables. */
  readonly mems: readonly MemInfo[];
  /** Lanes per warp the program was compiled for (its register layout depends on it). */
  readonly warpSize: number;
  /** The scalar names (parameters, `let`, `var`, `const`) in scope over each range of instructions, for the warp watch. */
  readonly locals: readonly LocalSymbol[];
}

/**
 * A scalar name of the kernel and where it lives: in register `reg` (one slot per lane) or, for a
 * `const`, the value `constant`; in scope for instructions `from` ≤ pc < `to`.
 */
export interface LocalSymbol {
  readonly name: string;
  readonly type: 'u32' | 'i32' | 'f32' | 'bool';
  readonly reg: number;
  readonly constant?: number;
  readonly from: number;
  to: number;
}

export const BUILTIN_NAMES: Record<string, keyof Builtins> = {
  local_invocation_id: 'lid',
  local_invocation_index: 'lidx',
  global_invocation_id: 'gid',
  workgroup_id: 'wgid',
  num_workgroups: 'nwg',
  subgroup_invocation_id: 'sgid',
  subgroup_size: 'sgsize',
  subgroup_id: 'sgIndex',
  num_subgroups: 'nsg',
};

export const SWIZZLE = 'xyzw';
export const SWIZZLE_RGBA = 'rgba';

/**
 * What the simulator says about f16 (types and `h` literals) when the hardware profile lacks
 * `shader-f16`: the GPU runs it only where the adapter offers the feature, so the simulator
 * models half precision only for such a profile (`Hardware.shaderF16`).
 */
export const F16_UNSUPPORTED =
  "is f16: this adapter does not offer 'shader-f16', so the simulator does not run half precision " +
  "for it (the GPU would refuse the kernel too). On an adapter with 'shader-f16' it runs here as on " +
  'the GPU. Otherwise compute in f32 and model half precision with quantizeToF16, or ' +
  'pack2x16float / unpack2x16float for f16 data in memory';

export function err(msg: string, pos: Pos, kind: 'unsupported' | 'type' = 'unsupported'): never {
  throw new WgslError(msg, pos, kind);
}

export interface CompileInput {
  readonly module: readonly Global[];
  readonly entryPoint: string;
  readonly overrides: Readonly<Record<string, number>>;
  /** `fma` rounds once (true) or after the product and after the sum (false). */
  readonly fusedFma: boolean;
  /** The adapter offers `shader-f16`: f16 types, literals and memory run; otherwise refused. */
  readonly shaderF16?: boolean;
}

/** Element count of an indexed array: static, or (negative) read from the run's memory size. */
export function countOf(w: Warp, mem: number, count: number, stride: number): number {
  if (count >= 0) return count;
  return Math.max(0, Math.floor((w.M.mems[mem]!.words + count + 1) / stride));
}



export function swizzleIndex(ch: string, pos: Pos): number {
  let c = SWIZZLE.indexOf(ch);
  if (c < 0) c = SWIZZLE_RGBA.indexOf(ch);
  if (c < 0) err(`'${ch}' is not a vector component`, pos, 'type');
  return c;
}

/** Determinant of an n×n column-major f32 matrix by cofactor expansion, rounding each step. */
export function determinant(m: ArrayLike<number>, n: number): number {
  const fr = Math.fround;
  const at = (col: number, row: number) => m[col * n + row]!;
  if (n === 2) return fr(fr(at(0, 0) * at(1, 1)) - fr(at(1, 0) * at(0, 1)));
  let acc = 0;
  for (let j = 0; j < n; j++) {
    const minor: number[] = [];
    for (let cc = 0; cc < n; cc++) {
      if (cc === j) continue;
      for (let rr = 1; rr < n; rr++) minor.push(at(cc, rr));
    }
    const term = fr(at(j, 0) * determinant(minor, n - 1));
    acc = j === 0 ? term : j % 2 ? fr(acc - term) : fr(acc + term);
  }
  return acc;
}

export function withLeaf(t: Ty, s: Scalar): Ty {
  if (t.k === 'vec') return vec(t.n, s);
  if (t.k === 'mat') return mat(t.c, t.r, s);
  if (t.k === 'scalar') return scalar(s);
  return t;
}

export function leafOf(t: Ty): Scalar {
  if (t.k === 'array') return leafOf(t.elem);
  return leafScalar(t) ?? 'u32';
}

/**
 * Word offsets and typed-array views (0 u32, 1 i32, 2 f32) of the components of a type without
 * f16: its half-word layout (`halfLayout`), whose offsets are then all even, in words.
 */
export function memLayout(t: Ty): { offs: Int32Array; views: Uint8Array } {
  const { hoffs, views } = halfLayout(t);
  return { offs: hoffs.map((h) => h >> 1), views };
}
