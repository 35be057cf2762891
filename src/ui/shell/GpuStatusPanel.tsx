import { formatInteger } from '../../i18n/numbers.ts';
import { ui } from '../../i18n/ui.ts';
import { selectGpuStatus, useAppStore } from '../../store/index.ts';

/** Names the adapter the page got, or explains plainly why there is none and what still works. */
export function GpuStatusPanel() {
  const status = useAppStore(selectGpuStatus);
  if (status.state === 'pending') {
    return (
      <section className="panel" aria-busy="true" aria-label={ui('gpu.label')}>
        <p>{ui('gpu.asking')}</p>
      </section>
    );
  }
  if (status.state === 'unavailable') {
    return (
      <section className="banner banner-warning" role="alert" data-testid="webgpu-banner">
        <h2>
          <span aria-hidden="true">⚠ </span>
          {ui('gpu.unavailable')}
        </h2>
        <p>{status.kind === 'no-webgpu' ? ui('gpu.noWebgpu') : status.kind === 'no-adapter' ? ui('gpu.noAdapterMessage', { message: status.message }) : status.message}</p>
        <p className="hint">{status.kind === 'no-webgpu' ? ui('gpu.hint.noWebgpu') : status.kind === 'no-adapter' ? ui('gpu.hint.noAdapter') : status.hint}</p>
      </section>
    );
  }
  const a = status.adapter;
  return (
    <section className="panel" aria-label={ui('gpu.adapterTitle')} data-testid="adapter-panel">
      <h2>{ui('gpu.adapterTitle')}</h2>
      <dl className="facts">
        <dt>{ui('gpu.adapter')}</dt>
        {/* The adapter's name is data, read the same in every language. */}
        <dd data-testid="adapter-name" translate="no">
          {a.name}
        </dd>
        <dt>{ui('gpu.subgroupSize')}</dt>
        <dd>
          {a.hasSubgroups
            ? a.subgroupMinSize === a.subgroupMaxSize
              ? String(a.subgroupMinSize ?? '?')
              : `${a.subgroupMinSize ?? '?'}–${a.subgroupMaxSize ?? '?'}`
            : ui('gpu.noSubgroups')}
        </dd>
        <dt>{ui('gpu.timing')}</dt>
        <dd>{a.hasTimestamps ? ui('gpu.timestamps') : ui('gpu.wallClock')}</dd>
        <dt>{ui('gpu.largestBinding')}</dt>
        <dd>{formatInteger(a.limits.maxStorageBufferBindingSize / 2 ** 20)} MiB</dd>
        <dt>{ui('gpu.invocations')}</dt>
        <dd>{formatInteger(a.limits.maxComputeInvocationsPerWorkgroup)}</dd>
      </dl>
      {a.isFallbackAdapter && (
        <p className="hint">
          {ui('gpu.fallback')}
        </p>
      )}
    </section>
  );
}
