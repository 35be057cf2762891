import { useCallback, useEffect, useId, useState } from 'react';
import { pageGpu } from '../app/gpu.ts';
import { isGpuError, type Timing } from '../gpu/index.ts';
import {
  VECTOR_ADD_FILE,
  vectorAddBytes,
  vectorAddReference,
  vectorAddRun,
} from '../labs/basics/vectorAdd.ts';
import { randomF32, seededRandom } from '../util/random.ts';
import { selectGpuStatus, useAppStore } from '../store/index.ts';
import { ShaderErrorView, type ShownError } from './ShaderErrorView.tsx';

const SIZES = [10, 12, 14, 16, 18, 20, 22, 24] as const;
const DRAFT_KEY = 'warpscope.vector-add.draft';

interface Outcome {
  readonly n: number;
  readonly mismatches: number;
  readonly firstMismatch: number;
  readonly timing: Timing;
  readonly gbps: number;
}

function loadDraft(fallback: string): string {
  try {
    return localStorage.getItem(DRAFT_KEY) ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * The first kernel: vector add with a grid-stride loop, run on the GPU, checked element by element
 * against the CPU, timed with timestamp queries. The WGSL is editable; a broken edit shows the
 * compiler's line and column and is kept (also across reloads) until fixed or reset.
 */
export function VectorAddPanel() {
  const status = useAppStore(selectGpuStatus);
  const original = vectorAddRun({ a: new Float32Array(0), b: new Float32Array(0) }).code;
  const [code, setCode] = useState(() => loadDraft(original));
  const [log2n, setLog2n] = useState<number>(16);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [error, setError] = useState<ShownError | undefined>();
  const editorId = useId();
  const sizeId = useId();

  useEffect(() => {
    try {
      if (code === original) localStorage.removeItem(DRAFT_KEY);
      else localStorage.setItem(DRAFT_KEY, code);
    } catch {
      // Private mode: the draft lives only in this tab.
    }
  }, [code, original]);

  const run = useCallback(async () => {
    setBusy(true);
    setError(undefined);
    try {
      const n = 2 ** log2n;
      const rng = seededRandom(log2n);
      const a = randomF32(rng, n, -1000, 1000);
      const b = randomF32(rng, n, -1000, 1000);
      const kernel = { ...vectorAddRun({ a, b }), code };
      const out = await pageGpu.run(kernel);
      const c = out[0]?.[2];
      const expected = vectorAddReference(a, b);
      let mismatches = 0;
      let firstMismatch = -1;
      for (let i = 0; i < n; i++) {
        if (!Object.is(c?.[i], expected[i])) {
          if (firstMismatch < 0) firstMismatch = i;
          mismatches++;
        }
      }
      const timing = await pageGpu.time(kernel, { repeats: 10 });
      setOutcome({ n, mismatches, firstMismatch, timing, gbps: vectorAddBytes(n) / (timing.medianMs * 1e6) });
    } catch (e) {
      setOutcome(undefined);
      if (isGpuError(e)) {
        setError({
          title: e.kind === 'compile' ? 'The kernel does not compile' : `GPU error (${e.kind})`,
          message: e.message,
          hint: e.hint,
          messages: e.messages,
        });
      } else {
        setError({ title: 'Unexpected failure', message: String(e), hint: 'Reload the page; your edit is kept.' });
      }
    } finally {
      setBusy(false);
    }
  }, [code, log2n]);

  const ready = status.state === 'ready';
  return (
    <section className="panel" aria-labelledby="vector-add-title" data-testid="vector-add">
      <h2 id="vector-add-title">First kernel: vector add</h2>
      <p>
        Each invocation adds <code>a[i] + b[i]</code> starting at its global index and stepping by the size of the
        whole grid, so any <var>n</var> is covered by any number of workgroups. Edit the WGSL and run it on your GPU;
        the result is compared with the CPU element by element.
      </p>
      <label htmlFor={editorId} className="field-label">
        {VECTOR_ADD_FILE}
      </label>
      <textarea
        id={editorId}
        className="code-editor"
        spellCheck={false}
        value={code}
        rows={Math.min(28, code.split('\n').length + 1)}
        onChange={(e) => setCode(e.target.value)}
        data-testid="wgsl-editor"
      />
      <div className="controls">
        <label htmlFor={sizeId}>Elements n</label>
        <select id={sizeId} value={log2n} onChange={(e) => setLog2n(Number(e.target.value))} data-testid="size-select">
          {SIZES.map((s) => (
            <option key={s} value={s}>
              2^{s} = {(2 ** s).toLocaleString('en')}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void run()} disabled={!ready || busy} data-testid="run-vector-add">
          {busy ? 'Running…' : 'Run on GPU'}
        </button>
        <button type="button" onClick={() => setCode(original)} disabled={code === original || busy}>
          Reset code
        </button>
      </div>
      {!ready && status.state !== 'pending' && (
        <p className="hint">Running on the GPU needs WebGPU; the simulator-based labs work without it.</p>
      )}
      <div aria-live="polite" data-testid="vector-add-result">
        {error && <ShaderErrorView error={error} />}
        {outcome && (
          <div className={outcome.mismatches === 0 ? 'result result-ok' : 'result result-bad'}>
            <p data-testid="check">
              {outcome.mismatches === 0 ? (
                <>
                  <span aria-hidden="true">✓ </span>All {outcome.n.toLocaleString('en')} elements match the CPU.
                </>
              ) : (
                <>
                  <span aria-hidden="true">✗ </span>
                  {outcome.mismatches.toLocaleString('en')} of {outcome.n.toLocaleString('en')} elements differ from
                  the CPU (first at index {outcome.firstMismatch}).
                </>
              )}
            </p>
            <p data-testid="timing">
              GPU time {outcome.timing.medianMs.toFixed(4)} ms (median of {outcome.timing.repeats}, min{' '}
              {outcome.timing.minMs.toFixed(4)}, max {outcome.timing.maxMs.toFixed(4)};{' '}
              {outcome.timing.dispatchesPerPass} {outcome.timing.dispatchesPerPass === 1 ? "dispatch" : "dispatches"} per timed pass) · {outcome.gbps.toFixed(2)} GB/s
            </p>
            {outcome.timing.source === 'wall-clock' && (
              <p className="hint">No timestamp queries on this adapter: this is wall-clock time around the submit.</p>
            )}
            {outcome.timing.quantized && (
              <p className="hint">
                The browser rounds GPU timestamps to 0.1 ms; the pass was lengthened to {outcome.timing.dispatchesPerPass}{' '}
                dispatches so the rounding stays small.
              </p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
