#!/usr/bin/env node
// Prints the JavaScript the built app ships, gzip-compressed: the initial load of the start page
// (the entry chunk and every chunk it imports statically) and each chunk loaded later (the lab
// editor with CodeMirror, the simulator worker…), and says so loudly when the initial load passes
// the budget; with --check it also exits non-zero then (for CI).
//   node scripts/bundle-sizes.mjs [--check] [dist]
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 200;
const args = process.argv.slice(2);
const strict = args.includes('--check');
const dist = args.find((a) => !a.startsWith('--')) ?? 'dist';
const assets = join(dist, 'assets');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const kb = (bytes) => bytes / 1024;
const gz = (file) => gzipSync(readFileSync(join(assets, file)), { level: 9 }).length;

const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
if (entries.length === 0) {
  console.error(`bundle-sizes: no module script in ${join(dist, 'index.html')}; was the app built?`);
  process.exit(1);
}
/** Chunks a chunk imports statically (`import … from "./x.js"` or `import "./x.js"`), not `import("./x.js")`. */
const staticImports = (file) => {
  const code = readFileSync(join(assets, file), 'utf8');
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*)["']\.\/([^"']+\.js)["']/g)].map((m) => m[1]);
};
const initial = new Set();
const queue = [...entries];
while (queue.length > 0) {
  const f = queue.pop();
  if (initial.has(f)) continue;
  initial.add(f);
  queue.push(...staticImports(f));
}
const all = readdirSync(assets).filter((f) => f.endsWith('.js'));
const rows = all.map((f) => ({ file: f, raw: readFileSync(join(assets, f)).length, gzip: gz(f), initial: initial.has(f) })).sort((a, b) => b.gzip - a.gzip);
const initialGzip = rows.filter((r) => r.initial).reduce((s, r) => s + r.gzip, 0);

console.log('\nJavaScript shipped (gzip -9):');
for (const r of rows) console.log(`  ${r.initial ? 'initial' : 'later  '}  ${kb(r.gzip).toFixed(1).padStart(7)} KB  (${kb(r.raw).toFixed(1)} KB raw)  ${r.file}`);
console.log(`Initial JavaScript of the start page: ${kb(initialGzip).toFixed(1)} KB gzip (budget ${BUDGET_KB} KB).`);
if (kb(initialGzip) > BUDGET_KB) {
  console.error(
    `bundle-sizes: OVER BUDGET: the start page's initial JavaScript is ${kb(initialGzip).toFixed(1)} KB, more than ${BUDGET_KB} KB; move what it does not need behind a dynamic import().`,
  );
  if (strict) process.exit(1);
}
