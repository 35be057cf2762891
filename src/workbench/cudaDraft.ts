/**
 * A learner's CUDA in a lab: the kernel translated by `src/cuda`, launched in place of the lab's
 * WGSL variant with the lab's own data and configuration, and its outputs handed back to the
 * lab's driver as if the WGSL variant had written them.
 *
 * The launch is read off the lab's WGSL pass, so every lab works without code of its own:
 * - the kernel's pointer parameters take the pass's storage buffers: read-only ones (`const`) the
 *   read-only buffers and the others the read-write ones, each in declaration order (so
 *   `(float *d_out, const float *d_in)` takes the input and the output the right way round);
 * - values convert to the kernel's element type (a `float` kernel in a `u32` lab), and back;
 * - each of those buffers keeps the lab's name for the views (`KernelRun.aliases`), whatever the
 *   kernel calls its parameter;
 * - its scalar parameters take the pass's uniform fields of the same name (`n` ↔ `params.n`), else
 *   its override of that name in any case (`k` ↔ `K`);
 * - the grid is the pass's workgroups, the block its workgroup size, and an `extern __shared__`
 *   array gets the workgroup memory the pass declares (one element per thread where it declares none);
 * - of several template instances, the one whose arguments fit the pass: the element type, a
 *   value parameter named like an override of the pass (`EXCLUSIVE`), else the block size.
 * Loaded with the editor only (it imports the CUDA front end).
 */
import type { BindingData, Bindings, KernelRun } from '../kernel/types.ts';
import { compileCuda, parseCuda, prepareLaunch, type CudaProgram, type KernelArg, type KernelInfo, type TemplateParam } from '../cuda/index.ts';
import { tokenEnd, type EditorDiagnostic } from './editorLint.ts';
import { reflectModule } from '../wgsl/reflect.ts';
import type { DebugSource } from './debugger.ts';

export type { CudaProgram };

/** What a CUDA draft compiles to: its program, or its diagnostics (CUDA lines and columns). */
export type CudaCompiled = { readonly program: CudaProgram | undefined; readonly diagnostics: readonly EditorDiagnostic[] };

/** Translates `source`; every diagnostic at its CUDA line and column, as the editor shows them. */
export function compileCudaDraft(source: string, fileName = 'kernel.cu'): CudaCompiled {
  const r = compileCuda(source, { fileName });
  const diagnostics = r.diagnostics.map((d): EditorDiagnostic => {
    const end = d.endLine !== undefined && d.endColumn !== undefined && (d.endLine > d.line || d.endColumn > d.column) ? { endLine: d.endLine, endColumn: d.endColumn } : tokenEnd(source, d.line, d.column);
    return { line: d.line, column: d.column, ...end, severity: d.severity, message: d.message, source: 'front end' };
  });
  return { program: r.ok ? r.program : undefined, diagnostics };
}

/** The fields of `struct name`, in order (each a 4-byte scalar in the labs' uniforms). */
function structFields(code: string, name: string): string[] {
  const m = new RegExp(`struct\\s+${name}\\s*\\{([^}]*)\\}`).exec(code);
  if (!m) return [];
  return m[1]!
    .replace(/\/\/[^\n]*/g, '')
    .split(',')
    .map((f) => /^\s*(\w+)\s*:/.exec(f)?.[1])
    .filter((f): f is string => f !== undefined);
}

/** The error a learner sees when their kernel cannot take the lab's data; it says what to write. */
export class CudaLaunchMismatch extends Error {
  override name = 'CudaLaunchMismatch';
}

/** A template instance's arguments as its name spells them (`scan<unsigned int, true>` → `unsigned int`, `true`). */
function instanceArgs(name: string): string[] {
  const open = name.indexOf('<');
  if (open < 0) return [];
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = start; i < name.length - 1; i++) {
    const c = name[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === ',' && depth === 0) {
      args.push(name.slice(start, i).trim());
      start = i + 1;
    }
  }
  args.push(name.slice(start, name.length - 1).trim());
  return args;
}

/** The template parameters of each `__global__` template in the source, by name. */
const templateParams = new WeakMap<CudaProgram, Map<string, readonly TemplateParam[]>>();
function kernelTemplates(program: CudaProgram): Map<string, readonly TemplateParam[]> {
  let known = templateParams.get(program);
  if (!known) {
    known = new Map();
    for (const item of parseCuda(program.source, { fileName: program.fileName, files: program.files ?? {} }).unit.items) {
      if (item.kind === 'function' && item.global && item.template) known.set(item.name, item.template);
    }
    templateParams.set(program, known);
  }
  return known;
}

/** The C type a lab's element array holds. */
const cTypeOf = (data: BindingData | undefined): string | undefined =>
  data instanceof Float32Array ? 'float' : data instanceof Int32Array ? 'int' : data instanceof Uint32Array ? 'unsigned int' : undefined;

/**
 * The kernel to launch for the lab's pass: the only one, or the template instance that fits it.
 * A type parameter fits when it is the lab's element type, a value parameter named like one of
 * the pass's overrides (`EXCLUSIVE`) when it has that value (an instance with another value of it
 * cannot run the pass: `topkSeed<20, true>` for k = 5), any other value parameter when it is
 * the block size (`reduce<256>`); a kernel named like the pass's entry point (`scanRows` for
 * `scan_rows`) before any other, then one with as many pointers as the pass has arrays (the
 * merge of a file that also holds its partition kernel); the most fits win, the first on a tie.
 */
function pickKernel(program: CudaProgram, labRun: KernelRun, block: number, element: BindingData | undefined, arrays: number): KernelInfo {
  if (program.kernels.length === 0) throw new CudaLaunchMismatch('no __global__ function');
  const templates = kernelTemplates(program);
  const overrides = labRun.overrides ?? {};
  const plain = (name: string): string => name.replace(/_/g, '').toLowerCase();
  const fits = (k: KernelInfo): number => {
    const base = k.name.split('<')[0]!;
    const params = templates.get(base) ?? [];
    const named = (plain(base) === plain(labRun.entryPoint) ? 1000 : 0) + (k.params.filter((p) => p.kind === 'buffer').length === arrays ? 100 : 0);
    let fit = named;
    for (const [i, arg] of instanceArgs(k.name).entries()) {
      const p = params[i];
      if (p?.kind === 'type') fit += arg === cTypeOf(element) ? 1 : 0;
      else {
        const value = arg === 'true' ? 1 : arg === 'false' ? 0 : Number(arg.replace(/[uUlL]+$/, ''));
        // An instance compiled for another value of one of the pass's constants cannot run it.
        if (p && p.name in overrides && overrides[p.name] !== value) return -1;
        fit += (p && p.name in overrides) || value === block ? 1 : 0;
      }
    }
    return fit;
  };
  const best = program.kernels.reduce((a, k) => (fits(k) > fits(a) ? k : a));
  if (fits(best) < 0) {
    const wanted = Object.entries(overrides).map(([name, v]) => `${name} = ${v}`).join(', ');
    throw new CudaLaunchMismatch(`no kernel of this file fits the lab's pass (${wanted}): add an instance of ${best.name.split('<')[0]} for these values, or a kernel that takes them as arguments`);
  }
  return best;
}

/**
 * The bytes of an `extern __shared__` array: what the lab's pass declares in workgroup memory
 * beyond the kernel's static `__shared__` arrays (a tile of 2 elements per thread gets 2), or
 * one element per thread where the pass declares none.
 */
function dynamicSharedBytes(kernel: KernelInfo, labRun: KernelRun, block: number): number {
  const elementBytes = kernel.dynamicSharedOverride?.elementBytes ?? 4;
  const declared = reflectModule(labRun.code, { overrides: labRun.overrides ?? {}, entryPoint: labRun.entryPoint }).entryPoints.find((e) => e.name === labRun.entryPoint)?.workgroupStorage ?? 0;
  const left = declared - kernel.staticSharedBytes;
  return left >= elementBytes ? left - (left % elementBytes) : block * elementBytes;
}

/** The CUDA launch that stands for the lab's pass `labRun`, and how its outputs go back. */
export interface CudaPass {
  readonly run: KernelRun;
  /** The generated run's outputs as the lab's pass would have returned them (its bindings and types). */
  outputs(out: Bindings): Bindings;
}

export function cudaPass(program: CudaProgram, labRun: KernelRun): CudaPass {
  // The pass's group-0 buffers, in text order, as the WGSL front end reflects them.
  const reflected = reflectModule(labRun.code);
  const declared = reflected.bindings.filter((b) => b.group === 0);
  // The pass's block: its WORKGROUP_SIZE override, else the entry point's size where a constant fixes it (radix.wgsl's `const`).
  const fixedSize = reflected.entryPoints.find((e) => e.name === labRun.entryPoint)?.workgroupSize?.[0];
  const block = labRun.overrides?.['WORKGROUP_SIZE'] ?? fixedSize ?? Number(/@workgroup_size\(\s*(\d+)/.exec(labRun.code)?.[1] ?? 64);
  const storage = declared.filter((b) => b.kind !== 'uniform');
  const group = labRun.bindings[0] ?? {};
  const kernel = pickKernel(program, labRun, block, group[storage[0]?.binding ?? -1], storage.length);
  const uniform = declared.find((b) => b.kind === 'uniform');
  const fields = uniform?.type ? structFields(labRun.code, uniform.type) : [];
  const args: Record<string, KernelArg> = {};
  // CUDA binding → the lab's binding, and whether the lab's words are the f32's bits (a float
  // buffer the WGSL adds to atomically: WGSL has no float atomics, so it keeps `atomic<u32>` words).
  const back = new Map<number, { lab: number; bits: boolean }>();
  // CUDA binding → the name the lab's WGSL gives the buffer it takes, for the views (`KernelRun.aliases`).
  const aliases: Record<number, string> = {};
  const pools = { read: storage.filter((b) => b.kind === 'storage-read'), read_write: storage.filter((b) => b.kind === 'storage-read-write') };
  for (const p of kernel.params) {
    if (p.kind === 'buffer') {
      const pool = p.access === 'read' && pools.read.length > 0 ? pools.read : pools.read_write.length > 0 ? pools.read_write : pools.read;
      const b = pool.shift();
      const data = b && group[b.binding];
      if (!b || !data) throw new CudaLaunchMismatch(`${kernel.name}: this lab passes ${storage.length} arrays, and '${p.name}' has none left`);
      args[p.name] = p.type === 'float' && !(data instanceof Float32Array) ? Float32Array.from(data) : p.type !== 'float' && data instanceof Float32Array ? Int32Array.from(data) : data.slice();
      if (p.binding !== undefined) {
        back.set(p.binding, { lab: b.binding, bits: p.type === 'float' && b.type === 'array<atomic<u32>>' });
        aliases[p.binding] = b.name;
      }
    } else {
      const at = fields.indexOf(p.name);
      const words = uniform && group[uniform.binding];
      const override = Object.keys(labRun.overrides ?? {}).find((o) => o.toLowerCase() === p.name.toLowerCase());
      if (at >= 0 && words) args[p.name] = words[at]!;
      else if (override !== undefined) args[p.name] = labRun.overrides![override]!;
      else throw new CudaLaunchMismatch(`${kernel.name}: this lab gives no value for '${p.name}' (it passes ${[...fields, ...Object.keys(labRun.overrides ?? {})].join(', ') || 'no numbers'})`);
    }
  }
  const [x, y = 1, z = 1] = labRun.workgroups;
  const launch = prepareLaunch(program, kernel.name, { grid: { x, y, z }, block: { x: block, y: 1, z: 1 }, sharedBytes: kernel.dynamicShared ? dynamicSharedBytes(kernel, labRun, block) : 0 }, args);
  return {
    run: { ...launch.run, aliases: { 0: aliases }, ...(labRun.file ? { file: `${program.fileName} (from ${labRun.file})` } : {}) },
    outputs(out) {
      const from = out[0] ?? {};
      const mine = labRun.bindings[0] ?? {};
      const to: Record<number, BindingData> = {};
      for (const [cuda, { lab, bits }] of back) {
        const data = from[cuda];
        const like = mine[lab];
        if (!data || !like) continue;
        const Type = like.constructor as { new (buffer: ArrayBufferLike, offset: number, length: number): BindingData; from(a: ArrayLike<number>): BindingData };
        // A float kernel's values convert to the lab's integers (but stay bits where the lab keeps
        // a float's bits in u32 words); an `int` buffer keeps its bits as the lab's `u32`.
        to[lab] = !bits && (data instanceof Float32Array) !== (like instanceof Float32Array) ? Type.from(data) : new Type(data.buffer, data.byteOffset, data.byteLength / 4).slice();
      }
      return { 0: to };
    },
  };
}

/**
 * The debugger's view of a replay of `program` launched as `run`: trace positions as CUDA lines
 * (the translator's own code, from another file or none, as no line), the lines a breakpoint can
 * take, the launch's block and grid for CUDA's built-in variables, and the source's identifiers.
 */
export function cudaDebugSource(program: CudaProgram, run: KernelRun): DebugSource {
  const o = run.overrides ?? {};
  const [x, y = 1, z = 1] = run.workgroups;
  return {
    lineOf: (line, column) => cudaPlace(program, line, column)?.line,
    lines: program.sourceMap.cudaLines,
    block: [o['BLOCK_DIM_X'] ?? 1, o['BLOCK_DIM_Y'] ?? 1, o['BLOCK_DIM_Z'] ?? 1],
    grid: [x, y, z],
    identifiers: new Set(program.source.match(/[A-Za-z_]\w*/g) ?? []),
  };
}

/** The CUDA line and column a place in `program`'s generated WGSL came from (undefined: code the translator added). */
export function cudaPlace(program: CudaProgram, line: number, column: number): { line: number; column: number } | undefined {
  const at = program.sourceMap.toCuda(line, column);
  return at && at.file === undefined ? { line: at.line, column: at.column } : undefined;
}
