/**
 * The posts' programs (`../seeds/`) and what they printed on the H100
 * (docs/runs/2026-11-26-h100-seed-programs/), for the tests that run them on the simulator
 * (`seeds.test.ts`) and on the GPU (`programs.gpu.test.ts`).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { compileCuda } from '../../index.ts';
import type { CudaProgram } from '../../types.ts';
import { parseReference, type Reference } from './compare.ts';

export { comparable, maskTiming, sameButDevice, type Reference } from './compare.ts';

const SEEDS = new URL('../seeds/', import.meta.url);
const RUNS = new URL('../../../../docs/runs/2026-11-26-h100-seed-programs/', import.meta.url);
export const SEED_FILES = { 'error.cuh': readFileSync(new URL('error.cuh', SEEDS), 'utf8') };
/** time(NULL) and clock() as the tests fix them. */
export const FIXED_CLOCK = { now: () => 1764115200, cpuMicros: () => 0 };

export const SEED_PROGRAMS = readdirSync(SEEDS).filter((f) => f.endsWith('.cu')).map((f) => f.replace(/\.cu$/, ''));

export function reference(label: string): Reference {
  return parseReference(readFileSync(new URL(`${label}.txt`, RUNS), 'utf8'));
}

export function compileSeed(name: string): CudaProgram {
  const source = readFileSync(new URL(`${name}.cu`, SEEDS), 'utf8');
  const compiled = compileCuda(source, { fileName: `${name}.cu`, files: SEED_FILES });
  if (!compiled.ok) throw new Error(`${name} does not compile: ${JSON.stringify(compiled.diagnostics.slice(0, 3))}`);
  return compiled.program;
}

export const seedSource = (name: string): string => readFileSync(new URL(`${name}.cu`, SEEDS), 'utf8');
