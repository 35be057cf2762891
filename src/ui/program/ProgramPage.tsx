/**
 * `/program`: a whole CUDA program (its `main` with its kernels) typed, pasted, opened from a file
 * or picked from the posts' programs, run in a worker (`programWorker.ts`) as nvcc's build would
 * run it. The console fills as the program prints; the launches' timeline fills as each returns;
 * Stop ends the worker at any moment. The draft is kept in localStorage as it is typed.
 * After a run its worker stays (until the next run) holding each launch's launch-time buffers, so
 * any launch opens in the replay (`ProgramReplay.tsx`) with the inputs it really had.
 */
import { Suspense, lazy, useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { startProgramWorker, type CudaDiagnostic as Diagnostic, type LaunchSummary, type ProgramMessage, type ProgramRequest, type ReplayRequest } from '../../workbench/programClient.ts';
import { EXAMPLES, POSTS, loadExample } from '../../workbench/programExamples.ts';
import { formatInteger } from '../../i18n/numbers.ts';
import { selectGpuStatus, useAppStore } from '../../store/index.ts';
import { CudaEditor } from './CudaEditor.tsx';
import { m, type ProgramKey } from './messages.ts';
import type { LaunchToReplay } from '../../workbench/programReplay.ts';

// The replay brings the CUDA front end and the lab's views: loaded with the first launch opened.
const ProgramReplay = lazy(() => import('./ProgramReplay.tsx').then((mod) => ({ default: mod.ProgramReplay })));

const postKey = (post: string): ProgramKey => `post.${post}` as ProgramKey;
const exampleKey = (id: string): ProgramKey => `seed.${id}` as ProgramKey;
import './program.css';

const DRAFT_KEY = 'warpscope.program.draft';
const EXECUTOR_KEY = 'warpscope.program.executor';
type Executor = ProgramRequest['executor'];
type ExecutorInfo = Extract<ProgramMessage, { type: 'executor' }>;

function readExecutor(): Executor {
  try {
    return localStorage.getItem(EXECUTOR_KEY) === 'gpu' ? 'gpu' : 'sim';
  } catch {
    return 'sim';
  }
}

function keepExecutor(e: Executor): void {
  try {
    localStorage.setItem(EXECUTOR_KEY, e);
  } catch {
    // Private mode or a full store: the choice holds for this visit.
  }
}

function executorText(info: ExecutorInfo): string {
  if (info.executor === 'gpu') return m('ranOnGpu', { adapter: info.adapter });
  return info.fallback ? m('ranOnSimFallback', { reason: info.fallback === 'no-webgpu' ? m('noWebGpu') : info.fallback }) : m('ranOnSim');
}
const MAX_FILE_BYTES = 1024 * 1024;
const FILE_NAME = 'program.cu';

const STARTER = `#include <cstdio>

__global__ void square(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * a[i];
}

int main() {
    const int n = 8;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    square<<<1, 32>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) printf("%d ", h[i]);
    printf("\\n");
    cudaFree(d);
    return 0;
}
`;

function readDraft(): string | undefined {
  try {
    return localStorage.getItem(DRAFT_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function keepDraft(text: string): void {
  try {
    localStorage.setItem(DRAFT_KEY, text);
  } catch {
    // Private mode or a full store: the text stays in the editor.
  }
}

type Status =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running' }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'exited'; readonly code: number }
  | { readonly kind: 'compileFailed'; readonly count: number }
  | { readonly kind: 'failed'; readonly message: string };

interface Chunk {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

const dim = (d: { x: number; y: number; z: number }): string => (d.y === 1 && d.z === 1 ? formatInteger(d.x) : `(${d.x}, ${d.y}, ${d.z})`);

function statusText(s: Status): string {
  switch (s.kind) {
    case 'idle':
      return '';
    case 'running':
      return m('running');
    case 'stopped':
      return m('stopped');
    case 'exited':
      return s.code === 0 ? m('exitedOk') : m('exited', { code: s.code });
    case 'compileFailed':
      return m('compileFailed', { count: s.count });
    case 'failed':
      return m('failed', { message: s.message });
  }
}

export function ProgramPage() {
  const [source, setSource] = useState(() => readDraft() ?? STARTER);
  const [files, setFiles] = useState<Record<string, string>>({});
  const [example, setExample] = useState('');
  const [notice, setNotice] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [chunks, setChunks] = useState<readonly Chunk[]>([]);
  const [launches, setLaunches] = useState<readonly LaunchSummary[]>([]);
  const [diagnostics, setDiagnostics] = useState<readonly Diagnostic[]>([]);
  const [chosen, setExecutor] = useState<Executor>(readExecutor);
  const [ranOn, setRanOn] = useState<ExecutorInfo | undefined>();
  // The page's own device tells whether WebGPU works here (the worker acquires its own, and says
  // so where that fails); without it only the simulator can be picked.
  const webGpu = useAppStore(selectGpuStatus).state !== 'unavailable';
  const executor: Executor = webGpu ? chosen : 'sim';
  const worker = useRef<Worker | null>(null);
  // The finished run's worker, which keeps its launches for the replay, and the program it ran.
  const finished = useRef<Worker | null>(null);
  const ran = useRef<{ cuda: string; fileName: string; files: Record<string, string> }>({ cuda: '', fileName: FILE_NAME, files: {} });
  const [replay, setReplay] = useState<{ readonly loading: number } | { readonly launch: LaunchToReplay; readonly source: typeof ran.current } | undefined>();
  const fileInput = useRef<HTMLInputElement>(null);
  const sourceRef = useRef(source);
  sourceRef.current = source;

  useEffect(
    () => () => {
      worker.current?.terminate();
      finished.current?.terminate();
    },
    [],
  );

  // Headers the posts' programs include (002-topk's error.cuh), available to any program.
  useEffect(() => {
    let live = true;
    void loadExample(EXAMPLES[0]!.id).then((e) => live && setFiles(e.files), () => undefined);
    return () => {
      live = false;
    };
  }, []);

  const edit = useCallback((text: string) => {
    setSource(text);
    keepDraft(text);
  }, []);

  const stop = useCallback(() => {
    if (!worker.current) return;
    worker.current.terminate();
    worker.current = null;
    setStatus({ kind: 'stopped' });
  }, []);

  const run = useCallback(() => {
    worker.current?.terminate();
    finished.current?.terminate();
    finished.current = null;
    setReplay(undefined);
    const w = startProgramWorker();
    if (!w) {
      setStatus({ kind: 'failed', message: m('noWorker') });
      return;
    }
    worker.current = w;
    setChunks([]);
    setLaunches([]);
    setDiagnostics([]);
    setRanOn(undefined);
    setStatus({ kind: 'running' });
    const finish = (s: Status): void => {
      if (worker.current !== w) return;
      w.terminate();
      worker.current = null;
      setStatus(s);
    };
    w.onmessage = (e: MessageEvent<ProgramMessage>) => {
      if (worker.current !== w) return;
      const msg = e.data;
      if (msg.type === 'compiled') {
        setDiagnostics(msg.diagnostics);
        if (!msg.ok) finish({ kind: 'compileFailed', count: msg.diagnostics.filter((d) => d.severity === 'error').length });
      } else if (msg.type === 'executor') {
        setRanOn(msg);
      } else if (msg.type === 'output') {
        setChunks((c) => {
          const last = c.at(-1);
          return last && last.stream === msg.stream ? [...c.slice(0, -1), { stream: msg.stream, text: last.text + msg.text }] : [...c, { stream: msg.stream, text: msg.text }];
        });
      } else if (msg.type === 'launch') {
        setLaunches((l) => [...l, msg.launch]);
      } else if (msg.type === 'done') {
        setLaunches(msg.launches);
        // The worker stays, holding the launches for the replay, until the next run.
        worker.current = null;
        finished.current = w;
        w.onmessage = (e: MessageEvent<ProgramMessage>) => {
          const r = e.data;
          if (finished.current !== w || r.type !== 'replay') return;
          const l = msg.launches[r.launch];
          setReplay((now) =>
            now && 'loading' in now && now.loading === r.launch && l && r.run
              ? { launch: { index: r.launch, kernel: l.kernel, line: l.line, grid: l.grid, block: l.block, ms: l.ms, run: r.run }, source: ran.current }
              : now,
          );
        };
        setStatus({ kind: 'exited', code: msg.exitCode });
      } else if (msg.type === 'replay') {
        // Only the finished run answers these.
      } else {
        finish({ kind: 'failed', message: msg.message });
      }
    };
    w.onerror = (e) => finish({ kind: 'failed', message: e.message || 'the worker stopped' });
    const request: ProgramRequest = { source: sourceRef.current, fileName: FILE_NAME, executor, files };
    ran.current = { cuda: sourceRef.current, fileName: FILE_NAME, files };
    w.postMessage(request);
  }, [files, executor]);

  /** The example picked last: a load that finishes after a later pick is dropped. */
  const picked = useRef('');
  const openReplay = (i: number): void => {
    const w = finished.current;
    if (!w) return;
    setReplay({ loading: i });
    const ask: ReplayRequest = { type: 'replay', launch: i };
    w.postMessage(ask);
  };

  const pickExample = (id: string): void => {
    setExample(id);
    picked.current = id;
    if (!id) return;
    void loadExample(id).then(
      (e) => {
        // Arrowing through the menu picks one example after another: only the last one picked opens,
        // whichever load finishes last.
        if (picked.current !== id) return;
        edit(e.source);
        setFiles(e.files);
        setNotice(m('dropped', { name: `${id}.cu` }));
      },
      (err: unknown) => picked.current === id && setNotice(m('failed', { message: err instanceof Error ? err.message : String(err) })),
    );
  };

  const openFile = async (file: File | undefined): Promise<void> => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setNotice(m('tooBig', { name: file.name, size: formatInteger(file.size) }));
      return;
    }
    const text = await file.text();
    if (text.includes('\u0000')) {
      setNotice(m('notText', { name: file.name }));
      return;
    }
    edit(text);
    setExample('');
    picked.current = '';
    setNotice(m('dropped', { name: file.name }));
  };

  const onDrop = (e: DragEvent<HTMLDivElement>): void => {
    const file = e.dataTransfer.files[0];
    if (!file) return;
    e.preventDefault();
    void openFile(file);
  };

  const running = status.kind === 'running';
  const errors = diagnostics.filter((d) => d.severity === 'error');

  return (
    <div className="program-page" data-testid="program-page">
      <h1>{m('title')}</h1>
      <p className="hint">{m('intro')}</p>
      <div className="program-toolbar" role="group" aria-label={m('title')}>
        <label>
          {m('examples')}{' '}
          <select value={example} onChange={(e) => pickExample(e.target.value)} data-testid="program-examples">
            <option value="">{m('examplesNone')}</option>
            {POSTS.map((post) => (
              <optgroup key={post} label={m(postKey(post))}>
                {EXAMPLES.filter((e) => e.post === post).map((e) => (
                  <option key={e.id} value={e.id}>
                    {m(exampleKey(e.id))}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => fileInput.current?.click()}>
          {m('open')}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".cu,.cuh,.cpp,.c,.h,text/plain"
          hidden
          data-testid="program-file"
          onChange={(e) => {
            void openFile(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <span className="hint">{m('dropHint')}</span>
      </div>
      <div className="program-editor-wrap" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
        <CudaEditor value={source} label={m('editorLabel')} diagnostics={diagnostics} onChange={edit} onRun={run} />
      </div>
      <p className="hint" role="status" data-testid="program-notice">
        {notice || m('draftKept')}
      </p>
      <div className="program-run" role="group" aria-label={m('run')}>
        <label>
          {m('executor')}{' '}
          <select
            value={executor}
            data-testid="program-executor"
            aria-describedby="program-executor-hint"
            onChange={(e) => {
              const next = e.target.value === 'gpu' ? 'gpu' : 'sim';
              setExecutor(next);
              keepExecutor(next);
            }}
          >
            <option value="sim">{m('executorSim')}</option>
            <option value="gpu" disabled={!webGpu}>
              {webGpu ? m('executorGpu') : m('executorGpuMissing')}
            </option>
          </select>
        </label>
        <button type="button" className="primary" onClick={run} disabled={running} aria-keyshortcuts="Control+Enter">
          ▶ {m('run')}
        </button>
        <button type="button" onClick={stop} disabled={!running} data-testid="program-stop">
          ■ {m('stop')}
        </button>
        <span role="status" data-testid="program-status" className={`program-status status-${status.kind}`}>
          {statusText(status)}
        </span>
      </div>
      <p className="hint" id="program-executor-hint">
        {m('executorHint')}
      </p>
      {ranOn && (
        <p role="status" data-testid="program-executor-used" className={`program-executor-used${ranOn.executor === 'sim' && ranOn.fallback ? ' fallback' : ''}`}>
          {ranOn.executor === 'gpu' ? '⚡ ' : ranOn.fallback ? '⚠ ' : ''}
          {executorText(ranOn)}
        </p>
      )}
      {errors.length > 0 && (
        <ul className="program-errors" data-testid="program-errors">
          {errors.map((d, i) => (
            <li key={i}>{m('diagnostic', { line: d.line, column: d.column, message: d.message })}</li>
          ))}
        </ul>
      )}
      <section aria-labelledby="program-console-h">
        <h2 id="program-console-h">{m('console')}</h2>
        <pre className="program-console" role="log" aria-live="polite" data-testid="program-console" tabIndex={0}>
          {chunks.length === 0 ? (
            <span className="hint">{m('consoleEmpty')}</span>
          ) : (
            chunks.map((c, i) => (
              <span key={i} className={`out-${c.stream}`} data-stream={c.stream}>
                {c.stream === 'stderr' && (
                  <span className="stream-tag" aria-hidden="false">
                    {m('stderrMark')}
                  </span>
                )}
                {c.text}
              </span>
            ))
          )}
        </pre>
      </section>
      <section aria-labelledby="program-timeline-h">
        <h2 id="program-timeline-h">{m('timeline')}</h2>
        {launches.length === 0 ? (
          <p className="hint">{m('timelineEmpty')}</p>
        ) : (
          <table className="program-timeline" data-testid="program-timeline">
            <thead>
              <tr>
                <th scope="col">{m('colIndex')}</th>
                <th scope="col">{m('colKernel')}</th>
                <th scope="col">{m('colLine')}</th>
                <th scope="col">{m('colGrid')}</th>
                <th scope="col">{m('colBlock')}</th>
                <th scope="col">{m('colShared')}</th>
                <th scope="col">{ranOn?.executor === 'gpu' ? m('colTimeGpu') : m('colTime')}</th>
                <th scope="col">{m('colStatus')}</th>
                <th scope="col">{m('colReplay')}</th>
              </tr>
            </thead>
            <tbody>
              {launches.map((l, i) => (
                <tr key={i}>
                  <td>{i + 1}</td>
                  <td>
                    <code>{l.kernel}</code>
                  </td>
                  <td>{l.line}</td>
                  <td>{dim(l.grid)}</td>
                  <td>{dim(l.block)}</td>
                  <td>{formatInteger(l.sharedBytes)}</td>
                  <td>{m('timeMs', { ms: l.ms.toFixed(l.ms > 0 && l.ms < 1 ? 3 : 1) })}</td>
                  <td>{l.error ? (l.ran === false ? m('statusNotRun', { code: l.error }) : `⚠ ${m('statusError', { code: l.error })}`) : `✓ ${m('statusOk')}`}</td>
                  <td>
                    {l.kept ? (
                      <button type="button" onClick={() => openReplay(i)} disabled={running} aria-label={m('replayOpenLabel', { n: i + 1, kernel: l.kernel })} data-testid="program-open-replay">
                        {m('replayOpen')}
                      </button>
                    ) : l.ran !== undefined ? (
                      <span title={m('replayNotKeptWhy')}>{m('replayNotKept')}</span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {replay &&
        ('loading' in replay ? (
          <p role="status" className="hint" data-testid="replay-loading">
            {m('replayLoading', { n: replay.loading + 1 })}
          </p>
        ) : (
          <Suspense fallback={<p className="hint">{m('replayLoading', { n: replay.launch.index + 1 })}</p>}>
            <ProgramReplay key={replay.launch.index} launch={replay.launch} source={replay.source} onClose={() => setReplay(undefined)} />
          </Suspense>
        ))}
    </div>
  );
}
