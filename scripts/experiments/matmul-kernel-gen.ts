/**
 * Generated register-tiled matmul kernels for the tuning sweep of issue 29 (not product code): the
 * same bindings and dispatch ([⌈N / BN⌉, ⌈M / BM⌉] workgroups) as shaders/matmul/*.wgsl, with the
 * shapes as parameters, so one device call can time many shapes. Every loop over k inside a step,
 * over the thread's rows and columns, and (with two buffers) over the buffer index is written out,
 * so every workgroup-memory index is a register plus a constant and every accumulator is its own
 * variable (or a constant-indexed array element, `accArray`).
 *
 * A thread (tx, ty) owns TM × TN outputs of the BM × BN block: TM / 4 bands of 4 rows, TY · 4 rows
 * apart (TY = BM / TM threads down), and TN / 4 vec4 columns, TX apart (TX = BN / TN threads
 * across); so the vec4 reads of a warp from the tiles land on neighbouring vec4s.
 * The A tile is kept transposed (k-major) as vec4s of 4 rows; the B tile k-major as vec4s.
 * Global loads: B row-major, one vec4 per lane in a row (coalesced); A either `rows` (lane i loads
 * row i's vec4 of the step: transposed stores to neighbouring words, no bank conflict) or `pairs`
 * (lanes walk along a row first: coalesced loads, transposed stores BK / 4 · BM words apart).
 */
export interface GenConfig {
  readonly BM: number;
  readonly BN: number;
  readonly BK: number;
  readonly TM: number;
  readonly TN: number;
  /** 2: two tile buffers and one barrier per step; 1: one buffer, registers prefetch, two barriers. */
  readonly buffers: 1 | 2;
  readonly aMap: 'rows' | 'pairs';
  readonly accArray?: boolean;
  /** The k loop of a step kept as a loop (its body written out), as a readable kernel would be. */
  readonly kLoop?: boolean;
  /** Lanes of a warp laid out wx across × 32 / wx down (warp tiling); absent: 16 × 2 rows of lid. */
  readonly wx?: number;
  /** Every loop of the step kept as a loop (accumulators indexed by loop counters). */
  readonly nested?: boolean;
  /** Shift the A tile's rows by this many vec4s per k (0: none) — padding against store conflicts. */
  readonly padA?: number;
}

export const genName = (c: GenConfig): string =>
  `g${c.BM}x${c.BN}x${c.BK}-t${c.TM}x${c.TN}-b${c.buffers}-${c.aMap}${c.accArray ? '-arr' : ''}${c.padA ? `-pad${c.padA}` : ''}${c.kLoop ? '-loop' : ''}${c.wx ? `-w${c.wx}` : ''}${c.nested ? '-nested' : ''}`;

export function genThreads(c: GenConfig): { tx: number; ty: number; n: number } {
  const tx = c.BN / c.TN;
  const ty = c.BM / c.TM;
  return { tx, ty, n: tx * ty };
}

export function genProblem(c: GenConfig): string | null {
  const { n } = genThreads(c);
  if (c.TM % 4 || c.TN % 4 || c.BK % 4) return 'TM, TN, BK must be multiples of 4';
  if (n > 256 || n < 32) return `${n} threads`;
  if ((c.BM * c.BK) / 4 % n || (c.BN * c.BK) / 4 % n) return 'tile loads do not divide';
  if (genSharedBytes(c) > 16384) return `${genSharedBytes(c)} bytes of workgroup memory`;
  return null;
}

export function genSharedBytes(c: GenConfig): number {
  const aRow = c.BM / 4 + (c.padA ?? 0);
  return c.buffers * 16 * (c.BK * aRow + (c.BK * c.BN) / 4);
}

export function genKernel(c: GenConfig): string {
  const { tx: TX, ty: TY, n: NT } = genThreads(c);
  const AR = c.BM / 4 + (c.padA ?? 0); // vec4s per transposed A row
  const BR = c.BN / 4;
  const ABUF = c.BK * AR;
  const BBUF = c.BK * BR;
  const LA = (c.BM * c.BK) / 4 / NT;
  const LB = (c.BN * c.BK) / 4 / NT;
  const MI = c.TM / 4;
  const NJ = c.TN / 4;
  const L: string[] = [];
  const p = (s: string) => L.push(s);
  p(`// generated: ${genName(c)}`);
  p('alias T = f32;');
  p('struct Params { m: u32, n: u32, k: u32 }');
  p('@group(0) @binding(0) var<storage, read> a: array<vec4<T>>;');
  p('@group(0) @binding(1) var<storage, read> b: array<vec4<T>>;');
  p('@group(0) @binding(2) var<storage, read_write> c: array<vec4<T>>;');
  p('@group(0) @binding(3) var<uniform> params: Params;');
  p(`var<workgroup> tileA: array<vec4<T>, ${c.buffers * ABUF}>;`);
  p(`var<workgroup> tileB: array<vec4<T>, ${c.buffers * BBUF}>;`);
  p(`@compute @workgroup_size(${TX}, ${TY})`);
  p('fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>) {');
  p('  let k4 = params.k / 4u;');
  p('  let n4 = params.n / 4u;');
  p(`  let row0 = wid.y * ${c.BM}u;`);
  p(`  let col4 = wid.x * ${BR}u;`);
  if (c.wx) {
    const across = TX / c.wx;
    p(`  let tx = (t / 32u) % ${across}u * ${c.wx}u + t % ${c.wx}u;`);
    p(`  let ty = (t / 32u) / ${across}u * ${32 / c.wx}u + (t % 32u) / ${c.wx}u;`);
  } else {
    p('  let tx = lid.x;');
    p('  let ty = lid.y;');
  }
  // Load assignments.
  const aLoads: { row: string; kq: string; store: string[] }[] = [];
  for (let l = 0; l < LA; l++) {
    const q = `(t + ${l * NT}u)`;
    let row: string;
    let kq: string;
    if (c.aMap === 'rows') {
      row = `(${q} % ${c.BM}u)`;
      kq = `(${q} / ${c.BM}u)`;
    } else {
      row = `(${q} / ${c.BK / 4}u)`;
      kq = `(${q} % ${c.BK / 4}u)`;
    }
    p(`  let ar${l} = ${row};`);
    p(`  let ak${l} = ${kq};`);
    aLoads.push({ row: `ar${l}`, kq: `ak${l}`, store: [] });
  }
  for (let l = 0; l < LB; l++) {
    const q = `(t + ${l * NT}u)`;
    p(`  let bk${l} = ${q} / ${BR}u;`);
    p(`  let bc${l} = ${q} % ${BR}u;`);
  }
  p('  let steps = (params.k + ' + `${c.BK - 1}u) / ${c.BK}u;`);
  for (let l = 0; l < LA; l++) p(`  var va${l}: vec4<T>;`);
  for (let l = 0; l < LB; l++) p(`  var vb${l}: vec4<T>;`);
  if (c.accArray || c.nested) p(`  var acc: array<vec4<T>, ${c.TM * NJ}>;`);
  else for (let i = 0; i < c.TM * NJ; i++) p(`  var acc${i} = vec4<T>(T(0));`);
  const acc = (i: number) => (c.accArray || c.nested ? `acc[${i}]` : `acc${i}`);
  const loadStep = (k0: string, ind: string) => {
    for (let l = 0; l < LA; l++) {
      p(`${ind}va${l} = vec4<T>(T(0));`);
      p(`${ind}if (row0 + ar${l} < params.m && ${k0} + ak${l} * 4u < params.k) { va${l} = a[(row0 + ar${l}) * k4 + ${k0} / 4u + ak${l}]; }`);
    }
    for (let l = 0; l < LB; l++) {
      p(`${ind}vb${l} = vec4<T>(T(0));`);
      p(`${ind}if (${k0} + bk${l} < params.k && col4 + bc${l} < n4) { vb${l} = b[(${k0} + bk${l}) * n4 + col4 + bc${l}]; }`);
    }
  };
  const compute = (abase: number, bbase: number, ind: string) => {
    p(`${ind}{`);
    if (c.nested) {
      p(`${ind}for (var kk = 0u; kk < ${c.BK}u; kk++) {`);
      p(`${ind}  var av: array<vec4<T>, ${MI}>;`);
      p(`${ind}  var bv: array<vec4<T>, ${NJ}>;`);
      p(`${ind}  for (var i = 0u; i < ${MI}u; i++) { av[i] = tileA[ty + kk * ${AR}u + ${abase}u + i * ${TY}u]; }`);
      p(`${ind}  for (var j = 0u; j < ${NJ}u; j++) { bv[j] = tileB[tx + kk * ${BR}u + ${bbase}u + j * ${TX}u]; }`);
      p(`${ind}  for (var i = 0u; i < ${MI}u; i++) { for (var e = 0u; e < 4u; e++) { for (var j = 0u; j < ${NJ}u; j++) {`);
      p(`${ind}    acc[(i * 4u + e) * ${NJ}u + j] = fma(vec4<T>(av[i][e]), bv[j], acc[(i * 4u + e) * ${NJ}u + j]);`);
      p(`${ind}  } } }`);
      p(`${ind}}`);
    } else if (c.kLoop) {
      p(`${ind}for (var kk = 0u; kk < ${c.BK}u; kk++) {`);
      for (let i = 0; i < MI; i++) p(`${ind}  let a${i}_0 = tileA[ty + kk * ${AR}u + ${abase + i * TY}u];`);
      for (let j = 0; j < NJ; j++) p(`${ind}  let b${j}_0 = tileB[tx + kk * ${BR}u + ${bbase + j * TX}u];`);
      for (let i = 0; i < MI; i++) for (let e = 0; e < 4; e++) for (let j = 0; j < NJ; j++) {
        const idx = (i * 4 + e) * NJ + j;
        p(`${ind}  ${acc(idx)} = fma(vec4<T>(a${i}_0[${e}]), b${j}_0, ${acc(idx)});`);
      }
      p(`${ind}}`);
    }
    for (let kk = 0; kk < (c.kLoop || c.nested ? 0 : c.BK); kk++) {
      for (let i = 0; i < MI; i++) p(`${ind}let a${i}_${kk} = tileA[ty + ${abase + kk * AR + i * TY}u];`);
      for (let j = 0; j < NJ; j++) p(`${ind}let b${j}_${kk} = tileB[tx + ${bbase + kk * BR + j * TX}u];`);
      for (let i = 0; i < MI; i++) {
        for (let e = 0; e < 4; e++) {
          for (let j = 0; j < NJ; j++) {
            const idx = (i * 4 + e) * NJ + j;
            p(`${ind}${acc(idx)} = fma(vec4<T>(a${i}_${kk}[${e}]), b${j}_${kk}, ${acc(idx)});`);
          }
        }
      }
    }
    p(`${ind}}`);
  };
  // Step 0 into buffer 0.
  loadStep('0u', '  ');
  storeStepBuf(0);
  p('  workgroupBarrier();');
  if (c.buffers === 2) {
    // Two steps per trip: buffer 0 then buffer 1, so both buffers' offsets are constants.
    p('  for (var s = 0u; s < steps; s += 2u) {');
    for (const [cur, nxt] of [[0, 1], [1, 0]] as const) {
      const ss = cur === 0 ? 's' : '(s + 1u)';
      if (cur === 1) p('    if (s + 1u >= steps) { break; }');
      p(`    let more${cur} = ${ss} + 1u < steps;`);
      p(`    if (more${cur}) {`);
      loadStep(`(${ss} + 1u) * ${c.BK}u`, '      ');
      p('    }');
      compute(cur * ABUF, cur * BBUF, '    ');
      p(`    if (more${cur}) {`);
      storeStepBuf(nxt);
      p('    }');
      p('    workgroupBarrier();');
    }
    p('  }');
  } else {
    p('  for (var s = 0u; s < steps; s++) {');
    p('    let more = s + 1u < steps;');
    p('    if (more) {');
    loadStep(`(s + 1u) * ${c.BK}u`, '      ');
    p('    }');
    compute(0, 0, '    ');
    p('    workgroupBarrier();');
    p('    if (more) {');
    storeStepBuf(0);
    p('    }');
    p('    workgroupBarrier();');
    p('  }');
  }
  // Stores.
  for (let i = 0; i < MI; i++) {
    for (let e = 0; e < 4; e++) {
      p(`  {`);
      p(`    let r = row0 + (ty + ${i * TY}u) * 4u + ${e}u;`);
      p('    if (r < params.m) {');
      for (let j = 0; j < NJ; j++) {
        p(`      if (col4 + tx + ${j * TX}u < n4) { c[r * n4 + col4 + tx + ${j * TX}u] = ${acc((i * 4 + e) * NJ + j)}; }`);
      }
      p('    }');
      p('  }');
    }
  }
  p('}');
  return L.join('\n') + '\n';

  function storeStepBuf(buf: number): void {
    for (let l = 0; l < LA; l++) {
      for (let e = 0; e < 4; e++) {
        p(`      tileA[${buf * ABUF}u + (ak${l} * 4u + ${e}u) * ${AR}u + ar${l} / 4u][ar${l} % 4u] = va${l}[${e}];`);
      }
    }
    for (let l = 0; l < LB; l++) p(`      tileB[${buf * BBUF}u + bk${l} * ${BR}u + bc${l}] = vb${l};`);
  }
}
