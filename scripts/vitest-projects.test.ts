/**
 * vitest.config.ts runs `*.gpu.test.ts` one file at a time (Dawn on SwiftShader is one device) and
 * every other test file in parallel. This keeps the names honest: a test file drives Dawn exactly
 * when it reaches `src/gpu/node.ts` through its relative imports (static or `import()`), directly
 * or through helpers such as `src/sim/conformance/harness.ts`. The unit files share a module graph
 * per worker, except those that replace a module (`vi.mock`), which vitest.config.ts lists to run
 * isolated: the list is checked to be exactly those files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCKING } from '../vitest.config.ts';

const NODE_GPU = resolve('src/gpu/node.ts');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(full).isDirectory()) return testFiles(full);
    return /\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/\bfrom\s+['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)|^\s*import\s+['"](\.[^'"]+)['"]/gm)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    const base = resolve(dirname(file), spec);
    const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
    if (found) out.push(found);
  }
  return out;
}

const reaches = new Map<string, boolean>();
function reachesDawn(file: string, seen = new Set<string>()): boolean {
  if (file === NODE_GPU) return true;
  const known = reaches.get(file);
  if (known !== undefined) return known;
  if (seen.has(file)) return false;
  seen.add(file);
  const r = importsOf(file).some((f) => reachesDawn(f, seen));
  reaches.set(file, r);
  return r;
}

describe('vitest projects', () => {
  const files = [...testFiles('src'), ...testFiles('scripts')];

  it('finds the test files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(files.map((f) => [f]))('%s is named for whether it drives Dawn', (file) => {
    const dawn = reachesDawn(resolve(file));
    expect(file.endsWith('.gpu.test.ts') ? 'named .gpu.test.ts' : 'named .test.ts').toBe(dawn ? 'named .gpu.test.ts' : 'named .test.ts');
  });

  it('runs isolated exactly the unit files that replace a module', () => {
    const mocking = [...files, ...testFiles('server')]
      .filter((f) => !f.endsWith('.gpu.test.ts') && /\bvi\s*\.\s*(do)?[mM]ock\s*\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative('.', f))
      .sort();
    expect([...MOCKING].sort()).toEqual(mocking);
  });
});
