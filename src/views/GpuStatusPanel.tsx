import { selectGpuStatus, useAppStore } from '../store/index.ts';

/** Names the adapter the page got, or explains plainly why there is none and what still works. */
export function GpuStatusPanel() {
  const status = useAppStore(selectGpuStatus);
  if (status.state === 'pending') {
    return (
      <section className="panel" aria-busy="true" aria-label="GPU">
        <p>Asking the browser for a WebGPU adapter…</p>
      </section>
    );
  }
  if (status.state === 'unavailable') {
    return (
      <section className="banner banner-warning" role="alert" data-testid="webgpu-banner">
        <h2>
          <span aria-hidden="true">⚠ </span>WebGPU unavailable — simulator only
        </h2>
        <p>{status.message}</p>
        <p className="hint">{status.hint}</p>
      </section>
    );
  }
  const a = status.adapter;
  return (
    <section className="panel" aria-label="GPU adapter" data-testid="adapter-panel">
      <h2>GPU adapter</h2>
      <dl className="facts">
        <dt>Adapter</dt>
        <dd data-testid="adapter-name">{a.name}</dd>
        <dt>Subgroup (warp) size</dt>
        <dd>
          {a.hasSubgroups
            ? a.subgroupMinSize === a.subgroupMaxSize
              ? String(a.subgroupMinSize ?? '?')
              : `${a.subgroupMinSize ?? '?'}–${a.subgroupMaxSize ?? '?'}`
            : 'no subgroup support'}
        </dd>
        <dt>Timing</dt>
        <dd>{a.hasTimestamps ? 'GPU timestamp queries' : 'wall clock (no timestamp-query feature)'}</dd>
        <dt>Largest buffer binding</dt>
        <dd>{(a.limits.maxStorageBufferBindingSize / 2 ** 20).toFixed(0)} MiB</dd>
        <dt>Invocations per workgroup</dt>
        <dd>{a.limits.maxComputeInvocationsPerWorkgroup}</dd>
      </dl>
      {a.isFallbackAdapter && (
        <p className="hint">
          This is a software (fallback) adapter: results are exact, but timings describe your CPU, not a GPU.
        </p>
      )}
    </section>
  );
}
