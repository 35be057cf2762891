/** Small factories shared by the simulator's tests. */
import type { BindingData, KernelRun } from '../kernel/types.ts';
import { simulate, type SimOptions, type SimResult } from './simulate.ts';

export interface KernelOverrides {
  /** Threads in the one workgroup (default 1). */
  threads?: number;
  /** Element type of `out` (default u32). */
  out?: 'u32' | 'i32' | 'f32';
  outLength?: number;
  /** `inp` contents (default 64 zeros, u32). */
  input?: BindingData;
  /** Declarations placed before the kernel. */
  decls?: string;
  workgroups?: number;
}

/**
 * A one-workgroup kernel around `body`, with `out` (read_write, group 0 binding 0), `inp` (read,
 * binding 1) and the builtins `lid`, `gid`, `wid`, `sid`, `ssz` in scope.
 */
export function kernel(body: string, o: KernelOverrides = {}): KernelRun {
  const threads = o.threads ?? 1;
  const outT = o.out ?? 'u32';
  const input = o.input ?? new Uint32Array(64);
  const inT = input instanceof Float32Array ? 'f32' : input instanceof Int32Array ? 'i32' : 'u32';
  const outLen = o.outLength ?? Math.max(threads, 16) * (o.workgroups ?? 1);
  const out = outT === 'f32' ? new Float32Array(outLen) : outT === 'i32' ? new Int32Array(outLen) : new Uint32Array(outLen);
  // `enable subgroups;` shares line 1 with the declarations so the body's line numbers stay put.
  const code = `enable subgroups; ${o.decls ?? ''}
@group(0) @binding(0) var<storage, read_write> out: array<${outT}>;
@group(0) @binding(1) var<storage, read> inp: array<${inT}>;
@compute @workgroup_size(${threads})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(subgroup_invocation_id) sid: u32,
        @builtin(subgroup_size) ssz: u32) {
${body}
}
`;
  return { code, entryPoint: 'main', workgroups: [o.workgroups ?? 1], bindings: { 0: { 0: out, 1: input } } };
}

/** Runs `kernel(body, o)` and returns the result and `out` as a plain array. */
export function run(body: string, o: KernelOverrides = {}, options: SimOptions = {}): SimResult & { out: number[] } {
  const r = simulate(kernel(body, o), { trace: 'summary', ...options });
  return { ...r, out: Array.from(r.buffers[0]![0]!) };
}
