import { describe, expect, it } from 'vitest';
import { findLab } from '../labs/all.ts';
import { simulate, traceStep } from '../sim/index.ts';
import { indexTrace } from '../trace/index.ts';
import { mainSharedMemory, sharedContentsAt } from '../trace/memory.ts';
import { evaluate, findHit, makeBreakpoint, parseExpression, runCommand, warpWatch, type DebugState } from './debugger.ts';
import { INPUT_SEED } from './session.ts';

const reduce = findLab('reduce');
const params = reduce.defaults as { n: number; workgroupSize: number; type: string };
const run = reduce.stepRun('neighbored', params, reduce.inputs(params, INPUT_SEED));
const result = simulate(run, { trace: 'full', traceWorkgroups: [0] });
const index = indexTrace(result.trace!);
const addLine = run.code.split('\n').findIndex((l) => l.includes('sdata[lid] += sdata[lid + s];')) + 1;
const memory = mainSharedMemory(result.trace!);
const state = (step: number, extra: Partial<DebugState> = {}): DebugState => ({
  index,
  step,
  workgroup: 0,
  workgroupCount: 4,
  focusWarp: 0,
  focusLane: 0,
  breakpoints: [],
  ...extra,
});

describe('debugger expressions', () => {
  it('reads WGSL-style conditions with precedence', () => {
    const env = { lid: 5, lane: 5, warp: 0, workgroup: 1, memory: () => ({ type: 'f32' as const, values: new Float64Array([7, 8, 9]) }) };
    expect(evaluate(parseExpression('lid == 5u'), env)).toBe(1);
    expect(evaluate(parseExpression('lid % 2u == 1u && workgroup == 1'), env)).toBe(1);
    expect(evaluate(parseExpression('sdata[lid - 3u] + 1'), env)).toBe(10);
    expect(() => evaluate(parseExpression('s + 1'), env)).toThrow(/knows lid/);
    expect(() => parseExpression('lid == ')).toThrow(/ends too early/);
    expect(() => evaluate(parseExpression('lid + 1i'), env)).toThrow(/column/);
  });

  it('prints with WGSL’s types: u32 wraps, shifts work, i32 wraps', () => {
    const print = (expr: string) => runCommand(state(0), `print ${expr}`).output[0];
    expect(print('0u - 1u')).toBe('$ = 4294967295  (u32; 0u - 1u at step 1)');
    expect(print('1u << 31u')).toBe('$ = 2147483648  (u32; 1u << 31u at step 1)');
    expect(print('4294967295u + 1u')).toBe('$ = 0  (u32; 4294967295u + 1u at step 1)');
    expect(print('-2147483647i - 2i')).toBe('$ = 2147483647  (i32; -2147483647i - 2i at step 1)');
    expect(print('lid - 1u')).toBe('$ = 4294967295  (u32; lid - 1u at step 1)');
    expect(print('0xF0u >> 4u')).toBe('$ = 15  (u32; 0xF0u >> 4u at step 1)');
    expect(print('3u > 2u')).toBe('$ = 1  (bool; 3u > 2u at step 1)');
  });

  it('evaluates the kernel’s variables with their WGSL types (u32 wraps, f32 rounds)', () => {
    const lanes = (f: (lane: number) => number) => Array.from({ length: index.trace.warpSize }, (_, l) => f(l));
    const locals = {
      step: 0,
      warp: 0,
      values: [
        { name: 'i', type: 'u32' as const, lanes: lanes((l) => l) },
        { name: 'v', type: 'f32' as const, lanes: lanes(() => Math.fround(0.1)) },
      ],
    };
    const u = warpWatch(index, 0, 0, 'i - 1u', locals);
    expect(u.slice(0, 2).map((c) => c.value)).toEqual([4294967295, 0]);
    const f = warpWatch(index, 0, 0, 'v + 0.2', locals);
    expect(f[0]!.value).toBe(Math.fround(Math.fround(0.1) + Math.fround(0.2)));
    expect(f[0]!.value).not.toBe(0.1 + 0.2);
    expect(warpWatch(index, 0, 0, 'i + v', locals)[0]!.error).toMatch(/column/);
  });
});

describe('breakpoints over the replay', () => {
  it('a breakpoint on the add line with lid == 0u stops once per tree level, in warp 0', () => {
    const bp = makeBreakpoint(1, addLine, 'lid == 0u');
    const hits: number[] = [];
    for (let at = -1, k = 0; k < 20; k++) {
      const hit = findHit(index, [bp], at, 1);
      if (!hit) break;
      hits.push(hit.step);
      at = hit.step;
    }
    expect(hits).toHaveLength(Math.log2(params.workgroupSize));
    for (const s of hits) {
      expect(traceStep(index.trace, s).warp).toBe(0);
      expect(traceStep(index.trace, s).line).toBe(addLine);
    }
    // Reverse-continue from the last hit comes back through the same stops.
    expect(findHit(index, [bp], hits[hits.length - 1]!, -1)?.step).toBe(hits[hits.length - 2]);
  });

  it('without a condition every warp that enters the line stops', () => {
    const hit = findHit(index, [makeBreakpoint(1, addLine)], -1, 1)!;
    const hit2 = findHit(index, [makeBreakpoint(1, addLine)], hit.step, 1)!;
    expect(traceStep(index.trace, hit2.step).warp).not.toBe(traceStep(index.trace, hit.step).warp);
  });
});

describe('console', () => {
  it('print and the warp watch show what the memory view shows at the step', () => {
    const step = findHit(index, [makeBreakpoint(1, addLine, 'lid == 0u')], -1, 1)!.step + 4;
    const contents = sharedContentsAt(index.trace, memory, step).values;
    expect(runCommand(state(step), 'print sdata[3]').output[0]).toBe(`$ = ${contents[3]}  (u32; sdata[3] at step ${step + 1})`);
    const cells = warpWatch(index, step, 1, 'sdata[lid]');
    for (const c of cells) expect(c.value).toBe(contents[32 + c.lane]);
  });

  it('cuda block/thread moves the focus; break, continue, reverse-continue, delete and step work on the trace', () => {
    expect(runCommand(state(0), 'cuda block 1 thread 37')).toMatchObject({ focus: { warp: 1, lane: 5 }, workgroup: 1 });
    expect(runCommand(state(0), 'cuda block 9 thread 1').output[0]).toMatch(/block 9 does not exist/);
    const b = runCommand(state(0), `break ${addLine} if lid == 0u`);
    expect(b.breakpoints).toHaveLength(1);
    const c = runCommand(state(0, { breakpoints: b.breakpoints! }), 'continue');
    expect(c.step).toBeGreaterThan(0);
    expect(c.output[0]).toContain(`line ${addLine}`);
    const c2 = runCommand(state(c.step!, { breakpoints: b.breakpoints! }), 'continue');
    expect(runCommand(state(c2.step!, { breakpoints: b.breakpoints! }), 'reverse-continue').step).toBe(c.step);
    expect(runCommand(state(0, { breakpoints: b.breakpoints! }), 'delete 1').breakpoints).toEqual([]);
    const s = runCommand(state(c.step!), 'step');
    expect(traceStep(index.trace, s.step!).warp).toBe(0);
    expect(traceStep(index.trace, s.step!).line).not.toBe(addLine);
    const info = runCommand(state(c.step!), 'info cuda warps').output;
    expect(info).toHaveLength(1 + params.workgroupSize / 32);
    expect(runCommand(state(0), 'frobnicate').output[0]).toMatch(/unknown command/);
  });
});
