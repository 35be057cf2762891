/**
 * Every registered lab is complete: its variants' files exist and hold the WGSL it shows, its
 * kernel cases cover every variant and run, every parameter value it offers round-trips through
 * the address, every variant runs at the defaults and agrees with the CPU reference on the
 * simulator, and every lesson moment naming it resolves.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatLocation, labRoute, parseLocation } from '../workbench/url.ts';
import { LESSONS } from './lessons.ts';
import { resolveMoment } from '../workbench/lesson.ts';
import { simulate } from '../sim/index.ts';
import { indexTrace } from '../trace/index.ts';
import { seededRandom } from '../util/random.ts';
import { INPUT_SEED, openingStep, resolveParams } from '../workbench/lab.ts';
import { LABS } from './all.ts';
import type { KernelExecutor } from '../workbench/labTypes.ts';

const simulator: KernelExecutor = { run: (r) => Promise.resolve(simulate(r, { warpSize: 32, trace: 'summary' }).buffers) };
const chrome = { mode: 'normal', embed: false, presenter: false } as const;

/**
 * The stepping run of a variant at these parameters (inputs of INPUT_SEED), simulated with the
 * full trace of workgroup 0: several tests below read the same one, so it is simulated once.
 */
const stepTraces = new Map<string, ReturnType<typeof simulate>>();
function stepTrace(lab: (typeof LABS)[number], variant: string, params: ReturnType<typeof resolveParams>['params']): ReturnType<typeof simulate> {
  const key = JSON.stringify([lab.id, variant, params]);
  let result = stepTraces.get(key);
  if (!result) {
    result = simulate(lab.stepRun(variant, params, lab.inputs(params, INPUT_SEED)), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    stepTraces.set(key, result);
  }
  return result;
}

describe.each(LABS.map((l) => [l.id, l] as const))('lab %s', (_id, lab) => {
  it('has variants whose WGSL files exist and match what the code pane shows', () => {
    expect(lab.variants.length).toBeGreaterThan(0);
    expect(lab.variants.some((v) => v.id === lab.defaultVariant)).toBe(true);
    expect(new Set(lab.variants.map((v) => v.id)).size).toBe(lab.variants.length);
    for (const v of lab.variants) {
      expect(existsSync(v.file), v.file).toBe(true);
      expect(readFileSync(v.file, 'utf8'), v.file).toBe(v.wgsl);
    }
  });

  it('names its variants with every placeholder of their messages filled', () => {
    for (const v of lab.variants) {
      expect(v.title, v.id).not.toMatch(/\{\w+\}/);
      expect(v.summary, v.id).not.toMatch(/\{\w+\}/);
    }
  });

  it('has kernel cases for every variant file, and they run on the simulator', () => {
    const files = new Set(lab.cases.map((c) => c.file));
    for (const v of lab.variants) expect(files.has(v.file), `no case for ${v.file}`).toBe(true);
    for (const c of lab.cases) {
      const result = simulate(c.build(seededRandom(7), c.sizes[0]!), { warpSize: 32, trace: 'summary' });
      expect(result.diagnostics.filter((d) => d.kind !== 'race'), c.name).toEqual([]);
    }
  });

  it('has defaults its own spec accepts without a notice', () => {
    for (const v of lab.variants) {
      if (v.id !== lab.defaultVariant) continue;
      expect(resolveParams(lab, v.id, {}).notices).toEqual([]);
    }
  });

  it('round-trips every parameter value it offers through the address', () => {
    for (const v of lab.variants) {
      const { params } = resolveParams(lab, v.id, {});
      for (const [name, field] of Object.entries(lab.params)) {
        for (const value of field.choices(v, params)) {
          const route = labRoute(lab.id, { variant: v.id, params: { [name]: value } });
          const url = new URL(formatLocation(route, chrome), 'http://x');
          expect(url.searchParams.get(field.key), `${name}=${value}`).toBe(String(value));
          const parsed = parseLocation(url.pathname, url.search);
          expect(parsed.notices).toEqual([]);
          expect(parsed.route).toMatchObject({ kind: 'lab', lab: lab.id, variant: v.id, params: { [name]: value } });
        }
      }
    }
  });

  it('runs every variant at the defaults and agrees with its CPU reference', async () => {
    for (const v of lab.variants) {
      const { params } = resolveParams(lab, v.id, {});
      const inputs = lab.inputs(params, INPUT_SEED);
      const result = stepTrace(lab, v.id, params);
      expect(result.trace?.stepCount, v.id).toBeGreaterThan(0);
      const check = lab.check(v.id, params, inputs, await lab.runAll(simulator, v.id, params, inputs));
      expect(check, v.id).toEqual({ ok: true });
      expect(lab.bench.passes(v.id, params).length).toBeGreaterThan(0);
      expect(lab.bench.bytes(params)).toBeGreaterThan(0);
    }
  });

  it('resolves every lesson moment that names it', () => {
    for (const lesson of LESSONS) {
      for (const step of lesson.steps) {
        if (step.lab !== lab.id) continue;
        const { params } = resolveParams(lab, step.variant, step.params);
        const index = indexTrace(stepTrace(lab, step.variant, params).trace!);
        const at = resolveMoment(index, step.moment, lab);
        expect(at).toBeGreaterThanOrEqual(0);
        expect(at).toBeLessThan(index.trace.stepCount);
      }
    }
  });

  it.each(lab.variants.map((v) => [v.id] as const))('opens %s, at its defaults, past step 0: on a moment found in the trace', (variant) => {
    const { params } = resolveParams(lab, variant, {});
    const index = indexTrace(stepTrace(lab, variant, params).trace!);
    const at = openingStep(lab, index, variant);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(index.trace.stepCount);
  });

  it('reports a wrong output with what differs', async () => {
    const v = lab.variants.find((x) => x.id === lab.defaultVariant)!;
    const { params } = resolveParams(lab, v.id, {});
    const inputs = lab.inputs(params, 1);
    const out = (await lab.runAll(simulator, v.id, params, inputs)).slice();
    out[0] = out[0]! + 1;
    const check = lab.check(v.id, params, inputs, out);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message.length).toBeGreaterThan(10);
  });
});
