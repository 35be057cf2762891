/**
 * The CUDA conformance suite's case model and checks, in the style of the WebGPU CTS: cases are
 * grouped by section of the issue's subset (§2), declared with `group(section).test(name)`,
 * parameterised by tables, and named by a query `cuda:<section>:<test>:<param>=<value>;…`.
 *
 * A case is data: a complete CUDA source (kernels, `__device__` helpers, headers in `files`), a
 * launch, its arguments and what CUDA's semantics say must come out — computed by a reference
 * written in the case, derived by hand, or produced by the host compiler (oracle/*.cpp, see
 * scripts/cuda-conformance-oracle.sh). Expectations never come from the translator.
 *
 * This module only checks; the runners (conformance.test.ts on the simulator,
 * conformance.gpu.test.ts on Dawn) bring the front end and the executor.
 */
import type { Bindings, KernelRun } from '../../kernel/types.ts';
import type { CompileOptions, CompileResult, CudaProgram, Diagnostic, KernelArg, KernelInfo, KernelParam, LaunchConfig, PreparedLaunch } from '../types.ts';

/** The sections of the issue's §2, plus launches and the preprocessor. */
export const SECTIONS = [
  'functions',
  'builtins',
  'types',
  'memory',
  'sync',
  'atomics',
  'warp',
  'math',
  'operators',
  'control',
  'printf',
  'preprocessor',
  'launch',
] as const;
export type Section = (typeof SECTIONS)[number];

/** Where a case's expected result comes from. */
export type Origin =
  /** A TypeScript reference in the case, mirroring C semantics (Math.imul, >>> 0, Math.fround, …). */
  | 'reference'
  /** Literal values derived by reasoning from the Programming Guide or the C++ standard. */
  | 'literal'
  /** Printed by host-equivalent C++ compiled with g++ (oracle/*.cpp → oracle/*.json). */
  | 'gcc';

/** An expected output array: exact values, values within `ulp` f32 units, or a predicate. */
export type Expected =
  | readonly number[]
  | { readonly values: readonly number[]; readonly ulp: number }
  | { readonly describe: string; readonly check: (actual: readonly number[]) => string | undefined };

/** A diagnostic a case expects: at this line (and column), its message containing each string. */
export interface WantDiagnostic {
  readonly line: number;
  readonly column?: number;
  /** Substrings of the message, compared without regard to case. */
  readonly includes: readonly string[];
  /** The header the position is in, when not the main source. */
  readonly file?: string;
}

/** Parts of a kernel's reflected description a case pins down. */
export interface WantInfo {
  readonly params?: Readonly<Record<string, Partial<Pick<KernelParam, 'kind' | 'type' | 'bytes' | 'access' | 'atomic'>>>>;
  readonly staticSharedBytes?: number;
  readonly dynamicShared?: boolean;
  readonly usesWarpFunctions?: boolean;
  readonly usesPrintf?: boolean;
}

/** What `printed()` must give: these lines in this order, in any order, or a predicate. */
export type WantPrinted =
  | readonly string[]
  | { readonly anyOrder: readonly string[] }
  | { readonly describe: string; readonly check: (lines: readonly string[]) => string | undefined };

interface CaseBase {
  /** `cuda:<section>:<test>[:<params>]`, unique. */
  readonly id: string;
  readonly section: Section;
  /** Where the semantics are stated (Programming Guide section, C++ clause, CUDA Math API). */
  readonly spec: string;
  readonly source: string;
  readonly files?: Readonly<Record<string, string>>;
}

/** A kernel that must compile, run, and produce `expect`. */
export interface RunCase extends CaseBase {
  readonly kind: 'run';
  readonly from: Origin;
  readonly kernel: string;
  readonly launch: LaunchConfig;
  readonly args: Readonly<Record<string, KernelArg>>;
  /** Expected contents of output parameters after the launch, by parameter name. */
  readonly expect: Readonly<Record<string, Expected>>;
  readonly printed?: WantPrinted;
  /** Warnings that must be reported (other warnings are allowed only if they match one of these substrings). */
  readonly warnings?: readonly WantDiagnostic[];
  /** Warnings that may be reported but are not required (substrings of their messages). */
  readonly mayWarn?: readonly string[];
  readonly info?: WantInfo;
  /** Uses warp functions: needs 32-lane warps (skipped on a GPU whose subgroup size differs). */
  readonly warp?: boolean;
}

/** A source that must not compile: the front end reports this error. */
export interface CompileErrorCase extends CaseBase {
  readonly kind: 'compile-error';
  readonly error: WantDiagnostic;
  /**
   * nvcc accepts this source: it is outside the subset (recursion, goto, device malloc, …) or
   * its behaviour is undefined in CUDA (a barrier in divergent code). Without it, nvcc rejects
   * the source too (checked by `scripts/cuda-conformance-oracle.sh --nvcc`).
   */
  readonly nvccAccepts?: boolean;
}

/** A source that compiles, launched with a configuration CUDA refuses: `prepareLaunch` throws. */
export interface LaunchErrorCase extends CaseBase {
  readonly kind: 'launch-error';
  readonly kernel: string;
  readonly launch: LaunchConfig;
  readonly args: Readonly<Record<string, KernelArg>>;
  /** Substrings of the thrown `CudaLaunchError`'s message. */
  readonly includes: readonly string[];
}

export type Case = RunCase | CompileErrorCase | LaunchErrorCase;

type Param = string | number | boolean;
type Params = Readonly<Record<string, Param>>;
type Common = Omit<CaseBase, 'id' | 'section' | 'spec'>;
type RunBody = Common & Omit<RunCase, keyof CaseBase | 'kind'>;
type ErrorBody = Common & Omit<CompileErrorCase, keyof CaseBase | 'kind'>;
type LaunchBody = Common & Omit<LaunchErrorCase, keyof CaseBase | 'kind'>;

function query(section: Section, name: string, p: Params | undefined): string {
  const tail = p ? Object.entries(p).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(';') : '';
  return `cuda:${section}:${name}${tail ? `:${tail}` : ''}`;
}

/** One test of a group: a spec reference, optionally a parameter table, then its case builder. */
export class TestBuilder<P extends Params | undefined = undefined> {
  constructor(
    private readonly g: Group,
    private readonly name: string,
    private readonly specText: string,
    private readonly table?: readonly P[],
  ) {}

  /** One case per row of `rows` (like the CTS's `params(u => u.combine(…))`). */
  params<Q extends Params>(rows: readonly Q[]): TestBuilder<Q> {
    return new TestBuilder<Q>(this.g, this.name, this.specText, rows);
  }

  private each<B>(build: (p: P) => B, make: (id: string, body: B) => Case): void {
    for (const p of this.table ?? [undefined as P]) {
      this.g.add(make(query(this.g.section, this.name, p), build(p)));
    }
  }

  run(build: (p: P) => RunBody): void {
    this.each(build, (id, body) => ({ ...body, kind: 'run', id, section: this.g.section, spec: this.specText }));
  }

  error(build: (p: P) => ErrorBody): void {
    this.each(build, (id, body) => ({ ...body, kind: 'compile-error', id, section: this.g.section, spec: this.specText }));
  }

  launchError(build: (p: P) => LaunchBody): void {
    this.each(build, (id, body) => ({ ...body, kind: 'launch-error', id, section: this.g.section, spec: this.specText }));
  }
}

/** The cases of one section. */
export class Group {
  readonly cases: Case[] = [];
  constructor(readonly section: Section) {}

  test(name: string, spec: string): TestBuilder {
    return new TestBuilder(this, name, spec);
  }

  add(c: Case): void {
    if (this.cases.some((o) => o.id === c.id)) throw new Error(`duplicate case ${c.id}`);
    this.cases.push(c);
  }
}

export function group(section: Section): Group {
  return new Group(section);
}

// ---------------------------------------------------------------------------------------------
// Checking

/** The front end under test, as `src/cuda/index.ts` exports it. */
export interface FrontEnd {
  compileCuda(source: string, options?: CompileOptions): CompileResult;
  prepareLaunch(program: CudaProgram, kernel: string, config: LaunchConfig, args: Readonly<Record<string, KernelArg>>): PreparedLaunch;
}

/** Runs a `KernelRun` on one executor and returns its bindings after the dispatch. */
export type Execute = (run: KernelRun) => Promise<Bindings> | Bindings;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

function ordered(x: number): number {
  f32[0] = x;
  const b = u32[0]!;
  return b & 0x80000000 ? -(b & 0x7fffffff) : b;
}

/** Distance in f32 units in the last place. */
export function ulpDistance(a: number, b: number): number {
  return Math.abs(ordered(a) - ordered(b));
}

function show(x: number): string {
  return Object.is(x, -0) ? '-0' : String(x);
}

function sameValue(want: number, got: number, isFloat: boolean, ulp: number): boolean {
  if (!isFloat) return want === got;
  const w = Math.fround(want);
  if (Number.isNaN(w)) return Number.isNaN(got);
  if (ulp === 0) return Object.is(w, got);
  if (!Number.isFinite(w) || !Number.isFinite(got)) return w === got;
  return ulpDistance(w, got) <= ulp;
}

function isList(x: unknown): x is readonly number[] {
  return Array.isArray(x);
}

/** Compares one output array with its expectation; returns what is wrong, or undefined. */
export function compareArray(name: string, want: Expected, got: KernelArg | undefined): string | undefined {
  if (got === undefined || typeof got === 'number' || typeof got === 'boolean') return `${name}: no array came back`;
  const actual = Array.from(got as ArrayLike<number>);
  let values: readonly number[];
  let ulp = 0;
  if (isList(want)) values = want;
  else if ('check' in want) {
    const why = want.check(actual);
    return why ? `${name}: ${want.describe}: ${why}` : undefined;
  } else ({ values, ulp } = want);
  const isFloat = got instanceof Float32Array;
  if (actual.length < values.length) return `${name}: ${actual.length} elements came back, expected ${values.length}`;
  const bad: string[] = [];
  values.forEach((w, i) => {
    if (!sameValue(w, actual[i]!, isFloat, ulp)) bad.push(`[${i}] expected ${show(isFloat ? Math.fround(w) : w)}, got ${show(actual[i]!)}`);
  });
  if (!bad.length) return undefined;
  return `${name}: ${bad.length} of ${values.length} differ${ulp ? ` (by more than ${ulp} ulp)` : ''}: ${bad.slice(0, 6).join('; ')}${bad.length > 6 ? '; …' : ''}`;
}

export function showDiagnostics(ds: readonly Diagnostic[]): string {
  if (!ds.length) return '(none)';
  return ds.map((d) => `${d.file ? `${d.file}:` : ''}${d.line}:${d.column} ${d.severity}: ${d.message}`).join(' | ');
}

function matches(d: Diagnostic, want: WantDiagnostic): boolean {
  const msg = d.message.toLowerCase();
  return (
    d.line === want.line &&
    (want.column === undefined || d.column === want.column) &&
    (d.file ?? undefined) === want.file &&
    want.includes.every((s) => msg.includes(s.toLowerCase()))
  );
}

function describeWant(w: WantDiagnostic): string {
  return `${w.file ? `${w.file}:` : ''}${w.line}${w.column === undefined ? '' : `:${w.column}`} containing ${w.includes.map((s) => JSON.stringify(s)).join(' and ')}`;
}

function checkInfo(k: KernelInfo, want: WantInfo): string[] {
  const out: string[] = [];
  for (const [name, fields] of Object.entries(want.params ?? {})) {
    const p = k.params.find((q) => q.name === name);
    if (!p) {
      out.push(`kernel ${k.name} has no parameter ${name}`);
      continue;
    }
    for (const [f, v] of Object.entries(fields)) {
      const got = (p as unknown as Record<string, unknown>)[f];
      if (got !== v) out.push(`parameter ${name}: ${f} is ${JSON.stringify(got)}, expected ${JSON.stringify(v)}`);
    }
  }
  for (const f of ['staticSharedBytes', 'dynamicShared', 'usesWarpFunctions', 'usesPrintf'] as const) {
    if (want[f] !== undefined && k[f] !== want[f]) out.push(`kernel ${k.name}: ${f} is ${JSON.stringify(k[f])}, expected ${JSON.stringify(want[f])}`);
  }
  return out;
}

function isStrings(x: unknown): x is readonly string[] {
  return Array.isArray(x);
}

function checkPrinted(want: WantPrinted, printed: readonly string[]): string | undefined {
  // Compare text, line by line, whether printed() gives each line with its '\n' or without.
  const text = printed.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join('');
  const lines = text.split('\n').slice(0, -1);
  if (isStrings(want)) return JSON.stringify(want) === JSON.stringify(lines) ? undefined : `printf: expected ${JSON.stringify(want)}, got ${JSON.stringify(lines)}`;
  if ('check' in want) {
    const why = want.check(lines);
    return why ? `printf: ${want.describe}: ${why}` : undefined;
  }
  const [w, g] = [[...want.anyOrder].sort(), [...lines].sort()];
  return JSON.stringify(w) === JSON.stringify(g) ? undefined : `printf: expected ${JSON.stringify(w)}, got ${JSON.stringify(g)}`;
}

function compileOptions(c: Case): CompileOptions {
  return c.files ? { fileName: 'kernel.cu', files: c.files } : { fileName: 'kernel.cu' };
}

/** Compiles and launches a run case on `execute`; returns every failure (empty when the case passes). */
export async function checkRun(fe: FrontEnd, c: RunCase, execute: Execute): Promise<string[]> {
  const result = fe.compileCuda(c.source, compileOptions(c));
  if (!result.ok) return [`does not compile: ${showDiagnostics(result.diagnostics)}`];
  const failures: string[] = [];
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) failures.push(`compiled with errors: ${showDiagnostics(errors)}`);
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
  const wanted = c.warnings ?? [];
  for (const w of wanted) {
    if (!warnings.some((d) => matches(d, w))) failures.push(`missing warning at ${describeWant(w)}; warnings: ${showDiagnostics(warnings)}`);
  }
  const allowed = [...wanted.flatMap((w) => w.includes), ...(c.mayWarn ?? [])].map((s) => s.toLowerCase());
  const stray = warnings.filter((d) => !allowed.some((s) => d.message.toLowerCase().includes(s)));
  if (stray.length) failures.push(`unexpected warnings: ${showDiagnostics(stray)}`);
  const k = result.program.kernels.find((q) => q.name === c.kernel);
  if (!k) return [...failures, `no kernel ${c.kernel}; kernels: ${result.program.kernels.map((q) => q.name).join(', ')}`];
  if (c.info) failures.push(...checkInfo(k, c.info));
  let prepared: PreparedLaunch;
  try {
    prepared = fe.prepareLaunch(result.program, c.kernel, c.launch, c.args);
  } catch (e) {
    return [...failures, `prepareLaunch threw: ${e instanceof Error ? e.message : String(e)}`];
  }
  const outputs = await execute(prepared.run);
  const back = prepared.readBack(outputs);
  for (const [name, want] of Object.entries(c.expect)) {
    const why = compareArray(name, want, back[name]);
    if (why) failures.push(why);
  }
  if (c.printed) {
    const why = checkPrinted(c.printed, prepared.printed(outputs));
    if (why) failures.push(why);
  }
  return failures;
}

/** Compiles an error case; returns every failure (empty when the expected error is reported). */
export function checkCompileError(fe: FrontEnd, c: CompileErrorCase): string[] {
  let result: CompileResult;
  try {
    result = fe.compileCuda(c.source, compileOptions(c));
  } catch (e) {
    return [`compileCuda threw instead of reporting: ${e instanceof Error ? e.message : String(e)}`];
  }
  const failures: string[] = [];
  if (result.ok) failures.push('compiled, but CUDA rejects this source');
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (!errors.some((d) => matches(d, c.error))) failures.push(`no error at ${describeWant(c.error)}; diagnostics: ${showDiagnostics(result.diagnostics)}`);
  return failures;
}

/** Compiles a launch-error case and prepares its launch; returns every failure. */
export function checkLaunchError(fe: FrontEnd, c: LaunchErrorCase): string[] {
  const result = fe.compileCuda(c.source, compileOptions(c));
  if (!result.ok) return [`does not compile: ${showDiagnostics(result.diagnostics)}`];
  try {
    fe.prepareLaunch(result.program, c.kernel, c.launch, c.args);
  } catch (e) {
    if (!(e instanceof Error)) return [`threw a non-Error: ${String(e)}`];
    const failures: string[] = [];
    if (e.name !== 'CudaLaunchError') failures.push(`threw ${e.name} (${e.message}), expected a CudaLaunchError`);
    const msg = e.message.toLowerCase();
    for (const s of c.includes) if (!msg.includes(s.toLowerCase())) failures.push(`message ${JSON.stringify(e.message)} lacks ${JSON.stringify(s)}`);
    return failures;
  }
  return ['prepareLaunch accepted a configuration CUDA refuses'];
}

// ---------------------------------------------------------------------------------------------
// Helpers for writing cases

/** The index of each thread of a 1-D launch: 0, 1, …, n − 1. */
export function iota(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** A deterministic pseudo-random sequence (xorshift32), so inputs are fixed and varied. */
export function seeded(n: number, seed: number, map: (r: number, i: number) => number): number[] {
  let s = seed >>> 0 || 1;
  return Array.from({ length: n }, (_, i) => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return map(s, i);
  });
}

/** `dim3(x, y, z)`: missing components are 1. */
export function dim3(x: number, y = 1, z = 1): { x: number; y: number; z: number } {
  return { x, y, z };
}

/** The C type of an oracle entry → the typed array its buffer is. */
export const ARRAY_OF = {
  bool: Uint8Array,
  char: Int8Array,
  'signed char': Int8Array,
  'unsigned char': Uint8Array,
  short: Int16Array,
  'unsigned short': Uint16Array,
  int: Int32Array,
  unsigned: Uint32Array,
  'unsigned int': Uint32Array,
  float: Float32Array,
} as const;
export type OracleType = keyof typeof ARRAY_OF;

/** A typed array of `type` holding `values`. */
export function arrayOf(type: OracleType, values: readonly number[]): KernelArg {
  return ARRAY_OF[type].from(values);
}
