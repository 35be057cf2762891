/**
 * Never a crash: the translator answers any text, however broken, with diagnostics. Seeded,
 * reproducible mutations of real kernels (the labs' CUDA sources and the course's programs):
 * truncated, with a span deleted, with a token inserted, with a span repeated elsewhere. Each
 * must come back from `compileCuda` (and the host parser) without throwing and without the
 * translator reporting a bug in itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCuda, parseCuda } from './index.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const LABS = path.join(ROOT, 'labs');
const SEEDS: { name: string; text: string }[] = [
  ...readdirSync(path.join(ROOT, 'cuda/host/seeds')).filter((f) => f.endsWith('.cu')).map((f) => `cuda/host/seeds/${f}`),
  ...readdirSync(LABS).flatMap((lab) => {
    try {
      return readdirSync(path.join(LABS, lab, 'cuda')).filter((f) => f.endsWith('.cu')).map((f) => `labs/${lab}/cuda/${f}`);
    } catch {
      return [];
    }
  }),
].map((name) => ({ name, text: readFileSync(path.join(ROOT, name), 'utf8') }));

/** Text that tends to confuse a C++ parser: templates, launches, brackets, stray punctuation. */
const INSERTS = ['template', 'template void f<float>(float*, int);', 'template <>', 'extern template', 'f<T><<<1, 1>>>(a, n);', '<', '>', '>>', '(', ')', '{', '}', ';', '[', ']', ',', '*', '&', '::', 'struct', '#', '"', "'", '?', ':', 'typename', 'sizeof', '...', '__shared__', 'int', 'operator', 'class', '=', '<<<', '>>>', '#define A A', '#if', '\\'];

/** A small linear congruential generator: the same mutations on every run. */
function lcg(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s % n;
  };
}

function mutations(text: string, count: number, rnd: (n: number) => number): string[] {
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const a = rnd(text.length);
    switch (k % 4) {
      case 0: out.push(text.slice(0, a)); break;
      case 1: out.push(text.slice(0, a) + text.slice(a + 1 + rnd(24))); break;
      case 2: out.push(`${text.slice(0, a)} ${INSERTS[rnd(INSERTS.length)]} ${text.slice(a)}`); break;
      default: {
        const b = rnd(text.length);
        out.push(text.slice(0, a) + text.slice(b, b + 1 + rnd(40)) + text.slice(a));
      }
    }
  }
  return out;
}

function problem(source: string): string | undefined {
  try {
    const r = compileCuda(source, { fileName: 'kernel.cu', files: { 'error.cuh': '#define CHECK(call) call\n' } });
    const bug = r.diagnostics.find((d) => /internal error/.test(d.message));
    if (bug) return bug.message;
    for (const d of r.diagnostics) if (!(d.line >= 1 && d.column >= 1)) return `a diagnostic without a position: ${d.message}`;
    parseCuda(source);
    return undefined;
  } catch (e) {
    return `threw ${String(e)}`;
  }
}

describe('broken CUDA gives diagnostics, never a crash', () => {
  it.each(SEEDS.map((s, i) => [s.name, s, i] as const))('mutations of %s', (_name, seed, i) => {
    const rnd = lcg(1000 + i);
    const found: string[] = [];
    for (const m of mutations(seed.text, 16, rnd)) {
      const p = problem(m);
      if (p) found.push(`${p}\n--- source ---\n${m}`);
    }
    expect(found.slice(0, 1)).toEqual([]);
  });

  it('a template kernel that launches itself and is instantiated explicitly', () => {
    const src = 'template <typename T> __global__ void f(T* a, int n) { if (threadIdx.x < n) a[threadIdx.x] *= 2; f<T><<<1, 1>>>(a, n); }\ntemplate void f<float>(float*, int);\n';
    expect(problem(src)).toBeUndefined();
    const r = compileCuda(src);
    expect(r.ok).toBe(false);
    // nvcc: "a __global__ function … redeclared without __global__", at the instantiation.
    expect(r.diagnostics.map((d) => `${d.line}:${d.column}`)).toEqual(['2:15']);
  });
});
