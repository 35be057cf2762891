/**
 * Writes every case's CUDA source (and its headers) to a folder, with a compile.sh that checks
 * each against nvcc: run and launch-error cases must compile, error cases must fail unless they
 * are marked `nvccAccepts` (outside the subset, or undefined behaviour that nvcc compiles).
 * Run by `scripts/cuda-conformance-oracle.sh --nvcc`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CASES } from './cases/index.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: dump.ts OUT_DIR');
const lines = ['#!/usr/bin/env bash', 'check() { # dir expect(0=compiles,1=fails) id', '  if nvcc -std=c++17 -arch=sm_75 -c -o /dev/null "$1/kernel.cu" > "$1/nvcc.log" 2>&1; then got=0; else got=1; fi', '  if [ "$got" != "$2" ]; then echo "nvcc disagrees ($([ "$2" = 0 ] && echo "expected to compile" || echo "expected an error")): $3"; sed "s/^/    /" "$1/nvcc.log" | head -5; touch "$1/DISAGREE"; fi', '}'];
CASES.forEach((c, k) => {
  const dir = path.join(out, String(k).padStart(3, '0'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'kernel.cu'), c.source);
  for (const [name, text] of Object.entries(c.files ?? {})) writeFileSync(path.join(dir, name), text);
  const fails = c.kind === 'compile-error' && !c.nvccAccepts ? 1 : 0;
  lines.push(`check ${JSON.stringify(dir)} ${fails} ${JSON.stringify(c.id)} &`, 'if (( $(jobs -r | wc -l) >= 2 )); then wait -n; fi');
});
lines.push('wait', `echo "nvcc: checked ${CASES.length} sources"`, `if ls ${JSON.stringify(out)}/*/DISAGREE > /dev/null 2>&1; then exit 1; fi`);
writeFileSync(path.join(out, 'compile.sh'), `${lines.join('\n')}\n`);
