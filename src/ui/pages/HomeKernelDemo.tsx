import { useEffect, useId, useMemo, useState } from 'react';
import { client } from '../../workbench/simulation.ts';
import { labRoute } from '../../workbench/url.ts';
import { t } from '../../i18n/messages.ts';
import { loadHomeHero } from '../../labs/catalog.ts';
import { traceStep, type Trace } from '../../sim/index.ts';
import { indexTrace, LaneState, lineOf, warpsAt, type TraceIndex } from '../../trace/index.ts';
import { dataflowTree, mainSharedMemory, sharedContentsAt, type DataflowTree } from '../../trace/memory.ts';
import { Link } from '../shell/Link.tsx';
import { usePrefersReducedMotion } from '../widgets/motion.ts';

type Hero = Awaited<ReturnType<typeof loadHomeHero>>;

interface Ready {
  readonly hero: Hero;
  readonly trace: Trace;
  readonly index: TraceIndex;
  readonly memory: number;
  readonly tree: DataflowTree;
  readonly listing: { from: number; to: number; lines: readonly string[] };
}

type Loaded = { state: 'loading' } | { state: 'error'; message: string } | ({ state: 'ready' } & Ready);

/** One pass of the picture takes about this long; the last step then stays up for HOLD_MS. */
const PASS_MS = 9000;
const HOLD_MS = 2500;

const CELL = 20;
const GAP = 2;
const LABEL = 64;
const LANES = 32;

/** The interleaved reduction's simulation, started once the demo mounts (in the simulator's worker). */
function useHeroTrace(): Loaded {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let alive = true;
    let cancel: (() => void) | undefined;
    loadHomeHero()
      .then((hero) => {
        if (!alive) return;
        const run = hero.heroRun();
        const job = client('hero').simulate(run, { warpSize: LANES, trace: 'full', traceWorkgroups: [0] });
        cancel = () => job.cancel();
        return job.promise.then((result) => {
          if (!alive) return;
          const trace = result.trace;
          if (!trace) throw new Error(t('hero.noTrace'));
          const memory = mainSharedMemory(trace);
          setLoaded({
            state: 'ready',
            hero,
            trace,
            index: indexTrace(trace),
            memory,
            tree: dataflowTree(trace, memory),
            listing: hero.heroLines(run.code),
          });
        });
      })
      .catch((e: unknown) => {
        if (alive) setLoaded({ state: 'error', message: e instanceof Error ? e.message : String(e) });
      });
    return () => {
      alive = false;
      cancel?.();
    };
  }, []);
  return loaded;
}

/**
 * The start page's moving picture: a real kernel (the reduction lab's interleaved tree over 64
 * numbers) simulated in the browser and played back step by step: the lanes of both warps as they
 * run, sit masked or wait at the barrier, the 64 words of workgroup memory with their values, the
 * additions of the current step drawn from the words they read, and the source line that runs.
 * Under reduced motion it shows the finished reduction and plays only when asked.
 */
export default function HomeKernelDemo() {
  const loaded = useHeroTrace();
  const reduced = usePrefersReducedMotion();
  const [playing, setPlaying] = useState<boolean | undefined>(undefined);
  const [tick, setTick] = useState(0);
  const captionId = useId();
  const isPlaying = playing ?? !reduced;
  const steps = loaded.state === 'ready' ? loaded.trace.stepCount : 0;
  const interval = steps > 0 ? Math.max(16, PASS_MS / steps) : 100;
  const holdTicks = Math.ceil(HOLD_MS / interval);

  useEffect(() => {
    if (!isPlaying || steps === 0) return;
    const timer = setInterval(() => setTick((k) => (k + 1) % (steps + holdTicks)), interval);
    return () => clearInterval(timer);
  }, [isPlaying, steps, holdTicks, interval]);

  // Not yet played (reduced motion): the finished reduction. Otherwise the step the clock is at.
  const step = steps === 0 ? 0 : playing === undefined && reduced ? steps - 1 : Math.min(tick, steps - 1);

  return (
    <figure className="home-demo" data-testid="home-demo" aria-describedby={captionId}>
      {loaded.state === 'loading' && <p className="hint">{t('hero.loading')}</p>}
      {loaded.state === 'error' && (
        <p role="alert" data-testid="home-demo-error">
          {t('hero.failed', { message: loaded.message })}
        </p>
      )}
      {loaded.state === 'ready' && <HeroPicture ready={loaded} step={step} />}
      <ul className="home-demo-legend" aria-label={t('hero.lanes')}>
        <li>
          <svg width={CELL} height={CELL} viewBox={`0 0 ${CELL} ${CELL}`} aria-hidden="true">
            {laneShape(LaneState.Active, 1, 1, 'a')}
          </svg>
          {t('hero.legendActive')}
        </li>
        <li>
          <svg width={CELL} height={CELL} viewBox={`0 0 ${CELL} ${CELL}`} aria-hidden="true">
            {laneShape(LaneState.Masked, 1, 1, 'm')}
          </svg>
          {t('hero.legendMasked')}
        </li>
        <li>
          <svg width={CELL} height={CELL} viewBox={`0 0 ${CELL} ${CELL}`} aria-hidden="true">
            {laneShape(LaneState.Waiting, 1, 1, 'w')}
          </svg>
          {t('hero.legendWaiting')}
        </li>
        <li>
          <svg width={CELL + 8} height={CELL} viewBox={`0 0 ${CELL + 8} ${CELL}`} aria-hidden="true">
            <path d={`M3,${CELL - 2} C3,2 ${CELL + 5},2 ${CELL + 5},${CELL - 2}`} className="hd-add" />
          </svg>
          {t('hero.legendAdd')}
        </li>
      </ul>
      <figcaption id={captionId} className="home-demo-caption">
        <span>{loaded.state === 'ready' ? describe(loaded, step) : t('hero.what')}</span>
        <span className="home-demo-controls">
          <button
            type="button"
            data-testid="home-demo-play"
            aria-pressed={isPlaying}
            disabled={loaded.state !== 'ready'}
            onClick={() => setPlaying(!isPlaying)}
          >
            {isPlaying ? t('hero.pause') : t('hero.play')}
          </button>
          {loaded.state === 'ready' && (
            <Link
              to={labRoute(loaded.hero.HERO_LAB.lab, {
                variant: loaded.hero.HERO_LAB.variant,
                params: loaded.hero.HERO_LAB.params,
              })}
            >
              {t('hero.open')}
            </Link>
          )}
        </span>
      </figcaption>
    </figure>
  );
}

function describe(ready: Ready, step: number): string {
  const view = traceStep(ready.trace, step);
  return t('hero.step', { step: step + 1, steps: ready.trace.stepCount, warp: view.warp, line: view.line, active: view.activeCount, lanes: LANES });
}

function laneShape(state: number, x: number, y: number, key: string) {
  const s = CELL - 2;
  switch (state as LaneState) {
    case LaneState.Active:
      return <rect key={key} x={x} y={y} width={s} height={s} rx={3} className="hd-lane hd-active" />;
    case LaneState.Masked:
      // Hollow: the lane is in a warp that runs, but this instruction is not for it.
      return (
        <rect
          key={key}
          x={x + 2}
          y={y + 2}
          width={s - 4}
          height={s - 4}
          rx={2}
          className="hd-lane hd-masked"
        />
      );
    case LaneState.Waiting:
      // Two bars: waiting at the barrier.
      return (
        <g key={key} className="hd-lane hd-waiting">
          <rect x={x + 4} y={y + 2} width={3} height={s - 4} />
          <rect x={x + s - 7} y={y + 2} width={3} height={s - 4} />
        </g>
      );
    case LaneState.Exited:
      return (
        <line key={key} x1={x + 3} y1={y + s - 3} x2={x + s - 3} y2={y + 3} className="hd-lane hd-exited" />
      );
    default:
      return <circle key={key} cx={x + s / 2} cy={y + s / 2} r={2} className="hd-lane hd-idle" />;
  }
}

function HeroPicture({ ready, step }: { ready: Ready; step: number }) {
  const { trace, index, memory, tree, listing } = ready;
  const warps = useMemo(() => warpsAt(index, step), [index, step]);
  const { values, written } = useMemo(() => sharedContentsAt(trace, memory, step), [trace, memory, step]);
  const words = values.length;
  const rows = Math.ceil(words / LANES);
  const current = trace.stepWarp[step]!;
  const line = lineOf(trace, step);
  // The additions of this step: each write of workgroup memory, from the words it read.
  const adds = useMemo(() => tree.nodes.filter((n) => n.step === step && n.sources.length > 0), [tree, step]);
  const fresh = new Set(adds.map((n) => n.addr));
  const width = LABEL + LANES * (CELL + GAP) + 8;
  const laneTop = 26;
  const memTop = laneTop + warps.length * (CELL + 6) + 34;
  const height = memTop + rows * (CELL + 16) + 6;
  const wordX = (addr: number) => LABEL + (addr % LANES) * (CELL + GAP);
  const wordY = (addr: number) => memTop + Math.floor(addr / LANES) * (CELL + 16);
  return (
    <div className="home-demo-body">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={t('hero.pictureLabel')}
        data-testid="home-demo-picture"
        data-step={step}
      >
        <text x={0} y={14} className="hd-head">
          {t('hero.lanes')}
        </text>
        {warps.map((w, row) => {
          const y = laneTop + row * (CELL + 6);
          return (
            <g key={w.id} data-warp={w.id}>
              <text x={0} y={y + CELL - 6} className={w.id === current ? 'hd-label hd-current' : 'hd-label'}>
                {w.id === current ? '▶ ' : ''}
                {t('hero.warp', { warp: w.id })}
              </text>
              {Array.from(w.lanes, (state, lane) =>
                laneShape(state, LABEL + lane * (CELL + GAP), y, `${w.id}-${lane}`),
              )}
            </g>
          );
        })}
        <text x={0} y={memTop - 12} className="hd-head">
          {t('hero.memory', { words })}
        </text>
        {Array.from(values, (v, addr) => (
          <g key={addr} className={fresh.has(addr) ? 'hd-word hd-fresh' : 'hd-word'} data-word={addr}>
            <rect x={wordX(addr)} y={wordY(addr)} width={CELL} height={CELL} rx={2} />
            <text x={wordX(addr) + CELL / 2} y={wordY(addr) + CELL / 2 + 4} textAnchor="middle">
              {written[addr] ? v : ''}
            </text>
          </g>
        ))}
        {adds.flatMap((n) =>
          n.sources
            .map((s) => tree.nodes[s]!.addr)
            .filter((a) => a !== n.addr)
            .map((from) => {
              const x1 = wordX(from) + CELL / 2;
              const y1 = wordY(from);
              const x2 = wordX(n.addr) + CELL / 2;
              const y2 = wordY(n.addr);
              const lift = 14 + Math.min(40, Math.abs(x2 - x1) / 6);
              return (
                <path
                  key={`${n.record}-${from}`}
                  d={`M${x1},${y1} C${x1},${y1 - lift} ${x2},${y2 - lift} ${x2},${y2}`}
                  className="hd-add"
                />
              );
            }),
        )}
      </svg>
      <pre className="home-demo-code" aria-label={t('hero.codeLabel')}>
        {listing.lines.map((text, k) => {
          const n = listing.from + k;
          const here = n === line;
          return (
            <span
              key={n}
              className={here ? 'hd-line hd-here' : 'hd-line'}
              aria-current={here ? 'step' : undefined}
            >
              {here ? '▶' : ' '} {String(n).padStart(2, ' ')} {text}
            </span>
          );
        })}
      </pre>
    </div>
  );
}
