import { activeLanesNow, type Lesson, type MomentState } from '../types.ts';
import { atomicLaneOps, iterationStrip, sectorsPerRequest, stripTotals } from '../../labs/spmv/trace.ts';

const seed = { kind: 'seed', rows: 4, workgroupSize: 128 } as const;
const uniform = { kind: 'uniform', rows: 256, workgroupSize: 128 } as const;
const powerlaw = { kind: 'powerlaw', rows: 256, workgroupSize: 128 } as const;

/** Idle lanes, among those with work, of the current warp at the current gather of x. */
function idleNow(s: MomentState): number {
  const it = iterationStrip(s.trace, s.trace.stepWarp[s.step]!).find((i) => i.step === s.step);
  return it ? it.idle : 0;
}

/** Sectors per request of the loads of the value array over the traced workgroup, rounded. */
const valueSectors = (s: MomentState) => Math.round(sectorsPerRequest(s.trace, 'values').perRequest);

/** Sparse matrix–vector products from the course seed: one matrix in five formats, warp by warp. */
export const spmvLesson: Lesson = {
  id: 'spmv',
  courseOrder: 4.5,
  title: 'Sparse matrix times vector: one matrix, five formats',
  summary: 'Multiply a sparse matrix by a vector in CSR, ELL, COO, a hybrid and JDS, and watch which lanes of a warp work, which idle, and how many sectors each load costs.',
  steps: [
    {
      title: 'CSR: one lane per row',
      lab: 'spmv',
      variant: 'csr-scalar',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      narrative:
        'The seed’s 4 × 4 matrix holds seven nonzeros. CSR keeps them in row order (values, col_index) with row_ptr marking where each row starts. Lane r sums row r: here the lanes read their first nonzero and gather the x entry its column names. Row 1 is empty, so lane 1 never enters the loop.',
      lookAt: 'the lane numbers written into the dense matrix, the CSR arrays and x',
      highlight: { code: ['sum += values[j] * x[col_index[j]];'] },
      question: {
        prompt: 'How many lanes gather an entry of x in this first iteration?',
        answer: activeLanesNow,
        explain: (s, given) => `Rows 0, 2 and 3 have nonzeros, row 1 none: ${activeLanesNow(s)} lanes gather, not ${given}.`,
      },
    },
    {
      title: 'A warp waits for its longest row',
      lab: 'spmv',
      variant: 'csr-scalar',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'last' },
      narrative:
        'Row 2 has three nonzeros, rows 0 and 3 two. In the third iteration only lane 2 still works; the lanes of the other rows are masked off and wait. The strip shows it iteration by iteration: lanes with short or empty rows idle for as long as the warp’s longest row lasts.',
      lookAt: 'the per-iteration strip of warp 0',
      question: {
        prompt: 'Of the four lanes with a row, how many are idle in this iteration?',
        answer: idleNow,
        explain: (s) => `Only row 2 reaches a third nonzero, so ${idleNow(s)} of the four lanes idle (the strip’s hollow squares).`,
      },
    },
    {
      title: 'ELL: padded, column-major, no divergence',
      lab: 'spmv',
      variant: 'ell',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      narrative:
        'ELL pads every row to the longest, 3 slots, and stores slot 0 of all rows, then slot 1, then slot 2. Every lane now loops 3 times: no lane idles, but the padding slots (hatched) are loaded and multiplied by 0 all the same. ELL fill is stored slots ÷ nonzeros: 12 ÷ 7 here.',
      lookAt: 'the ELL arrays: neighbouring lanes on neighbouring words, the padding hatched',
      highlight: { code: ['let k = i * params.rows + row;'] },
      question: {
        prompt: 'How many lanes gather x in each ELL iteration, padding included?',
        answer: activeLanesNow,
        explain: (s) => `All ${activeLanesNow(s)} lanes with a row: row 1 gathers x[0] for its padding slot and adds 0.`,
      },
    },
    {
      title: 'Coalescing: one request, few sectors',
      lab: 'spmv',
      variant: 'ell',
      params: uniform,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      narrative:
        'On a 256-row uniform matrix, a warp of ELL lanes reads 32 consecutive words of values at once: 128 bytes, four 32-byte sectors. CSR scalar’s lanes read words a whole row apart, so the same request touches up to one sector per lane. Compare the stage’s sectors per request for values with CSR scalar’s on this matrix.',
      lookAt: 'Sectors per request, values, under the stage',
      question: {
        prompt: 'How many sectors does one ELL load of values touch, on average over the workgroup?',
        answer: valueSectors,
        explain: (s) => `Thirty-two lanes × 4 bytes = 128 bytes = ${valueSectors(s)} sectors, when the lanes read neighbouring words.`,
      },
    },
    {
      title: 'CSR vector: lanes share a row',
      lab: 'spmv',
      variant: 'csr-vector',
      params: uniform,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      narrative:
        'Back to CSR, but now a vector of lanes takes each row: with about 16 nonzeros per row, 16 lanes per row, two rows per 32-lane warp. The lanes of a vector read consecutive nonzeros (coalesced, like ELL, without padding), and a butterfly of subgroupShuffleXor adds their partial sums in registers. A row shorter than 16 leaves some of its lanes idle.',
      lookAt: 'the lane numbers in the values and x arrays: two runs of neighbouring words',
      highlight: { code: ['subgroupShuffleXor(sum, offset)'] },
      question: {
        prompt: 'How many lanes of the warp gather x in this first iteration?',
        answer: activeLanesNow,
        explain: (s) => `${activeLanesNow(s)}: each of the two rows gives min(its length, 16) lanes work.`,
      },
    },
    {
      title: 'COO: atomics, because rows are shared',
      lab: 'spmv',
      variant: 'coo',
      params: seed,
      moment: { kind: 'lab', name: 'atomic', arg: 'first' },
      narrative:
        'COO stores a (row, column, value) triple per nonzero and gives each lane one triple: perfectly balanced. But lanes 0 and 1 both hold row 0, so their products must meet in y[0] atomically. WGSL has no f32 atomic add: each lane reads y’s bits, adds in f32, and writes back with compare-exchange only if nobody changed the word meanwhile; a lane that lost the race tries again. In one warp the lanes of a row are served one after another, so a row held by k lanes costs 1 + 2 + … + k tries.',
      lookAt: 'the COO triples and the atomic count under the stage',
      highlight: { code: ['atomicCompareExchangeWeak'] },
      question: {
        prompt: 'How many compare-exchange tries does the workgroup make in all?',
        answer: (s) => atomicLaneOps(s.trace),
        explain: (s) => `The stage counts ${atomicLaneOps(s.trace)}: rows 0 and 3 have two lanes each (1 + 2 tries), row 2 three (1 + 2 + 3).`,
      },
    },
    {
      title: 'The hybrid: ELL where rows are alike, COO for the tails',
      lab: 'spmv',
      variant: 'hybrid',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'last' },
      narrative:
        'The split width is the largest K that at least a third of the rows reach. Three of the seed’s four rows have 2 or more nonzeros, only one has 3: so K = 2, and row 2’s last nonzero goes to COO, exactly as the seed splits it. Lanes 0–3 sum two ELL slots; lane 4 takes the one COO triple. Before adding into y, the lanes of a subgroup add up neighbours holding the same row (a segmented scan with shuffles), so a long tail costs one atomic per run rather than one per nonzero.',
      lookAt: 'the hybrid’s split line and the lanes of warp 0',
      question: {
        prompt: 'How many gathers of x does warp 0 make in all (ELL iterations and COO)?',
        answer: (s) => iterationStrip(s.trace, 0).length,
        explain: (s) => `The strip lists ${iterationStrip(s.trace, 0).length}: two ELL iterations, then the COO triple.`,
      },
    },
    {
      title: 'JDS: sort the rows so a warp’s rows are alike',
      lab: 'spmv',
      variant: 'jds',
      params: powerlaw,
      moment: { kind: 'lab', name: 'gather', arg: 'idle' },
      narrative:
        'With power-law row lengths, a few rows are very long. JDS sorts the rows longest first and keeps perm to send each sum home, so the rows of one warp have similar lengths and few lanes wait. Compare the idle lane-iterations with CSR scalar on the same matrix.',
      lookAt: 'the per-iteration strip, warp by warp',
      question: {
        prompt: 'How many idle lane-iterations do all warps of the workgroup have together?',
        answer: (s) => stripTotals(s.trace).idle,
        explain: (s) => `Summing the strips: ${stripTotals(s.trace).idle} idle against ${stripTotals(s.trace).active} active lane-iterations.`,
      },
    },
  ],
};
