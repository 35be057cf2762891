/**
 * Built-in values (§13.3.1) and built-in functions (§17) a compute shader may use: their
 * signatures as overload families, the extension they need, and constant folding for the ones a
 * const-expression commonly uses. Texture and derivative builtins are not part of compute shaders.
 */
import type { Range } from './ast.ts';
import type { CV } from './checker.ts';
import { builtin1, builtin2 } from './scalar.ts';
import {
  BOOL, F32, I32, U32, VOID,
  concretize, elemScalar, isFloat, isInt, scalar, sameTy, tyName, unify,
  type ScalarName, type Ty,
} from './types.ts';

const VEC3U: Ty = { k: 'vec', n: 3, el: 'u32' };

/** `@builtin(name)` values valid as compute-shader inputs, with their types. */
export const BUILTIN_VALUES: Record<string, { ty: Ty; uniform: boolean; ext?: string }> = {
  local_invocation_id: { ty: VEC3U, uniform: false },
  local_invocation_index: { ty: U32, uniform: false },
  global_invocation_id: { ty: VEC3U, uniform: false },
  workgroup_id: { ty: VEC3U, uniform: true },
  num_workgroups: { ty: VEC3U, uniform: true },
  subgroup_invocation_id: { ty: U32, uniform: false, ext: 'subgroups' },
  subgroup_size: { ty: U32, uniform: true, ext: 'subgroups' },
  subgroup_id: { ty: U32, uniform: false, ext: 'subgroups' },
  num_subgroups: { ty: U32, uniform: true, ext: 'subgroups' },
  // Vertex and fragment stages, so modules that also hold render shaders check.
  vertex_index: { ty: U32, uniform: false },
  instance_index: { ty: U32, uniform: false },
  position: { ty: { k: 'vec', n: 4, el: 'f32' }, uniform: false },
  front_facing: { ty: BOOL, uniform: false },
  frag_depth: { ty: F32, uniform: false },
  sample_index: { ty: U32, uniform: false },
  sample_mask: { ty: U32, uniform: false },
  primitive_index: { ty: U32, uniform: false, ext: 'primitive_index' },
  view_index: { ty: U32, uniform: true, ext: 'view_instancing' },
};

export interface BuiltinArg {
  ty: Ty;
  stage: 0 | 1 | 2;
  c?: CV | undefined;
  range: Range;
  ref?: { space: string; access: string } | undefined;
}

export interface BuiltinResult {
  ty: Ty;
  stage: 0 | 1 | 2;
  c?: CV;
  ext?: string;
  mustUse?: boolean;
  error?: { message: string; range?: Range };
}

/** Functions that must be called from uniform control flow. */
export const BARRIERS = new Set(['workgroupBarrier', 'storageBarrier', 'textureBarrier', 'workgroupUniformLoad']);

/** Subgroup and quad operations: subgroup-uniform control flow, rule `subgroup_uniformity`. */
export function isSubgroupOp(name: string): boolean {
  return /^(subgroup|quad)[A-Z]/.test(name);
}

type Sig = (a: BuiltinArg[], name: string) => Ty | string;

const FLOAT1 = ['abs', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'ceil', 'cos', 'cosh', 'degrees', 'exp', 'exp2', 'floor', 'fract', 'inverseSqrt', 'log', 'log2', 'quantizeToF16', 'radians', 'round', 'saturate', 'sign', 'sin', 'sinh', 'sqrt', 'tan', 'tanh', 'trunc'];
const INT1 = ['countLeadingZeros', 'countOneBits', 'countTrailingZeros', 'firstLeadingBit', 'firstTrailingBit', 'reverseBits'];

function comps(t: Ty): number {
  return t.k === 'vec' ? t.n : 1;
}

function shapeOf(t: Ty, s: ScalarName): Ty {
  return t.k === 'vec' ? { k: 'vec', n: t.n, el: s } : scalar(s);
}

/** Unifies all arguments to one scalar-or-vector type; `allow` filters the scalar. */
function same(a: BuiltinArg[], allow: (s: ScalarName) => boolean): Ty | null {
  let t: Ty | null = a[0]?.ty ?? null;
  for (const x of a) t = t && unify(t, x.ty);
  if (!t || (t.k !== 'scalar' && t.k !== 'vec')) return null;
  const s = elemScalar(t)!;
  if (!allow(s)) {
    // Abstract ints also become floats where only floats are allowed.
    if (s === 'ai' && allow('af')) return shapeOf(t, 'af');
    return null;
  }
  return t;
}

const numeric = (s: ScalarName): boolean => s !== 'bool';
const floaty = (s: ScalarName): boolean => isFloat(s);
const inty = (s: ScalarName): boolean => isInt(s);
const signedOrFloat = (s: ScalarName): boolean => s === 'i32' || s === 'ai' || isFloat(s);

function fixed(n: number, f: Sig): Sig {
  return (a, name) => (a.length !== n ? `${a.length < n ? 'too few' : 'too many'} arguments in call to '${name}', expected ${n}, got ${a.length}` : f(a, name));
}

function ptrArg(a: BuiltinArg, space?: string): (Ty & { k: 'ptr' }) | null {
  if (a.ty.k !== 'ptr') return null;
  if (space && a.ty.space !== space) return null;
  return a.ty;
}

const SIGS: Record<string, Sig> = {};
for (const n of FLOAT1) SIGS[n] = fixed(1, (a) => same(a, n === 'abs' ? numeric : n === 'sign' ? signedOrFloat : floaty) ?? '');
for (const n of INT1) SIGS[n] = fixed(1, (a) => same(a, inty) ?? '');
for (const n of ['min', 'max']) SIGS[n] = fixed(2, (a) => same(a, numeric) ?? '');
for (const n of ['atan2', 'pow', 'step']) SIGS[n] = fixed(2, (a) => same(a, floaty) ?? '');
SIGS.clamp = fixed(3, (a) => same(a, numeric) ?? '');
SIGS.fma = fixed(3, (a) => same(a, floaty) ?? '');
SIGS.smoothstep = fixed(3, (a) => same(a, floaty) ?? '');
SIGS.mix = fixed(3, (a) => {
  const t = same(a.slice(0, 2), floaty);
  if (!t) return '';
  const u = unify(a[2]!.ty, t) ?? (a[2]!.ty.k === 'scalar' ? unify(a[2]!.ty, scalar(elemScalar(t)!)) : null);
  return u ? t : '';
});
SIGS.select = fixed(3, (a) => {
  const t = unify(a[0]!.ty, a[1]!.ty);
  const c = a[2]!.ty;
  if (!t || elemScalar(c) !== 'bool') return '';
  if (c.k === 'vec' && (t.k !== 'vec' || t.n !== c.n)) return '';
  if (c.k !== 'scalar' && c.k !== 'vec') return '';
  return t;
});
SIGS.all = fixed(1, (a) => (elemScalar(a[0]!.ty) === 'bool' && a[0]!.ty.k !== 'mat' ? BOOL : ''));
SIGS.any = SIGS.all;
SIGS.dot = fixed(2, (a) => {
  const t = same(a, numeric);
  return t && t.k === 'vec' ? scalar(t.el) : '';
});
SIGS.cross = fixed(2, (a) => {
  const t = same(a, floaty);
  return t && t.k === 'vec' && t.n === 3 ? t : '';
});
SIGS.length = fixed(1, (a) => {
  const t = same(a, floaty);
  return t ? scalar(elemScalar(t)!) : '';
});
SIGS.distance = fixed(2, (a) => {
  const t = same(a, floaty);
  return t ? scalar(elemScalar(t)!) : '';
});
SIGS.normalize = fixed(1, (a) => {
  const t = same(a, floaty);
  return t && t.k === 'vec' ? t : '';
});
SIGS.reflect = fixed(2, (a) => {
  const t = same(a, floaty);
  return t && t.k === 'vec' ? t : '';
});
SIGS.faceForward = fixed(3, (a) => {
  const t = same(a, floaty);
  return t && t.k === 'vec' ? t : '';
});
SIGS.refract = fixed(3, (a) => {
  const t = same(a.slice(0, 2), floaty);
  return t && t.k === 'vec' && a[2]!.ty.k === 'scalar' && isFloat(elemScalar(a[2]!.ty)) ? t : '';
});
SIGS.ldexp = fixed(2, (a) => {
  const t = same([a[0]!], floaty);
  const e = a[1]!.ty;
  const es = elemScalar(e);
  return t && (es === 'i32' || es === 'ai') && comps(e) === comps(t) ? t : '';
});
/** The result structs of `modf` and `frexp`, named as Tint names them. */
function resultStruct(kind: 'modf' | 'frexp', t: Ty): Ty {
  const s = elemScalar(t)!;
  const shaped = (el: ScalarName): Ty => (t.k === 'vec' ? { k: 'vec', n: t.n, el } : scalar(el));
  const second: [string, Ty] = kind === 'modf' ? ['whole', t] : ['exp', shaped(s === 'af' ? 'ai' : 'i32')];
  const size = t.k === 'vec' ? t.n * 4 : 4;
  const name = `__${kind}_result_${t.k === 'vec' ? `vec${t.n}_` : ''}${s === 'af' ? 'abstract' : s}`;
  return {
    k: 'struct', name, align: 4, size: 2 * size,
    members: [
      { name: 'fract', ty: t, offset: 0, align: 4, size },
      { name: second[0], ty: second[1], offset: size, align: 4, size },
    ],
  };
}
SIGS.frexp = fixed(1, (a) => {
  const t = same(a, floaty);
  return t ? resultStruct('frexp', t) : '';
});
SIGS.modf = fixed(1, (a) => {
  const t = same(a, floaty);
  return t ? resultStruct('modf', t) : '';
});
SIGS.determinant = fixed(1, (a) => {
  const t = a[0]!.ty;
  return t.k === 'mat' && t.c === t.r ? scalar(t.el) : '';
});
SIGS.transpose = fixed(1, (a) => {
  const t = a[0]!.ty;
  return t.k === 'mat' ? { k: 'mat', c: t.r, r: t.c, el: t.el } : '';
});
SIGS.extractBits = fixed(3, (a) => {
  const t = same([a[0]!], inty);
  return t && [a[1]!, a[2]!].every((x) => x.ty.k === 'scalar' && (x.ty.s === 'u32' || x.ty.s === 'ai')) ? t : '';
});
SIGS.insertBits = fixed(4, (a) => {
  const t = same([a[0]!, a[1]!], inty);
  return t && [a[2]!, a[3]!].every((x) => x.ty.k === 'scalar' && (x.ty.s === 'u32' || x.ty.s === 'ai')) ? t : '';
});
const packs: [string, Ty, Ty][] = [
  ['pack4x8snorm', { k: 'vec', n: 4, el: 'f32' }, U32],
  ['pack4x8unorm', { k: 'vec', n: 4, el: 'f32' }, U32],
  ['pack2x16snorm', { k: 'vec', n: 2, el: 'f32' }, U32],
  ['pack2x16unorm', { k: 'vec', n: 2, el: 'f32' }, U32],
  ['pack2x16float', { k: 'vec', n: 2, el: 'f32' }, U32],
  ['pack4xI8', { k: 'vec', n: 4, el: 'i32' }, U32],
  ['pack4xU8', { k: 'vec', n: 4, el: 'u32' }, U32],
  ['pack4xI8Clamp', { k: 'vec', n: 4, el: 'i32' }, U32],
  ['pack4xU8Clamp', { k: 'vec', n: 4, el: 'u32' }, U32],
  ['unpack4x8snorm', U32, { k: 'vec', n: 4, el: 'f32' }],
  ['unpack4x8unorm', U32, { k: 'vec', n: 4, el: 'f32' }],
  ['unpack2x16snorm', U32, { k: 'vec', n: 2, el: 'f32' }],
  ['unpack2x16unorm', U32, { k: 'vec', n: 2, el: 'f32' }],
  ['unpack2x16float', U32, { k: 'vec', n: 2, el: 'f32' }],
  ['unpack4xI8', U32, { k: 'vec', n: 4, el: 'i32' }],
  ['unpack4xU8', U32, { k: 'vec', n: 4, el: 'u32' }],
];
for (const [n, from, to] of packs) {
  SIGS[n] = fixed(1, (a) => (convertibleTo(a[0]!.ty, from) ? to : ''));
}
SIGS.dot4I8Packed = fixed(2, (a) => (a.every((x) => convertibleTo(x.ty, U32)) ? I32 : ''));
SIGS.dot4U8Packed = fixed(2, (a) => (a.every((x) => convertibleTo(x.ty, U32)) ? U32 : ''));
SIGS.arrayLength = fixed(1, (a) => {
  const p = ptrArg(a[0]!, 'storage');
  return p && p.el.k === 'array' && p.el.count === null ? U32 : '';
});
for (const n of ['workgroupBarrier', 'storageBarrier', 'textureBarrier']) SIGS[n] = fixed(0, () => VOID);
SIGS.workgroupUniformLoad = fixed(1, (a) => {
  const p = ptrArg(a[0]!, 'workgroup');
  return p ? (p.el.k === 'atomic' ? scalar(p.el.el) : p.el) : '';
});
SIGS.atomicLoad = fixed(1, (a) => atomicOf(a[0]!) ?? '');
SIGS.atomicStore = fixed(2, (a) => {
  const t = atomicOf(a[0]!);
  return t && convertibleTo(a[1]!.ty, t) ? VOID : '';
});
for (const n of ['atomicAdd', 'atomicSub', 'atomicMax', 'atomicMin', 'atomicAnd', 'atomicOr', 'atomicXor', 'atomicExchange']) {
  SIGS[n] = fixed(2, (a) => {
    const t = atomicOf(a[0]!);
    return t && convertibleTo(a[1]!.ty, t) ? t : '';
  });
}
SIGS.atomicCompareExchangeWeak = fixed(3, (a) => {
  const t = atomicOf(a[0]!);
  return t && convertibleTo(a[1]!.ty, t) && convertibleTo(a[2]!.ty, t)
    ? { k: 'struct', name: `__atomic_compare_exchange_result_${tyName(t)}`, members: [
        { name: 'old_value', ty: t, offset: 0, align: 4, size: 4 },
        { name: 'exchanged', ty: BOOL, offset: 4, align: 4, size: 4 },
      ], align: 4, size: 8 }
    : '';
});
// Subgroup and quad operations.
for (const n of ['subgroupAdd', 'subgroupExclusiveAdd', 'subgroupInclusiveAdd', 'subgroupMul', 'subgroupExclusiveMul', 'subgroupInclusiveMul', 'subgroupMin', 'subgroupMax']) {
  SIGS[n] = fixed(1, (a) => same(a, numeric) ?? '');
}
for (const n of ['subgroupAnd', 'subgroupOr', 'subgroupXor']) SIGS[n] = fixed(1, (a) => same(a, (s) => s === 'i32' || s === 'u32' || s === 'ai') ?? '');
for (const n of ['subgroupAll', 'subgroupAny']) SIGS[n] = fixed(1, (a) => (a[0]!.ty.k === 'scalar' && a[0]!.ty.s === 'bool' ? BOOL : ''));
SIGS.subgroupElect = fixed(0, () => BOOL);
SIGS.subgroupBallot = fixed(1, (a) => (a[0]!.ty.k === 'scalar' && a[0]!.ty.s === 'bool' ? { k: 'vec', n: 4, el: 'u32' } : ''));
SIGS.subgroupBroadcastFirst = fixed(1, (a) => same(a, numeric) ?? '');
for (const n of ['subgroupBroadcast', 'subgroupShuffle', 'subgroupShuffleXor', 'subgroupShuffleUp', 'subgroupShuffleDown', 'quadBroadcast']) {
  SIGS[n] = fixed(2, (a) => {
    const t = same([a[0]!], numeric);
    const i = a[1]!.ty;
    return t && i.k === 'scalar' && (i.s === 'u32' || i.s === 'i32' || i.s === 'ai') ? t : '';
  });
}
for (const n of ['quadSwapX', 'quadSwapY', 'quadSwapDiagonal']) SIGS[n] = fixed(1, (a) => same(a, numeric) ?? '');

// Textures (the simulator reports them as unsupported; the checker types them like Tint).
function texture(a: BuiltinArg[]): (Ty & { k: 'opaque' }) | null {
  const t = a[0]?.ty;
  return t && t.k === 'opaque' && t.channel ? t : null;
}
const vec4Of = (s: ScalarName): Ty => ({ k: 'vec', n: 4, el: s });
SIGS.textureDimensions = (a) => {
  const t = texture(a);
  if (!t || a.length > 2) return '';
  return t.dims === 1 ? U32 : { k: 'vec', n: t.dims ?? 2, el: 'u32' };
};
SIGS.textureLoad = (a) => {
  const t = texture(a);
  if (!t || a.length < 2 || a.length > 4) return '';
  return t.depth ? F32 : vec4Of(t.channel!);
};
SIGS.textureStore = (a) => (texture(a) && a.length >= 3 && a.length <= 4 ? VOID : '');
for (const n of ['textureNumLevels', 'textureNumLayers', 'textureNumSamples']) SIGS[n] = fixed(1, (a) => (texture(a) ? U32 : ''));
for (const n of ['textureSample', 'textureSampleLevel', 'textureSampleBias', 'textureSampleGrad', 'textureSampleBaseClampToEdge']) {
  SIGS[n] = (a) => {
    const t = texture(a);
    return t && a.length >= 3 ? (t.depth ? F32 : vec4Of('f32')) : '';
  };
}
for (const n of ['textureSampleCompare', 'textureSampleCompareLevel']) SIGS[n] = (a) => (texture(a) && a.length >= 4 ? F32 : '');
SIGS.textureGather = (a) => {
  const t = texture(a) ?? texture(a.slice(1));
  return t && a.length >= 3 ? vec4Of(t.depth ? 'f32' : t.channel!) : '';
};
SIGS.textureGatherCompare = (a) => (texture(a) && a.length >= 4 ? vec4Of('f32') : '');
// Fragment-stage derivatives, typed so a module that also has a fragment shader checks.
for (const n of ['dpdx', 'dpdy', 'fwidth', 'dpdxCoarse', 'dpdyCoarse', 'fwidthCoarse', 'dpdxFine', 'dpdyFine', 'fwidthFine']) {
  SIGS[n] = fixed(1, (a) => same(a, floaty) ?? '');
}

function convertibleTo(from: Ty, to: Ty): boolean {
  const u = unify(from, to);
  return !!u && sameTy(u, to);
}

function atomicOf(a: BuiltinArg): Ty | null {
  const p = ptrArg(a);
  if (!p || p.el.k !== 'atomic' || (p.space !== 'storage' && p.space !== 'workgroup')) return null;
  return scalar(p.el.el);
}

/** Builtins whose result must be used (`@must_use` in the spec): everything returning a value except atomics. */
function mustUse(name: string, ty: Ty): boolean {
  return ty.k !== 'void' && !name.startsWith('atomic');
}

/**
 * Constant folding for a few builtins common in const-expressions: abstract ints exactly (in
 * bigint), every concrete type by the simulator's own scalar functions (`scalar.ts`), abstract
 * floats in doubles.
 */
function fold(name: string, a: BuiltinArg[], ty: Ty): CV | undefined {
  if (!a.every((x) => x.stage === 0 && x.c !== undefined && !Array.isArray(x.c))) return undefined;
  const xs = a.map((x) => x.c as number | bigint | boolean);
  const s = elemScalar(ty);
  if (!s || s === 'bool') return name === 'select' ? (xs[2] ? xs[1]! : xs[0]!) : undefined;
  if (name === 'select') return xs[2] ? xs[1]! : xs[0]!;
  if (s === 'ai') {
    const [x, y] = xs.map((v) => BigInt(v as bigint)) as [bigint, bigint];
    if (name === 'min') return x < y ? x : y;
    if (name === 'max') return x > y ? x : y;
    if (name === 'abs') return x < 0n ? -x : x;
    if (name === 'countOneBits') return BigInt(builtin1(name, 'u32')!(Number(x) >>> 0));
    return undefined;
  }
  if (!FOLDED.has(name)) return undefined;
  const num = xs.map(Number);
  if (name === 'sqrt' && num[0]! < 0) return undefined;
  if (num.length === 1) return builtin1(name, s)?.(num[0]!);
  if (num.length === 2) return builtin2(name, s)?.(num[0]!, num[1]!);
  return undefined;
}

const FOLDED = new Set(['min', 'max', 'abs', 'countOneBits', 'sqrt', 'floor', 'ceil']);

/**
 * Types a call to a builtin function. Returns undefined for an unknown name, a result, or a
 * result with `error` when no overload matches.
 */
export function builtinCall(name: string, a: BuiltinArg[], tmplTy: Ty | null): BuiltinResult | undefined {
  if (name === 'bitcast') {
    if (!tmplTy || a.length !== 1) return { ty: VOID, stage: 2, error: { message: `no matching call to 'bitcast'` } };
    const from = concretize(a[0]!.ty);
    const size = (t: Ty): number => (t.k === 'vec' ? t.n : 1) * (elemScalar(t) === 'f16' ? 2 : 4);
    if ((from.k !== 'scalar' && from.k !== 'vec') || (tmplTy.k !== 'scalar' && tmplTy.k !== 'vec') || size(from) !== size(tmplTy) || elemScalar(from) === 'bool' || elemScalar(tmplTy) === 'bool') {
      return { ty: VOID, stage: 2, error: { message: `cannot bitcast from '${tyName(a[0]!.ty)}' to '${tyName(tmplTy)}'` } };
    }
    return { ty: tmplTy, stage: a[0]!.stage };
  }
  const sig = SIGS[name];
  if (!sig) return undefined;
  const r = sig(a, name);
  const ext = isSubgroupOp(name) ? 'subgroups' : undefined;
  if (typeof r === 'string') {
    const msg = r || `no matching call to '${name}(${a.map((x) => tyName(x.ty)).join(', ')})'`;
    return { ty: VOID, stage: 2, error: { message: msg }, ...(ext ? { ext } : {}) };
  }
  const runtimeOnly = BARRIERS.has(name) || name.startsWith('atomic') || isSubgroupOp(name) || name === 'arrayLength';
  const stage = runtimeOnly ? 2 : a.reduce<0 | 1 | 2>((m, x) => (x.stage > m ? x.stage : m), 0);
  const out: BuiltinResult = { ty: r, stage, mustUse: mustUse(name, r), ...(ext ? { ext } : {}) };
  if (stage === 0) {
    const c = fold(name, a, r);
    if (c !== undefined) out.c = c;
    if (name === 'sqrt' && c === undefined && a[0]?.c !== undefined && Number(a[0].c) < 0) {
      out.error = { message: `sqrt(${String(a[0].c)}) cannot be evaluated: the argument must be at least 0` };
    }
  }
  // Constant-expression domain errors Tint reports.
  if (name === 'extractBits' || name === 'insertBits') {
    const o = a[name === 'extractBits' ? 1 : 2]!;
    const c = a[name === 'extractBits' ? 2 : 3]!;
    if (o.stage === 0 && c.stage === 0 && o.c !== undefined && c.c !== undefined && Number(o.c) + Number(c.c) > 32) {
      out.error = { message: `'offset' + 'count' must be less than or equal to the bit width of 'e'` };
    }
  }
  return out;
}

