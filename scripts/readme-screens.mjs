#!/usr/bin/env node
// Copies the README's screenshots from the walk (`WALK=1440,projector node e2e/run.mjs
// e2e/walk.e2e.ts` writes test-results/screens/walk-*.png) to docs/screens/, under the names the
// README links. Each is a screen the walk checked: its step's subject on screen, whole, legible.
import { copyFileSync, existsSync } from 'node:fs';

const FROM = 'test-results/screens';
const TO = 'docs/screens';
const LABS = ['basics', 'reduce', 'scan', 'rowsum', 'histogram', 'convolution', 'merge', 'topk', 'matmul', 'spmv'];
const pairs = [
  ...LABS.map((lab) => [`walk-1440-lab-${lab}.png`, `lab-${lab}-1440.png`]),
  ['walk-1440-lesson-scan-5.png', 'lesson-scan-5-1440.png'],
  // The reduction lesson's step 4: the interleaved tree of 256 words, its contiguous level marked.
  ['walk-1440-lesson-reduction-4.png', 'tree-interleaved-256.png'],
  ['walk-projector-lesson-reduction-3.png', 'lesson-reduction-3-projector.png'],
];
let missing = 0;
for (const [from, to] of pairs) {
  if (!existsSync(`${FROM}/${from}`)) {
    console.error(`readme-screens: ${FROM}/${from} is missing: run the walk first (see the comment at the top).`);
    missing++;
    continue;
  }
  copyFileSync(`${FROM}/${from}`, `${TO}/${to}`);
  console.log(`${TO}/${to} ← ${from}`);
}
process.exit(missing ? 1 : 0);
