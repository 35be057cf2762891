import { readFileSync } from 'node:fs';
import { compileCuda } from '../src/cuda/index.ts';
for (const f of process.argv.slice(2)) {
  const r = compileCuda(readFileSync(f, 'utf8'), { fileName: f });
  console.log(`== ${f}: ${r.ok ? 'OK ' + r.program.kernels.map((k) => k.name + (k.usesWarpFunctions ? '[warp]' : '')).join(', ') : 'FAIL'}`);
  for (const d of r.diagnostics) console.log(`  ${d.severity}:${d.line}:${d.column} ${d.message}`);
  if (r.ok && process.env.WGSL) console.log(r.program.wgsl);
}
