import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SNIPPET_FILES } from './cases.ts';
import { kernelCases } from '../labs/all.ts';

function wgslFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return wgslFiles(full);
    return name.endsWith('.wgsl') ? [full.split(path.sep).join('/')] : [];
  });
}

describe('kernel case registry', () => {
  it('has a case for every kernel under shaders/', () => {
    const covered = new Set(kernelCases.map((c) => c.file));
    const missing = wgslFiles('shaders').filter((f) => !covered.has(f) && !SNIPPET_FILES.includes(f));
    expect(missing).toEqual([]);
  });

  it('names every case uniquely', () => {
    const names = kernelCases.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
