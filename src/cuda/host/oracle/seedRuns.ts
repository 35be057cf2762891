/**
 * The posts' programs (`../seeds/`) and what they printed on the H100
 * (docs/runs/2026-11-26-h100-seed-programs/), for the tests that run them on the simulator
 * (`seeds.test.ts`) and on the GPU (`programs.gpu.test.ts`).
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { compileCuda } from '../../index.ts';
import type { CudaProgram } from '../../types.ts';

const SEEDS = new URL('../seeds/', import.meta.url);
const RUNS = new URL('../../../../docs/runs/2026-11-26-h100-seed-programs/', import.meta.url);
export const SEED_FILES = { 'error.cuh': readFileSync(new URL('error.cuh', SEEDS), 'utf8') };
/** time(NULL) and clock() as the tests fix them. */
export const FIXED_CLOCK = { now: () => 1764115200, cpuMicros: () => 0 };

export const SEED_PROGRAMS = readdirSync(SEEDS).filter((f) => f.endsWith('.cu')).map((f) => f.replace(/\.cu$/, ''));

export interface Reference {
  exit: number;
  stdout?: string;
  /** For a summarised stdout: SHA-256 of the stdout without its timing lines. */
  shaWithoutTiming?: string;
}

export function reference(label: string): Reference {
  const text = readFileSync(new URL(`${label}.txt`, RUNS), 'utf8');
  const exit = Number(/^exit: (\d+)/.exec(text)![1]);
  const sha = /^sha256 without timing lines: ([0-9a-f]+)$/m.exec(text);
  if (sha) return { exit, shaWithoutTiming: sha[1]! };
  const m = /^stdout: (\d+) bytes\n/m.exec(text)!;
  return { exit, stdout: text.slice(m.index + m[0].length) };
}

const TIMING = /time|Time|elapsed/;
/** Timing lines keep their words; their figures vary from run to run. */
export const maskTiming = (s: string): string => s.split('\n').map((l) => (TIMING.test(l) ? l.replace(/-?\d+(\.\d+)?(e[+-]\d+)?/g, '#') : l)).join('\n');
const withoutTiming = (s: string): string => s.split(/(?<=\n)/).filter((l) => !TIMING.test(l)).join('');

/** Whether `stdout` is what the reference printed, timing figures aside (as text, to show the difference). */
export function comparable(stdout: string, ref: Reference): { got: string; want: string } {
  if (ref.stdout !== undefined) return { got: maskTiming(stdout), want: maskTiming(ref.stdout) };
  return { got: createHash('sha256').update(withoutTiming(stdout)).digest('hex'), want: ref.shaWithoutTiming! };
}

export function compileSeed(name: string): CudaProgram {
  const source = readFileSync(new URL(`${name}.cu`, SEEDS), 'utf8');
  const compiled = compileCuda(source, { fileName: `${name}.cu`, files: SEED_FILES });
  if (!compiled.ok) throw new Error(`${name} does not compile: ${JSON.stringify(compiled.diagnostics.slice(0, 3))}`);
  return compiled.program;
}

export const seedSource = (name: string): string => readFileSync(new URL(`${name}.cu`, SEEDS), 'utf8');
