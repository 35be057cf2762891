/**
 * TensorFlow.js on its WebGPU backend, in Node, as a peer for `npm run bench`: `tf.sum` beside our
 * reductions and `tf.cumsum` beside our scans, on the same adapter and in the same process.
 */
import { median } from '../util/stats.ts';

/** What a tfjs op measured, or why it could not run. */
export type TfResult =
  | { readonly ok: true; readonly medianMs: number; readonly source: string }
  | { readonly ok: false; readonly reason: string };

/** Objects Dawn must not garbage-collect while the process lives (see src/gpu/node.ts). */
const keepAlive: unknown[] = [];

/**
 * What `medianTfTime` needs of TensorFlow.js, named structurally: a top-level type import of
 * tfjs-core brings in its older WebGPU typings, which then hide the `subgroups` feature from src/gpu.
 */
interface TfClock {
  time(f: () => void): Promise<{ readonly kernelMs: number | { readonly error: string }; readonly wallMs: number }>;
}

/**
 * TensorFlow.js on its WebGPU backend. In Node the backend finds WebGPU through `navigator.gpu`,
 * so Dawn's entry point (the `webgpu` package, on the Vulkan driver the executor picked) is
 * installed there first. Throws when the backend does not start.
 */
export async function tfOnWebgpu() {
  const g = globalThis as { navigator?: { gpu?: unknown } };
  if (!g.navigator?.gpu) {
    const webgpu = (await import('webgpu')) as unknown as { create: (flags: string[]) => unknown };
    const dawn = webgpu.create(['disable-dawn-features=timestamp_quantization']);
    keepAlive.push(webgpu, dawn);
    if (g.navigator) Object.defineProperty(g.navigator, 'gpu', { value: dawn, configurable: true });
    else Object.defineProperty(globalThis, 'navigator', { value: { gpu: dawn }, configurable: true });
  }
  const tf = await import('@tensorflow/tfjs-core');
  await import('@tensorflow/tfjs-backend-webgpu');
  if (!(await tf.setBackend('webgpu'))) throw new Error('tf.setBackend("webgpu") returned false');
  await tf.ready();
  keepAlive.push(tf.backend());
  return tf;
}

/**
 * The median over `repeats` runs of `apply` of `tf.time`'s kernel time (timestamp queries), or
 * its wall time where the backend has no kernel time, after `untimed` runs that bring the clocks up.
 */
export async function medianTfTime(tf: TfClock, apply: () => { dispose(): void }, repeats: number, untimed: number): Promise<TfResult> {
  const samples: number[] = [];
  let source = 'tf.time kernelMs (timestamp queries)';
  for (let i = 0; i < untimed + repeats; i++) {
    let y: { dispose(): void } | undefined;
    const info = await tf.time(() => {
      y = apply();
    });
    y?.dispose();
    if (i < untimed) continue;
    if (typeof info.kernelMs === 'number') samples.push(info.kernelMs);
    else {
      source = `tf.time wallMs (kernelMs unavailable: ${info.kernelMs.error})`;
      samples.push(info.wallMs);
    }
  }
  return { ok: true, medianMs: median(samples), source };
}

/** A tfjs run that threw, as the reason the bench prints. */
export function tfFailure(e: unknown): TfResult {
  return { ok: false, reason: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

/**
 * Times `tf.sum` or `tf.cumsum` over n ones (float32, or int32 for the sum) with `tf.time`'s
 * kernel time, after a warm-up run that also checks the result.
 */
export async function timeTf(op: 'sum' | 'cumsum', n: number, dtype: 'float32' | 'int32', repeats: number): Promise<TfResult> {
  try {
    const tf = await tfOnWebgpu();
    const x = tf.ones([n], dtype);
    const apply = () => (op === 'sum' ? tf.sum(x) : tf.cumsum(x));
    // Warm-up: shader compilation, buffer allocation; also a correctness check (ones sum to n).
    const first = apply();
    const tail = op === 'sum' ? first : tf.slice(first, [n - 1], [1]);
    const last = (await tail.data())[0];
    if (tail !== first) tail.dispose();
    first.dispose();
    if (last !== n) return { ok: false, reason: `tf.${op} of ${n} ones gave ${last}` };
    // Two more untimed runs: the clocks come up.
    const timed = await medianTfTime(tf, apply, repeats, 2);
    x.dispose();
    return timed;
  } catch (e) {
    return tfFailure(e);
  }
}
