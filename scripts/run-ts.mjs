#!/usr/bin/env node
// Runs a TypeScript entry point in Node: bundles it with esbuild (WGSL files imported with `?raw`
// become strings, `webgpu` stays external) into .bench/, then imports the bundle.
//   node scripts/run-ts.mjs scripts/bench.ts [args...]
//   node scripts/run-ts.mjs --bundle-only scripts/bench.ts OUT.mjs   (for the GPU bundle)
import { build } from 'esbuild';
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const bundleOnly = args[0] === '--bundle-only';
if (bundleOnly) args.shift();
const entry = args.shift();
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs [--bundle-only] ENTRY.ts [OUT.mjs | args...]');
  process.exit(2);
}
const outfile = bundleOnly
  ? path.resolve(args.shift() ?? '.bench/bundle.mjs')
  : path.resolve('.bench', `${path.basename(entry, '.ts')}.mjs`);
await mkdir(path.dirname(outfile), { recursive: true });

const rawPlugin = {
  name: 'raw',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (a) => ({
      path: path.resolve(a.resolveDir, a.path.replace(/\?raw$/, '')),
      namespace: 'raw',
    }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, async (a) => ({
      contents: await readFile(a.path, 'utf8'),
      loader: 'text',
    }));
  },
};

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // ws's optional native helpers are not installed; it falls back to JavaScript without them.
  external: ['webgpu', 'bufferutil', 'utf-8-validate'],
  plugins: [rawPlugin],
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
if (!bundleOnly) {
  process.argv = [process.argv[0], outfile, ...args];
  await import(pathToFileURL(outfile).href);
}
