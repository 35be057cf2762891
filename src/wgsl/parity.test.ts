import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { check } from './checker.ts';
import { INVALID, VALID } from './testdata/parity.ts';

describe('invalid programs: rejected at the line and column Dawn reports', () => {
  it('the table holds at least 60 programs, from at least ten spec sections', () => {
    expect(INVALID.length).toBeGreaterThanOrEqual(60);
    expect(new Set(INVALID.map((c) => c.section.split(' ')[0])).size).toBeGreaterThanOrEqual(10);
  });

  it.each(INVALID.map((c) => [`§${c.section}: ${c.name}`, c] as const))('%s', (_, c) => {
    const errors = check(c.code).diagnostics.filter((d) => d.severity === 'error');
    expect(errors.length, `no error for:\n${c.code}`).toBeGreaterThan(0);
    const first = errors[0]!;
    expect(`${first.line}:${first.col}`, `ours: ${first.message}\nDawn: ${c.message}`).toBe(`${c.line}:${c.col}`);
    expect(first.range.end.offset!).toBeGreaterThanOrEqual(first.range.pos.offset!);
    expect(first.message.length).toBeGreaterThan(10);
  });
});

describe('valid programs: accepted', () => {
  it.each(VALID.map((c) => [`§${c.section}: ${c.name}`, c] as const))('%s', (_, c) => {
    const d = check(c.code).diagnostics;
    expect(d.filter((x) => x.severity === 'error').map((x) => `${x.line}:${x.col} ${x.message}`)).toEqual([]);
    expect(d.filter((x) => x.severity === 'warning').map((x) => `${x.line}:${x.col}`)).toEqual(c.warnings ?? []);
  });
});

describe("the repository's shaders", () => {
  const snippet = readFileSync('shaders/common/linear-workgroup.wgsl', 'utf8');
  const files = readdirSync('shaders', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.wgsl') && !f.startsWith('common'))
    .map((f) => `shaders/${f}`);

  it('are all found', () => {
    expect(files.length).toBeGreaterThan(15);
  });

  it.each(files)('%s passes the checker with no diagnostics (with the linear-workgroup snippet appended, as kernels are run)', (f) => {
    const r = check(`${readFileSync(f, 'utf8')}\n${snippet}`);
    expect(r.diagnostics.map((d) => `${f}:${d.line}:${d.col} ${d.message}`)).toEqual([]);
    expect(r.module.entryPoints.length).toBeGreaterThan(0);
  });
});
