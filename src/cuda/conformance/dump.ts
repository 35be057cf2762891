/**
 * Prints every case's CUDA source (with its headers) as JSON on stdout, and whether nvcc must
 * accept it: run and launch-error cases must compile, error cases must fail unless marked
 * `nvccAccepts` (outside the subset, or undefined behaviour that nvcc compiles).
 * `scripts/cuda-conformance-oracle.sh --nvcc` writes them out and compiles each.
 */
import { CASES } from './cases/index.ts';

const entries = CASES.map((c) => ({
  id: c.id,
  source: c.source,
  files: c.files ?? {},
  compiles: c.kind !== 'compile-error' || c.nvccAccepts === true,
}));
console.log(JSON.stringify(entries));
