/**
 * One launch of a program, replayed warp by warp: a lab session over the one-launch lab
 * (`workbench/programReplay.ts`) with the lab page's views: the program's CUDA with the step's
 * line marked (through the translation's source map), the stage (warps, workgroup memory, tree),
 * what the step does, and the timeline with its keys. Loaded with the first replay (its own chunk:
 * it brings the CUDA front end for the source map).
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { t } from '../../i18n/messages.ts';
import { ui as uiText } from '../../i18n/ui.ts';
import { formatInteger } from '../../i18n/numbers.ts';
import { createLabSession, type SimulateFn } from '../../workbench/session.ts';
import { client } from '../../workbench/simulation.ts';
import { blockAlone, blocksOf, launchLab, replayOffer, replaySource, type LaunchToReplay } from '../../workbench/programReplay.ts';
import { traceStep } from '../../sim/index.ts';
import { dataflowTree } from '../../trace/memory.ts';
import { subjectAt } from '../../trace/subject.ts';
import { narrate } from '../../trace/narrate.ts';
import { timelineActions } from '../pages/useLabSession.ts';
import { useShortcuts } from '../shell/shortcuts.ts';
import { StageCamera } from '../widgets/StageCamera.tsx';
import { TimelineBar } from '../widgets/TimelineBar.tsx';
import { BuiltInView, builtInViewsOf, type BuiltInViewId } from '../panels/BuiltInView.tsx';
import { PanelBoundary } from '../shell/PanelBoundary.tsx';
import { KernelEditor, type KernelEditorHandle } from '../editor/KernelEditor.tsx';
import { m } from './messages.ts';

export interface ReplayProps {
  readonly launch: LaunchToReplay;
  /** The program as it ran, for the CUDA pane and the source map. */
  readonly source: { readonly cuda: string; readonly fileName: string; readonly files: Readonly<Record<string, string>> };
  readonly onClose: () => void;
}

const dim = (d: { x: number; y: number; z: number }): string => (d.y === 1 && d.z === 1 ? formatInteger(d.x) : `(${d.x}, ${d.y}, ${d.z})`);
const noLint = () => Promise.resolve([]);
const ignore = () => undefined;

/** The replay of one scope (whole launch, or one block alone): its own session. */
function Replayed({ launch, source, alone, workgroup, onWorkgroup }: { launch: LaunchToReplay; source: ReplayProps['source']; alone: boolean; workgroup: number; onWorkgroup: (g: number) => void }) {
  const map = useMemo(() => replaySource(source.cuda, source.fileName, source.files, launch.run.code), [source, launch.run.code]);
  const [session] = useState(() => {
    const simulate: SimulateFn = (channel, run, options, onProgress) => {
      const block = options.traceWorkgroups?.[0] ?? 0;
      return client('program-replay').simulate(run, alone ? { ...options, ...blockAlone(run, block) } : options, onProgress);
    };
    return createLabSession(launchLab(launch, source), { variant: 'launch', compare: undefined, params: {}, workgroup }, { simulate, deferStart: true, nextTask: () => new Promise<void>((r) => setTimeout(r, 0)) });
  });
  useEffect(() => {
    session.getState().configure({ variant: 'launch', compare: undefined, params: {}, workgroup });
  }, [session, workgroup]);
  useEffect(() => () => session.getState().dispose(), [session]);

  const state = useStore(session);
  const { primary: main, step, playing, speedIndex, focusWarp, focusLane } = state;
  const actions = useMemo(() => timelineActions(state), [state]);
  // Every timeline action has its key, as on a lab page (seeking is the timeline bar's own).
  const { togglePlay, seek, ...keyed } = actions;
  void seek;
  useShortcuts({ play: togglePlay, ...keyed });

  const index = main.index;
  const trace = main.result?.trace;
  const safeStep = trace ? Math.min(step, Math.max(0, trace.stepCount - 1)) : 0;
  const view = trace && trace.stepCount > 0 ? traceStep(trace, safeStep) : undefined;
  const at = view && map ? map.toCuda(view.line, view.column) : undefined;
  const cudaLine = at && at.file === undefined ? at.line : undefined;
  const subject = useMemo(() => (index ? subjectAt(index, safeStep, main.memory) : undefined), [index, safeStep, main.memory]);
  const tree = useMemo(() => (trace && main.memory >= 0 ? dataflowTree(trace, main.memory) : undefined), [trace, main.memory]);
  const available = builtInViewsOf(main.memory, tree);
  const [chosen, setChosen] = useState<BuiltInViewId | undefined>();
  // A kernel with a block's shared memory opens on it (where its atomics and trees happen).
  const stage: BuiltInViewId = chosen && available.includes(chosen) ? chosen : main.memory >= 0 ? 'shared-memory' : 'warp-grid';
  // The narration names the CUDA line, as the code pane marks it.
  const description = index ? narrate(index, safeStep, (line, column) => map?.toCuda(line, column)?.line) : t('step.none');
  const editor = useRef<KernelEditorHandle>(null);
  const stageId = useId();

  const body =
    trace && index ? (
      <BuiltInView view={stage} frame="boundary" slot={main} step={safeStep} focus={{ warp: focusWarp, lane: focusLane, set: (w, l) => session.getState().setFocus(w, l) }} onWorkgroup={onWorkgroup} treeTitle={uiText('tree.reduction')} marks={{ subject }} workgroupCount={alone ? 1 : undefined} />
    ) : (
      <p className="hint stage-empty">{t('stage.empty')}</p>
    );

  const status = main.status;
  return (
    <>
      {status.state === 'running' && (
        <p role="status" className="hint" data-testid="replay-progress">
          {t('lab.simulating', { percent: Math.round(status.progress * 100) })}{' '}
          <button type="button" onClick={() => session.getState().cancel('primary')}>
            {t('lab.cancel')}
          </button>
        </p>
      )}
      {status.state === 'error' && (
        <p className="banner banner-error" role="alert">
          {t('lab.failed', { message: status.message })}
        </p>
      )}
      {status.state === 'cancelled' && <p className="banner banner-warning">{t('lab.cancelled')}</p>}
      {main.buildError && (
        <p className="banner banner-error" role="alert">
          {t('lab.cannotRun', { message: main.buildError })}
        </p>
      )}
      <div className="program-replay-main">
        <section className="panel program-replay-code" aria-label={m('replayCode')}>
          <p className="code-position" data-testid="replay-position">
            {view ? (cudaLine !== undefined ? m('replayLine', { line: cudaLine }) : m('replayNoLine')) : ''}
          </p>
          <div className="code-scroll" data-testid="replay-code">
            <KernelEditor
              key={source.cuda}
              readOnly
              language="cuda"
              testId="replay-editor"
              wrap
              initial={source.cuda}
              label={m('replayCodeLabel', { file: source.fileName })}
              currentLine={cudaLine}
              found={[]}
              lint={noLint}
              onChange={ignore}
              onRun={ignore}
              editorRef={editor}
            />
          </div>
        </section>
        <section className="panel program-replay-stage" aria-labelledby={stageId} data-testid="replay-stage" data-panel={stage} data-ready={trace && index ? 'yes' : 'no'}>
          <h3 id={stageId} className="sr-only">
            {t('stage.label')}: {t(`stage.panel.${stage}`)}
          </h3>
          <div className="tabs" role="tablist" aria-label={t('stage.choose')}>
            {available.map((id) => (
              <button key={id} type="button" role="tab" aria-selected={id === stage} onClick={() => setChosen(id)} data-testid={`replay-tab-${id}`}>
                {t(`stage.panel.${id}`)}
              </button>
            ))}
          </div>
          <StageCamera frameKey={`${stage} ${safeStep} ${trace ? 1 : 0}`} label={t(`stage.panel.${stage}`)}>
            {body}
          </StageCamera>
        </section>
        <aside className="panel program-replay-side" aria-label={t('side.narration')}>
          <h3>{t('side.narration')}</h3>
          <p className="step-now" aria-live={playing ? 'off' : 'polite'} data-testid="replay-narration">
            {description}
          </p>
        </aside>
      </div>
      <PanelBoundary id="timeline" title={uiText('panel.timeline')}>
        <TimelineBar step={safeStep} stepCount={trace?.stepCount ?? 0} playing={playing} speedIndex={speedIndex} describe={description} actions={actions} index={index} levels={undefined} />
      </PanelBoundary>
    </>
  );
}

/**
 * The replay section under the launches: what is replayed, in words; for a launch the simulator
 * took long over, first an offer (its estimated time, the whole launch anyway, or one block the
 * learner picks); then the replay.
 */
export function ProgramReplay({ launch, source, onClose }: ReplayProps) {
  const offer = replayOffer(launch);
  const blocks = blocksOf(launch);
  const [choice, setChoice] = useState<'whole' | 'block' | undefined>(offer ? undefined : 'whole');
  const [block, setBlock] = useState(0);
  const [picked, setPicked] = useState('0');
  const headingId = useId();
  const blockId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [launch]);

  const pickBlock = (text: string): void => {
    setPicked(text);
    const n = Number(text);
    if (Number.isInteger(n) && n >= 0 && n < blocks) setBlock(n);
  };
  const pickedOk = Number.isInteger(Number(picked)) && Number(picked) >= 0 && Number(picked) < blocks && picked.trim() !== '';
  const threads = launch.block.x * launch.block.y * launch.block.z;

  return (
    <section className="program-replay" aria-labelledby={headingId} data-testid="program-replay">
      <div className="program-replay-head">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          {m('replayTitle', { n: launch.index + 1, kernel: launch.kernel, grid: dim(launch.grid), block: dim(launch.block), line: launch.line })}
        </h2>
        <button type="button" onClick={onClose} data-testid="replay-close">
          {m('replayClose')}
        </button>
      </div>
      {offer && (
        <div className="banner banner-warning program-replay-offer" role="group" aria-label={m('replayOfferLabel')} data-testid="replay-offer">
          <p>{m('replaySlow', { blocks: formatInteger(blocks), seconds: offer.seconds })}</p>
          <div className="program-toolbar">
            <label htmlFor={blockId}>{m('replayBlockLabel', { last: blocks - 1 })}</label>
            <input id={blockId} type="number" min={0} max={blocks - 1} step={1} value={picked} onChange={(e) => pickBlock(e.target.value)} aria-invalid={!pickedOk} data-testid="replay-block" />
            <button type="button" className="primary" onClick={() => setChoice('block')} disabled={!pickedOk}>
              {m('replayOneBlock')}
            </button>
            <button type="button" onClick={() => setChoice('whole')}>
              {m('replayWhole', { seconds: offer.seconds })}
            </button>
          </div>
          {!pickedOk && <p role="alert">{m('replayBlockBad', { last: blocks - 1 })}</p>}
        </div>
      )}
      {choice && (
        <>
          <p className="hint" data-testid="replay-what">
            {choice === 'block'
              ? m('replayWhatBlock', { block, blocks: formatInteger(blocks), threads: formatInteger(threads) })
              : m('replayWhatWhole', { blocks: formatInteger(blocks), threads: formatInteger(threads), block })}
          </p>
          <Replayed key={`${choice} ${choice === 'block' ? block : ''}`} launch={launch} source={source} alone={choice === 'block'} workgroup={block} onWorkgroup={(g) => (pickBlock(String(g)), setBlock(g))} />
        </>
      )}
    </section>
  );
}
