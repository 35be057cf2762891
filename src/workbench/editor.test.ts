import { describe, expect, it } from 'vitest';
import { findLab } from '../labs/all.ts';
import { simulate } from '../sim/index.ts';
import { checkDraft, firstMismatches } from './editorRun.ts';
import { FRONT_END, simulatorDiagnostics, tokenEnd } from './editorLint.ts';
import { readSharedDraft, shareLink, SHARE_LIMIT } from './shareLink.ts';
import { lineDiff } from './lineDiff.ts';
import { withSource } from './lab.ts';
import { INPUT_SEED } from './session.ts';

const reduce = findLab('reduce');
const params = reduce.defaults;
const neighbored = reduce.variants.find((v) => v.id === 'neighbored')!;
const simulateOnce = (r: Parameters<typeof simulate>[0], o: Parameters<typeof simulate>[1]) => {
  return { promise: Promise.resolve().then(() => simulate(r, o)), cancel: () => undefined };
};

describe('editor lint (the front-end adapter)', () => {
  it('passes the kernel as written and names a syntax error by line and column with a token range', () => {
    const lint = (code: string) => {
      const r = reduce.stepRun('neighbored', params, reduce.inputs(params, INPUT_SEED), code);
      return FRONT_END(r.code, r);
    };
    expect(lint(neighbored.wgsl)).toEqual([]);
    const broken = neighbored.wgsl.replace('let i = base + lid;', 'let i = base + ;');
    const line = broken.split('\n').findIndex((l) => l.includes('let i = base + ;')) + 1;
    const [d] = lint(broken);
    expect(d).toBeDefined();
    expect(d!.line).toBe(line);
    expect(d!.severity).toBe('error');
    expect(d!.endColumn).toBeGreaterThan(d!.column);
  });

  it('widens a point to its word', () => {
    expect(tokenEnd('  sdata[lid] = v;', 1, 3)).toEqual({ endLine: 1, endColumn: 8 });
    expect(tokenEnd('a + ;', 1, 5)).toEqual({ endLine: 1, endColumn: 6 });
  });

  it('keeps one annotation per simulator finding and place', () => {
    const d = { kind: 'race' as const, line: 2, column: 3, message: 'two lanes' };
    expect(simulatorDiagnostics('x\n  sdata[0] = 1;', [d, d])).toHaveLength(1);
  });
});

describe('share links', () => {
  it('round-trips a draft through the fragment', () => {
    const link = shareLink('https://example.org/lab/reduce?v=neighbored#old', 'neighbored', neighbored.wgsl);
    expect(link.ok).toBe(true);
    if (!link.ok) return;
    expect(link.url.startsWith('https://example.org/lab/reduce?v=neighbored#draft=neighbored~')).toBe(true);
    expect(readSharedDraft(new URL(link.url).hash)).toEqual({ variant: 'neighbored', source: neighbored.wgsl });
  });

  it('refuses a draft beyond the limit with a sentence, and a damaged fragment with another', () => {
    let noise = '';
    let x = 12345;
    for (let i = 0; i < SHARE_LIMIT * 2; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      noise += String.fromCharCode(33 + (x % 90));
    }
    const link = shareLink('https://example.org/', 'neighbored', noise);
    expect(link.ok).toBe(false);
    if (!link.ok) expect(link.message).toMatch(/more than the 8,000 a link can safely carry/);
    expect(readSharedDraft('#draft=neighbored~%%%broken')).toHaveProperty('error');
    expect(readSharedDraft('#step=3')).toBeUndefined();
  });
});

describe('withSource', () => {
  it('puts an edit where the variant file was, keeping the type line the driver set and the helper it appended', () => {
    const file = 'a\nalias T = u32;\nb';
    const code = 'a\nalias T = f32;\nb\nhelper';
    expect(withSource(code, file, 'x\na\nalias T = u32;\nb2')).toBe('x\na\nalias T = f32;\nb2\nhelper');
  });

  it('the reduce and scan kernels as written run unchanged through it', () => {
    for (const id of ['reduce', 'scan'] as const) {
      const lab = findLab(id);
      for (const v of lab.variants) {
        const p = { ...lab.defaults, workgroupSize: v.workgroupSizes.includes(256) ? 256 : v.workgroupSizes[0]! };
        const inputs = lab.inputs(p, INPUT_SEED);
        expect(lab.stepRun(v.id, p, inputs, v.wgsl).code).toBe(lab.stepRun(v.id, p, inputs).code);
      }
    }
  });
});

describe('line diff', () => {
  it('lists removed and added lines with their numbers', () => {
    const d = lineDiff('a\nb\nc', 'a\nB\nc\nd')!;
    expect(d.filter((l) => l.op !== ' ')).toEqual([
      { op: '+', text: 'B', line: 2 },
      { op: '-', text: 'b', line: 2 },
      { op: '+', text: 'd', line: 4 },
    ]);
  });
});

describe('checkDraft', () => {
  it('the interleaved edit of neighbored matches the CPU reference on the simulator', async () => {
    const edited = neighbored.wgsl
      .replace('for (var s = 1u; s < WORKGROUP_SIZE; s *= 2u) {', 'for (var s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {')
      .replace('if (lid % (2u * s) == 0u) {', 'if (lid < s) {');
    const r = await checkDraft({ lab: reduce, variant: 'neighbored', params, draft: edited, gpu: undefined, simulate: simulateOnce });
    expect(r.sim.state).toBe('done');
    if (r.sim.state === 'done') expect(r.sim.check.ok).toBe(true);
    expect(r.gpu.state).toBe('failed');
    expect(r.notGuaranteed).toBeUndefined();
  });

  it('a wrong edit differs from the reference, with the element, the expected value and the step that wrote it', async () => {
    const edited = neighbored.wgsl.replace('sdata[lid] += sdata[lid + s];', 'sdata[lid] += sdata[lid + s] + 1u;');
    const traced = simulate(reduce.stepRun('neighbored', params, reduce.inputs(params, INPUT_SEED), edited), { trace: 'full', traceWorkgroups: [0] });
    const r = await checkDraft({ lab: reduce, variant: 'neighbored', params, draft: edited, gpu: undefined, simulate: simulateOnce, trace: traced.trace });
    expect(r.sim.state === 'done' && !r.sim.check.ok).toBe(true);
    expect(r.mismatches[0]?.index).toBe(0);
    expect(r.mismatches[0]?.sim).not.toBe(r.mismatches[0]?.expected);
    expect(r.mismatches[0]?.step).toBeGreaterThanOrEqual(0);
  });

  it('removing the loop barrier is a race: not guaranteed', async () => {
    const at = neighbored.wgsl.indexOf('workgroupBarrier();', neighbored.wgsl.indexOf('for (var s'));
    const edited = neighbored.wgsl.slice(0, at) + neighbored.wgsl.slice(at + 'workgroupBarrier();'.length);
    const r = await checkDraft({ lab: reduce, variant: 'neighbored', params, draft: edited, gpu: undefined, simulate: simulateOnce });
    expect(r.diagnostics.some((d) => d.kind === 'race')).toBe(true);
    expect(r.notGuaranteed).toMatch(/data race at line \d+/);
  });

  it('an endless loop is stopped by the step limit', async () => {
    // Tint refuses \`loop {}\` outright; this loop has a (uniform) exit that is never taken.
    const edited = neighbored.wgsl.replace('sdata[lid] = v;', 'sdata[lid] = v;\n  loop { if (group == 0xffffffffu) { break; } }');
    const r = await checkDraft({ lab: reduce, variant: 'neighbored', params, draft: edited, gpu: undefined, simulate: simulateOnce });
    expect(r.sim.state).toBe('stopped');
  });

  it('firstMismatches lists only differing elements', () => {
    const m = firstMismatches(new Uint32Array([1, 2, 3]), new Uint32Array([1, 9, 3]), new Uint32Array([1, 2, 4]), undefined);
    expect(m.map((x) => x.index)).toEqual([1, 2]);
  });
});
