/**
 * The lab contract. A lab is one folder under `src/labs/<lab>/` whose `index.ts` exports a
 * `LabModule` (no React in it) and whose `ui/` folder may add panels. The registry
 * (`src/labs/registry.ts`) lists the modules; the URL, the controls, the lesson steps, the kernel
 * test cases, the bench and the views all read what they need from there.
 */
import type { BindingData, KernelRun } from '../kernel/types.ts';
import type { KernelCase } from '../kernel/cases.ts';
import type { BandwidthBaselines, BaselineKind, GpuExecutor } from '../gpu/executor.ts';
import type { Metrics } from '../sim/index.ts';
import type { TraceIndex } from '../trace/index.ts';
import type { BestFigure } from '../bench/format.ts';
import type { ElementType, KernelExecutor } from './labTypes.ts';
import type { Exercise } from './exercise.ts';
import { withTexts, type Catalog } from '../i18n/catalog.ts';
import type { MessageValues } from '../i18n/format.ts';
import { m } from './labMessages.ts';

/** One variant of an algorithm: one WGSL file. */
export interface LabVariant {
  readonly id: string;
  readonly title: string;
  /** One or two sentences in our words: what the variant does and what to look for. */
  readonly summary: string;
  readonly file: string;
  readonly wgsl: string;
  /** Our CUDA rendering of the same kernel, for the code pane. */
  readonly cuda?: string;
  readonly workgroupSizes: readonly number[];
  readonly elementTypes: readonly ElementType[];
  readonly needsSubgroups: boolean;
  /** Set for a deliberately racy teaching variant: why its result is not guaranteed. */
  readonly racy?: string;
}

/** A parameter value as the URL, the controls and the lesson steps carry it. */
export type ParamValue = number | string;
/** A lab's parameters by name, e.g. `{ n: 1024, workgroupSize: 256, type: 'u32' }`. */
export type Params = Readonly<Record<string, ParamValue>>;

/** What parsing one URL value gave: the value, or why it was refused (one clause, no full stop). */
export type Parsed<V> = { readonly value: V } | { readonly error: string };

/** What a resolver made of a value: the value to use, and a sentence when it changed it. */
export interface Resolution<V> {
  readonly value: V;
  readonly notice?: string;
}

/**
 * One parameter: the single source for its URL key, its control, its place in lesson steps and
 * the notices when a value does not fit.
 */
export interface ParamField<V extends ParamValue = ParamValue> {
  /** The query key in the address (`n`, `wg`, `type`, `m`…). */
  readonly key: string;
  /** The name people read in controls and notices (`size n`, `workgroup size`). */
  readonly label: string;
  /** The control's own heading when it is shorter than the label (the element count's `n`); default: the label, capitalised. */
  readonly controlLabel?: string | undefined;
  /** Parses the URL text; never throws. */
  parse(raw: string): Parsed<V>;
  /** The values the control offers for this variant, given the parameters resolved so far. */
  choices(variant: LabVariant, params: Params): readonly V[];
  /** Fits a value to the variant (and the parameters before it in the spec), saying what it adjusted. */
  resolve(value: V, variant: LabVariant, params: Params): Resolution<V>;
  /** How a value reads in the control and the lesson header (default: `String`). */
  show?(value: V): string;
  /**
   * For a value that sets the workgroup's size: how many invocations one workgroup has with it, so
   * a value the learner's adapter cannot run is neither offered nor used.
   */
  invocations?(value: V, variant: LabVariant, params: Params): number;
}

/** How `value` of `field` reads in a control, a notice or the lesson header: its `show`, else `String`. */
export function showParam<V extends ParamValue>(field: ParamField<V>, value: V): string {
  return field.show ? field.show(value) : String(value);
}

/** What the learner's adapter allows, where a parameter depends on it (WebGPU's default is 256). */
export interface DeviceLimits {
  readonly maxInvocationsPerWorkgroup: number;
  /** The adapter offers `shader-f16`, so the simulator runs f16 kernels as the GPU does. */
  readonly shaderF16?: boolean;
}

/**
 * How a control offers a value the device cannot run (shown disabled, with why), or undefined when
 * it can.
 */
export function overDeviceLabel<V extends ParamValue>(field: ParamField<V>, value: V, variant: LabVariant, params: Params, device: DeviceLimits | undefined): string | undefined {
  if (!device || !field.invocations || fitsDevice(field, value, variant, params, device)) return undefined;
  return m('control.overDevice', { value: showParam(field, value), need: field.invocations(value, variant, params), max: device.maxInvocationsPerWorkgroup });
}

/** Whether `value` of `field` fits the device (always, when the device or the field's size is unknown). */
export function fitsDevice<V extends ParamValue>(field: ParamField<V>, value: V, variant: LabVariant, params: Params, device: DeviceLimits | undefined): boolean {
  return !device || !field.invocations || field.invocations(value, variant, params) <= device.maxInvocationsPerWorkgroup;
}

/** The parameter spec of a lab with parameters `P`: one field per parameter, resolved in this order. */
export type ParamSpec<P extends Params> = { readonly [K in keyof P]: ParamField<P[K]> };

/** A lab's inputs by name (`input`, `a`, `b`, `matrix`…). */
export type LabInputs = Readonly<Record<string, BindingData>>;

/** Whether an output matches the CPU reference, and when it does not, what differs. */
export type CheckResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** A named moment of a lab's trace for lessons, resolved with an argument (a phase name, a count…). */
export type LabMoment = (index: TraceIndex, arg: string) => number;

/**
 * The moment a lab page opens at when the address names no step (its argument: the variant id):
 * a picture that already shows the kernel's point (the first tree level, the first divergent warp,
 * the first tile in workgroup memory), found in the trace. See `src/workbench/openings.ts`.
 */
export const OPENING_MOMENT = 'opening';

/** The step a lab page opens at for `variant`: the lab's opening moment, within the trace (0 without one). */
export function openingStep(lab: Pick<AnyLab, 'moments'>, index: TraceIndex, variant: string): number {
  const find = lab.moments?.[OPENING_MOMENT];
  const last = Math.max(0, index.trace.stepCount - 1);
  return find ? Math.min(last, Math.max(0, find(index, variant))) : 0;
}

/** A row the metrics panel adds for this lab, computed from the simulation. */
export interface MetricRow {
  /** A name a lesson step's `stage.figures` can use for the row, the same in every language. */
  readonly id?: string;
  readonly label: string;
  readonly value: string;
  readonly hint?: string;
}

/** What the benchmark needs from a lab. */
export interface LabBench<P extends Params> {
  /** The element count of a parameter set, for the sweep's x axis and GB/s. */
  elements(params: P): number;
  /** The parameters at `elements` (a power of two), keeping the rest of `params`. */
  at(params: P, elements: number): P;
  /** The chain of dispatches `GpuExecutor.time` measures. */
  passes(variant: string, params: P): KernelRun[];
  /** Bytes the algorithm must move at least, for GB/s. */
  bytes(params: P): number;
  /**
   * The bandwidth kernel its timings are set against, in alternating rounds over the same buffers
   * (default 'read': kernels that read their input once and write little; 'copy' for kernels
   * that also write about as much as they read).
   */
  readonly baseline?: BaselineKind;
  /** Arithmetic operations, where a rate in FLOP/s means something. */
  flops?(params: P): number;
  /** The plain sequential CPU loop (its result is returned so it cannot be optimised away). */
  cpu(inputs: LabInputs, params: P): number;
  /** Published figures to set beside the learner's own, shown under the timings table. */
  readonly note?: string;
  /** The largest element count the timing sweep should take (its CPU loop and check grow faster than n). */
  readonly maxElements?: number;
  /** The lab's section of `npm run bench`: prints its own table. */
  readonly section?: (
    gpu: GpuExecutor,
    baselines: BandwidthBaselines,
    opts: { repeats: number; maxLog2: number; sweep: boolean; record?: (best: BestFigure) => void },
  ) => Promise<string>;
}

/** Everything the platform knows about an algorithm family. */
export interface LabModule<P extends Params = Params> {
  readonly id: string;
  /** Where the course takes it (home page and lesson index order); any number, fractions welcome. */
  readonly courseOrder: number;
  readonly title: string;
  readonly summary: string;
  readonly variants: readonly LabVariant[];
  readonly defaultVariant: string;
  readonly params: ParamSpec<P>;
  readonly defaults: P;
  /** Seeded inputs for a parameter set. */
  inputs(params: P, seed: number): LabInputs;
  /**
   * The single dispatch the step-through replays (the first pass). `source` replaces the
   * variant's WGSL (the live editor passes a draft).
   */
  stepRun(variant: string, params: P, inputs: LabInputs, source?: string): KernelRun;
  /** Runs the whole algorithm (all passes) on any executor and returns its output. */
  runAll(executor: KernelExecutor, variant: string, params: P, inputs: LabInputs): Promise<BindingData>;
  /** Compares an output with the CPU reference: exactly for integers, within a stated bound for f32. */
  check(variant: string, params: P, inputs: LabInputs, output: BindingData): CheckResult;
  readonly bench: LabBench<P>;
  /** Every kernel of the lab with seeded inputs, for the GPU–simulator differential test. */
  readonly cases: readonly KernelCase[];
  /** Moments lessons may name beyond the generic ones (start, end, barriers, divergence…). */
  readonly moments?: Readonly<Record<string, LabMoment>>;
  /** "Fix the kernel" exercises that start from a broken variant of this lab. */
  readonly exercises?: readonly Exercise[];
  /** The project's own recorded figures (docs/benchmarks.md), shown beside the learner's timings. */
  readonly recorded?: RecordedTimings;
  /**
   * Metric rows beyond the generic ones; `traced` is the variant and the index of the traced
   * workgroup, once its simulation is done.
   */
  metrics?(metrics: Metrics, params: P, traced?: { readonly variant: string; readonly index: TraceIndex }): readonly MetricRow[];
}

/** A lab with its parameter type erased, as the registry and the app hold it. */
export type AnyLab = LabModule<Params>;

/** A benchmark run the project recorded: the device, the size, and the median per variant. */
export interface RecordedTimings {
  readonly device: string;
  readonly n: number;
  /** Where the figures come from, e.g. `docs/benchmarks.md`. */
  readonly source: string;
  readonly rows: readonly { readonly variant: string; readonly ms: number; readonly gbps: number }[];
}

/** What a lab's `meta.ts` says of it, known before its module loads: id, place in the course, texts, parameters. */
export type LabMetaFields = 'id' | 'courseOrder' | 'title' | 'summary' | 'params';

/**
 * A typed lab module from its meta and the rest, registered under the erased type. The meta's
 * title and summary stay getters (read in the language of the moment), which a spread would not.
 */
export function defineLab<Id extends string, P extends Params>(
  meta: Pick<LabModule<P>, LabMetaFields> & { readonly id: Id },
  lab: Omit<LabModule<P>, LabMetaFields>,
): AnyLab & { readonly id: Id } {
  return described({ ...meta, ...lab }, () => meta.title, () => meta.summary);
}

/** Picks a workgroup size the variant supports, nearest to the wanted one. */
export function supportedWorkgroupSize(variant: LabVariant, wanted: number): number {
  const sizes = variant.workgroupSizes;
  if (sizes.includes(wanted)) return wanted;
  return sizes.reduce((best, s) => (Math.abs(s - wanted) < Math.abs(best - wanted) ? s : best), sizes[0] ?? 256);
}

const MAX_INT = 2 ** 31 - 1;

/** Cuts a value for display in a notice, so a hostile URL cannot fill the screen. */
export function shown(value: string): string {
  const clean = value.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

/** A whole-number parameter between `min` and `max`. */
export function intField(field: {
  key: string;
  /** The field's name in the language of the moment. */
  label: () => string;
  controlLabel?: () => string;
  min?: number;
  max?: number;
  choices: (variant: LabVariant, params: Params) => readonly number[];
  resolve?: (value: number, variant: LabVariant, params: Params) => Resolution<number>;
  invocations?: (value: number, variant: LabVariant, params: Params) => number;
}): ParamField<number> {
  const min = field.min ?? 0;
  const max = field.max ?? MAX_INT;
  return {
    key: field.key,
    get label() {
      return field.label();
    },
    get controlLabel() {
      return field.controlLabel?.();
    },
    parse(raw) {
      if (!/^\d{1,10}$/.test(raw)) return { error: m('parse.wholeNumber') };
      const value = Number(raw);
      if (value < min || value > max) return { error: m('parse.range', { min, max }) };
      return { value };
    },
    choices: field.choices,
    resolve: field.resolve ?? ((value) => ({ value })),
    show: (v) => v.toLocaleString('en'),
    ...(field.invocations ? { invocations: field.invocations } : {}),
  };
}

/**
 * A whole number that must be one of a short list (a mask width, a tile size, a row length): the
 * control offers the list, and a value off it becomes what `instead` makes of it, with its notice.
 */
export function listedIntField(field: {
  key: string;
  /** The field's name in the language of the moment. */
  label: () => string;
  max: number;
  values: (variant: LabVariant, params: Params) => readonly number[];
  instead: (value: number, listed: readonly number[], variant: LabVariant, params: Params) => Resolution<number>;
  invocations?: (value: number, variant: LabVariant, params: Params) => number;
}): ParamField<number> {
  const { values, instead, ...rest } = field;
  return intField({
    ...rest,
    min: 1,
    choices: values,
    resolve(value, variant, params) {
      const listed = values(variant, params);
      return listed.includes(value) ? { value } : instead(value, listed, variant, params);
    },
  });
}

/**
 * A parameter naming one of `values` (a matrix kind, a distribution, an input pattern). With
 * `strict`, the address may carry only a listed value (anything else is refused by the parser and
 * the default stays); without, any short lower-case name parses and the resolver puts `fallback`
 * in place of one it does not know. Either way a lesson's value goes through the resolver.
 */
export function choiceField(field: {
  key: string;
  /** The field's name in the language of the moment. */
  label: () => string;
  values: readonly string[];
  fallback: string;
  strict?: boolean;
  /** Why a URL text was refused (one clause, no full stop). */
  parseError: () => string;
  /** The sentence when the resolver replaced `name` (already cut by `shown`) with the fallback. */
  notice: (name: string) => string;
  show?: (value: string) => string;
}): ParamField<string> {
  const listed = (v: string) => field.values.includes(v);
  return {
    key: field.key,
    get label() {
      return field.label();
    },
    parse: (raw) => ((field.strict ? listed(raw) : /^[a-z-]{1,20}$/.test(raw)) ? { value: raw } : { error: field.parseError() }),
    choices: () => field.values,
    resolve: (value) => (listed(value) ? { value } : { value: field.fallback, notice: field.notice(shown(value)) }),
    ...(field.show ? { show: field.show } : {}),
  };
}

/**
 * A strict choice among `values` whose words are messages of a lab's catalog: the label
 * `param.<name>`, the refusal `parse.<name>` (given `names`), the notice `notice.<name>` (given
 * `name`) and each value's name `<valuePrefix>.<value>`. A catalog without the first three throws
 * here, when the lab loads, rather than showing a key.
 */
export function catalogChoiceField<T extends Record<string, string>>(
  catalog: Catalog<T>,
  field: { key: string; name: string; valuePrefix: string; values: readonly string[]; fallback: string },
): ParamField<string> {
  const text = (kind: 'param' | 'parse' | 'notice') => {
    const key = `${kind}.${field.name}`;
    if (!catalog.has(key)) throw new Error(`The catalog “${catalog.id}” has no “${kind}.${field.name}” for the field ${field.key}.`);
    return (values?: MessageValues) => catalog(key, values);
  };
  const [label, parseError, notice] = [text('param'), text('parse'), text('notice')];
  return choiceField({
    key: field.key,
    label: () => label(),
    values: field.values,
    fallback: field.fallback,
    strict: true,
    parseError: () => parseError({ names: field.values.join(', ') }),
    notice: (name) => notice({ name }),
    show: (v) => catalog.find(`${field.valuePrefix}.${v}`) ?? v,
  });
}

/** The workgroup size: what the variant is written for, nearest to the wanted one. */
export function workgroupSizeField(): ParamField<number> {
  return intField({
    key: 'wg',
    label: () => m('param.workgroupSize'),
    min: 1,
    max: 1024,
    choices: (variant) => variant.workgroupSizes,
    resolve(value, variant) {
      const size = supportedWorkgroupSize(variant, value);
      return size === value
        ? { value }
        : { value: size, notice: m('notice.workgroupSize', { variant: variant.title, sizes: variant.workgroupSizes.join(', '), size }) };
    },
    invocations: (value) => value,
  });
}

/** The element type: one the variant runs on. */
export function elementTypeField(fallback: ElementType): ParamField<string> {
  return {
    key: 'type',
    get label() {
      return m('param.elementType');
    },
    parse: (raw) => (/^[a-z0-9-]{1,40}$/.test(raw) ? { value: raw } : { error: m('parse.name') }),
    choices: (variant) => variant.elementTypes,
    resolve(value, variant) {
      if ((variant.elementTypes as readonly string[]).includes(value)) return { value };
      const use = variant.elementTypes.includes(fallback) ? fallback : (variant.elementTypes[0] ?? fallback);
      return { value: use, notice: m('notice.elementType', { variant: variant.title, type: value, use }) };
    },
  };
}

/**
 * The seed of the inputs the step-through simulates: the lab session draws them with it, and a lab
 * that rebuilds its inputs outside the session (a stage, a metric row) uses the same one.
 */
export const INPUT_SEED = 1;

/** The most elements the step-through simulates (the timings go further, on the GPU). */
export const MAX_STEP_ELEMENTS = 1 << 16;

/**
 * `fields` with a `title` and a `summary` that are looked up each time they are read, so they are
 * in the language of the moment (a lab's meta, a variant). A spread copies the words of one
 * language: describe the copy again.
 */
export function described<const T extends object>(
  fields: T,
  title: () => string,
  summary: () => string,
): Omit<T, 'title' | 'summary'> & { readonly title: string; readonly summary: string } {
  return withTexts(fields as Omit<T, 'title' | 'summary'>, { title, summary });
}

/**
 * A variant whose title and summary are messages of its lab's catalog, `<prefix><id>.title` and
 * `<prefix><id>.summary` (with `values` filled in), read in the language of the moment. A catalog
 * without them throws here, when the lab loads, rather than showing a key.
 */
export function variantFrom<T extends Record<string, string>>(
  catalog: Catalog<T>,
  prefix: string,
  fields: Omit<LabVariant, 'title' | 'summary'>,
  values?: MessageValues,
): LabVariant {
  const text = (part: 'title' | 'summary') => {
    const key = `${prefix}${fields.id}.${part}`;
    if (!catalog.has(key)) throw new Error(`The catalog “${catalog.id}” has no “${prefix}${fields.id}.${part}” for the variant ${fields.id}.`);
    return () => catalog(key, values);
  };
  return described(fields, text('title'), text('summary'));
}

/** A 1-D element count: offered at `sizes`, capped at what the step-through can trace. */
export function elementCountField(sizes: readonly number[]): ParamField<number> {
  return intField({
    key: 'n',
    label: () => m('param.n'),
    controlLabel: () => m('param.n.control'),
    min: 1,
    max: 2 ** 28,
    choices: (_variant, params) => [...new Set([...sizes, Number(params.n ?? sizes[0])])].sort((a, b) => a - b),
    resolve: (value) =>
      value > MAX_STEP_ELEMENTS
        ? {
            value: MAX_STEP_ELEMENTS,
            notice: m('notice.stepLimit', { n: value.toLocaleString('en'), max: MAX_STEP_ELEMENTS.toLocaleString('en') }),
          }
        : { value },
  });
}

/** Parses URL texts by a lab's spec; what cannot be parsed becomes a notice and is left out. */
export function parseParams(lab: Pick<AnyLab, 'params'>, raw: (key: string) => string | null): { params: Partial<Record<string, ParamValue>>; notices: string[] } {
  const params: Record<string, ParamValue> = {};
  const notices: string[] = [];
  for (const [name, field] of Object.entries(lab.params)) {
    const text = raw(field.key);
    if (text === null || text === '') continue;
    const parsed = field.parse(text);
    if ('error' in parsed) notices.push(m('notice.ignored', { label: field.label, text: shown(text), error: parsed.error }));
    else params[name] = parsed.value;
  }
  return { params, notices };
}

/** Writes parameters as URL texts by a lab's spec. */
export function formatParams(lab: Pick<AnyLab, 'params'>, params: Partial<Record<string, ParamValue>>): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, field] of Object.entries(lab.params)) {
    const v = params[name];
    if (v !== undefined) out.push([field.key, String(v)]);
  }
  return out;
}

/** The variant, the full parameter set and what was adjusted, for what a route or lesson asked. */
export interface ResolvedParams {
  readonly variant: LabVariant;
  readonly params: Params;
  readonly notices: readonly string[];
}

/**
 * Fills what is left open with the lab's defaults and fits every value to the variant, in spec order.
 * Every value asked for is parsed as the address's text would be; one the parser refuses keeps the
 * default, with the same notice the address gives.
 */
export function resolveParams(lab: AnyLab, variantId: string | undefined, wanted: Partial<Record<string, ParamValue>>, device?: DeviceLimits): ResolvedParams {
  const notices: string[] = [];
  const fallback = lab.variants.find((v) => v.id === lab.defaultVariant) ?? lab.variants[0]!;
  let variant = fallback;
  if (variantId !== undefined) {
    const found = lab.variants.find((v) => v.id === variantId);
    if (found) variant = found;
    else notices.push(m('notice.noVariant', { id: shown(variantId), title: fallback.title }));
  }
  const params: Record<string, ParamValue> = {};
  for (const [name, field] of Object.entries(lab.params)) {
    let value = lab.defaults[name]!;
    const asked = wanted[name];
    if (asked !== undefined) {
      // A lesson's or an exercise's value passes the parser the address's text passes (its bounds,
      // a whole number, a known name), so no page can hold what the controls could never reach.
      const parsed = field.parse(String(asked));
      if ('error' in parsed) notices.push(m('notice.ignored', { label: field.label, text: shown(String(asked)), error: parsed.error }));
      else if (typeof parsed.value !== typeof value) notices.push(m('notice.ignored', { label: field.label, text: shown(String(asked)), error: m('parse.name') }));
      else value = parsed.value;
    }
    const r = field.resolve(value, variant, params);
    if (r.notice) notices.push(r.notice);
    params[name] = fitDevice(field, r.value, variant, params, device, notices);
  }
  return { variant, params, notices };
}

/**
 * `value`, or when the adapter cannot run a workgroup that large, the largest offered value it
 * can, with a notice saying so (and one saying none fits, when none does).
 */
function fitDevice(field: ParamField, value: ParamValue, variant: LabVariant, params: Params, device: DeviceLimits | undefined, notices: string[]): ParamValue {
  if (!device || !field.invocations || fitsDevice(field, value, variant, params, device)) return value;
  const size = (v: ParamValue) => field.invocations!(v, variant, params);
  const fitting = field.choices(variant, params).filter((c) => fitsDevice(field, c, variant, params, device));
  if (fitting.length === 0) {
    notices.push(m('notice.deviceNone', { label: field.label, max: device.maxInvocationsPerWorkgroup }));
    return value;
  }
  // Every fitting value is smaller than `value` (which does not fit): take the largest.
  const use = fitting.reduce((best, c) => (size(c) > size(best) ? c : best));
  notices.push(
    m('notice.deviceLimit', {
      label: field.label,
      value: showParam(field, value),
      need: size(value),
      max: device.maxInvocationsPerWorkgroup,
      use: showParam(field, use),
    }),
  );
  return use;
}

/** Parameters of a lab over one array: its length, the workgroup size and the element type. */
export type LinearParams = { readonly n: number; readonly workgroupSize: number; readonly type: string };

/** The spec of `LinearParams`: `n`, `wg` and `type` in the address, as since the first labs. */
export function linearSpec(sizes: readonly number[], fallbackType: ElementType): ParamSpec<LinearParams> {
  return { n: elementCountField(sizes), workgroupSize: workgroupSizeField(), type: elementTypeField(fallbackType) };
}

/** The element type of resolved parameters (the resolver only lets the variant's types through). */
export function elementTypeOfParams(params: { readonly type: string }): ElementType {
  return params.type === 'i32' || params.type === 'f32' ? params.type : 'u32';
}

/** Compares two arrays element by element (`Object.is`, so -0 and NaN count), naming the first difference. */
export function exactCheck(output: ArrayLike<number>, want: ArrayLike<number>): CheckResult {
  if (output.length !== want.length) return { ok: false, message: m('check.length', { got: output.length, want: want.length }) };
  for (let i = 0; i < output.length; i++) {
    if (!Object.is(output[i], want[i])) return { ok: false, message: m('check.element', { i, got: String(output[i]), want: String(want[i]) }) };
  }
  return { ok: true };
}

/**
 * The code a dispatch runs when `source` (an edit of `file`, the variant's WGSL as shown) replaces
 * the variant's kernel in `code` (what the driver built from `file`): lines the driver rewrote
 * (the element type's `alias`) are rewritten the same way in the edit where it kept them, and what
 * the driver appended after the file (the linear-workgroup helper) is appended again, so the edit's
 * line numbers stay its own.
 */
export function withSource(code: string, file: string, source: string): string {
  const fileLines = file.split('\n');
  const codeLines = code.split('\n');
  if (codeLines.length < fileLines.length) return source;
  const out = source.split('\n');
  for (let i = 0; i < fileLines.length; i++) {
    if (codeLines[i] === fileLines[i]) continue;
    const at = out.indexOf(fileLines[i]!);
    if (at >= 0) out[at] = codeLines[i]!;
  }
  const suffix = codeLines.slice(fileLines.length);
  return [...out, ...suffix].join('\n');
}
