/**
 * Each lab's best variant beside its peer (a library doing the same job), as the latest recorded
 * run on the GPU host measured them, so `npm run bench` can print the ratio without a reader
 * opening docs/benchmarks.md. Figures come from the raw outputs named in `source` (under
 * docs/runs/); update an entry when a newer run replaces it. A peer figure never comes from this
 * process: the peers (PyTorch, CUB, cuBLAS, cuSPARSE, cuDNN) run in CUDA, beside the bench.
 */
import { fmt, table } from './format.ts';

export interface RecordedPeer {
  /** The lab's id (src/labs/<id>/). */
  readonly lab: string;
  /** The problem, as a reader of the bench names it. */
  readonly problem: string;
  /** Our best variant there, as the lab's variant list names it. */
  readonly ours: string;
  readonly oursMs: number;
  readonly peer: string;
  readonly peerMs: number;
  /** Machine, driver and date of the run. */
  readonly run: string;
  /** Raw outputs under docs/runs/: ours, then the peer's. */
  readonly source: string;
  /** For the scan and the reduction: the BestFigure this bench records for the same problem. */
  readonly live?: { readonly op: 'reduce' | 'scan'; readonly n: number; readonly type: 'u32' | 'f32' };
}

const H100_1122 = 'H100 80GB HBM3, Vulkan, driver 580.159.04, 2026-11-22';
const H100_1127 = 'H100 80GB HBM3, Vulkan, driver 580.159.04, 2026-11-27';
const H100_1128 = 'H100 80GB HBM3, Vulkan, driver 580.159.04, 2026-11-27, 23:50 UTC';
const SPMV_1128 = '2026-11-28-h100-spmv-powerlaw-ablation-candidates-cusparse-int32';

export const RECORDED_PEERS: readonly RecordedPeer[] = [
  { lab: 'reduce', problem: 'sum of 2^28 u32', ours: 'one pass, vec4', oursMs: 0.3429, peer: 'torch.sum (int32)', peerMs: 0.3584, run: H100_1122, source: '2026-11-22-h100-bench-final2-b.txt, 2026-11-22-h100-peers-final2.txt', live: { op: 'reduce', n: 2 ** 28, type: 'u32' } },
  { lab: 'scan', problem: 'inclusive scan of 2^26 u32', ours: 'single pass, warp totals scanned by one warp, 1024', oursMs: 0.2265, peer: 'torch.cumsum (int32, CUB)', peerMs: 0.2663, run: H100_1127, source: '2026-11-27-h100-scan-workers-2p26-a.txt, 2026-11-27-h100-torch-peers-scan-workers-call.txt', live: { op: 'scan', n: 2 ** 26, type: 'u32' } },
  { lab: 'scan', problem: 'inclusive scan of 2^28 u32', ours: 'single pass, warp totals scanned by one warp, 1024', oursMs: 0.8801, peer: 'torch.cumsum (int32, CUB)', peerMs: 1.0463, run: H100_1127, source: '2026-11-27-h100-scan-workers-2p28-a.txt, 2026-11-27-h100-torch-peers-scan-workers-call.txt', live: { op: 'scan', n: 2 ** 28, type: 'u32' } },
  { lab: 'scan', problem: 'inclusive scan of 2^26 f32', ours: 'single pass, warp totals scanned by one warp, 1024', oursMs: 0.2353, peer: 'torch.cumsum (float32, CUB)', peerMs: 0.2679, run: H100_1127, source: '2026-11-27-h100-scan-workers-2p26-a.txt, 2026-11-27-h100-torch-peers-scan-workers-call.txt', live: { op: 'scan', n: 2 ** 26, type: 'f32' } },
  { lab: 'scan', problem: 'inclusive scan of 2^28 f32', ours: 'single pass, warp totals scanned by one warp, 1024', oursMs: 0.9209, peer: 'torch.cumsum (float32, CUB)', peerMs: 1.0472, run: H100_1127, source: '2026-11-27-h100-scan-workers-2p28-a.txt, 2026-11-27-h100-torch-peers-scan-workers-call.txt', live: { op: 'scan', n: 2 ** 28, type: 'f32' } },
  { lab: 'histogram', problem: '2^28 uniform bytes into 256 bins', ours: 'batched', oursMs: 0.1008, peer: 'CUB HistogramEven', peerMs: 0.1398, run: H100_1122, source: '2026-11-22-h100-session5-call8-histogram-bench.txt, 2026-11-22-h100-session5-call4-histogram-cub-peers.txt' },
  { lab: 'convolution', problem: '8192² f32, 5 × 5 filter', ours: 'tiled, vec4', oursMs: 0.259, peer: 'torch conv2d (cuDNN, TF32 off)', peerMs: 7.544, run: H100_1122, source: '2026-11-22-h100-labs-bench-histogram-convolution.txt, 2026-11-22-h100-labs-peers-histconv.txt' },
  { lab: 'matmul', problem: 'f32 4096³', ours: 'tile-16x8 (16 × 8 per invocation)', oursMs: 3.3127, peer: 'cuBLAS SGEMM (torch.matmul, TF32 off)', peerMs: 2.6714, run: H100_1127, source: '2026-11-27-h100-matmul-tuning-round3-a.txt, 2026-11-27-h100-matmul-cublas-round3-a-b.txt' },
  { lab: 'matmul', problem: 'f32 1024³', ours: 'vec4-2d (2-D register tile)', oursMs: 0.0906, peer: 'cuBLAS SGEMM (torch.matmul, TF32 off)', peerMs: 0.0565, run: H100_1127, source: '2026-11-27-h100-matmul-tuning-round3-a.txt, 2026-11-27-h100-matmul-cublas-round3-a-b.txt' },
  { lab: 'merge', problem: 'two sorted 2^25 u32 arrays', ours: 'wide', oursMs: 0.2716, peer: 'CUB DeviceMerge::MergeKeys', peerMs: 0.2125, run: H100_1127, source: '2026-11-28-h100-merge-sampled-partition-walk-dawn-flags/webgpu-sampled-and-walk-runs-a-b.txt, 2026-11-28-h100-merge-sampled-partition-walk-dawn-flags/cub-and-cuda-twin-round4.txt' },
  { lab: 'topk', problem: 'k = 20 of 2^26 i32', ours: 'radix-ahead', oursMs: 0.1117, peer: 'torch.topk', peerMs: 1.331, run: H100_1127, source: '2026-11-27-h100-topk-experiments-pick-a.txt, 2026-11-27-h100-topk-torch-peers-pick-call.txt' },
  // The lab's `sell` picks these options itself (sellOptions): the kernel and matrices the bench times
  // (ours: the slower of two timings of the lab's kernel in one process, uniform run a, power law the
  // ablation's unedited row; cuSPARSE: the first of its two runs in the same call, int64 indices as
  // torch builds them; with int32 indices it ran 0.6148 and 0.5929 ms, see docs/benchmarks.md).
  { lab: 'spmv', problem: '2^22 rows × 16 nonzeros, uniform', ours: 'sell (sliced ELL: pieces of 32, windows of 4096, 8 a step)', oursMs: 0.6235, peer: 'torch CSR @ x (cuSPARSE)', peerMs: 0.6464, run: H100_1128, source: `${SPMV_1128}/spmv-sell.txt, ${SPMV_1128}/cusparse-before.txt` },
  { lab: 'spmv', problem: '2^22 rows, power-law lengths', ours: 'sell (sliced ELL: pieces of 128, windows of 16384, 8 a step)', oursMs: 0.6412, peer: 'torch CSR @ x (cuSPARSE)', peerMs: 0.625, run: H100_1128, source: `${SPMV_1128}/spmv-sell.txt, ${SPMV_1128}/cusparse-before.txt` },
];

/** "1.23× faster" or "0.83× its speed": the peer's time over ours. */
export function speedText(oursMs: number, peerMs: number): string {
  const s = peerMs / oursMs;
  return s >= 1 ? `${fmt(s, 2)}× faster` : `${fmt(s, 2)}× its speed`;
}

/**
 * The table `npm run bench` prints: every recorded pair of the labs in `labs`, with our time in
 * this process beside it where the bench measured the same problem (`live(entry)` returns it).
 */
export function recordedPeerTable(labs: ReadonlySet<string>, live: (e: RecordedPeer) => number | undefined = () => undefined): string {
  const rows = RECORDED_PEERS.filter((e) => labs.has(e.lab)).map((e) => {
    const now = live(e);
    return [
      e.lab,
      e.problem,
      e.ours,
      fmt(e.oursMs, 4),
      e.peer,
      fmt(e.peerMs, 4),
      speedText(e.oursMs, e.peerMs),
      now === undefined ? '—' : `${fmt(now, 4)} (${speedText(now, e.peerMs)})`,
      e.run,
      e.source,
    ];
  });
  return table(['lab', 'problem', 'our best variant', 'ours ms', 'peer', 'peer ms', 'ours vs peer', 'ours ms here', 'recorded on', 'docs/runs/'], rows);
}
