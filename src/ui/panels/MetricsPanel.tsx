import { memo } from 'react';
import type { Metrics } from '../../sim/index.ts';
import { formatFixed, formatInteger } from '../../i18n/numbers.ts';
import { opKindName, ui, type UiKey } from '../../i18n/ui.ts';
import { useLocale } from '../../i18n/useLocale.ts';
import { ColumnHeads } from '../widgets/ColumnHeads.tsx';

export interface StepFacts {
  readonly kind: string;
  readonly activeLanes: number;
  readonly warpSize: number;
  readonly wavefronts: number;
  readonly sectors: number;
  /** Bytes per sector in the trace's hardware model. */
  readonly sectorBytes: number;
}

interface MetricRow {
  /** The metric's name in the catalog (ui.ts). */
  readonly name: UiKey;
  /** The name Nsight Compute or nvprof users know. */
  readonly profilerName: string;
  readonly value: (m: Metrics, warps: number) => number;
  readonly format: (v: number) => string;
  /** Lower is better (for the compare column's arrow). */
  readonly lowerIsBetter: boolean;
}

const pct = (v: number) => `${formatFixed(100 * v, 1)} %`;
const num = (v: number) => (Number.isInteger(v) ? formatInteger(v) : formatFixed(v, 2));

export const METRIC_ROWS: readonly MetricRow[] = [
  { name: 'metric.warpEfficiency', profilerName: 'warp_execution_efficiency', value: (m) => m.warpExecutionEfficiency, format: pct, lowerIsBetter: false },
  { name: 'metric.divergentBranches', profilerName: 'divergent_branch', value: (m) => m.divergentBranches, format: num, lowerIsBetter: true },
  { name: 'metric.instPerWarp', profilerName: 'inst_per_warp', value: (m, w) => m.warpInstructions / Math.max(1, w), format: num, lowerIsBetter: true },
  { name: 'metric.warpInstructions', profilerName: 'inst_executed', value: (m) => m.warpInstructions, format: num, lowerIsBetter: true },
  { name: 'metric.sharedRequests', profilerName: 'shared_load + shared_store requests', value: (m) => m.sharedRequests, format: num, lowerIsBetter: true },
  { name: 'metric.bankConflicts', profilerName: 'shared_ld/st_bank_conflict', value: (m) => m.sharedBankConflicts, format: num, lowerIsBetter: true },
  { name: 'metric.transactionsPerRequest', profilerName: 'gld/gst_transactions_per_request', value: (m) => m.globalTransactions / Math.max(1, m.globalRequests), format: num, lowerIsBetter: true },
  { name: 'metric.barriers', profilerName: 'barriers (__syncthreads)', value: (m) => m.barriers, format: num, lowerIsBetter: true },
  { name: 'metric.atomics', profilerName: 'atom_count', value: (m) => m.atomics, format: num, lowerIsBetter: true },
];

interface Props {
  readonly metrics: Metrics;
  readonly warps: number;
  readonly step: StepFacts | undefined;
  /** In compare mode: the other variant's totals and name. */
  readonly other?: { readonly title: string; readonly metrics: Metrics; readonly warps: number } | undefined;
  readonly title: string;
  /** Lanes per warp of the simulation. */
  readonly warpSize: number;
  /** Rows the lab adds beyond the generic ones (`LabModule.metrics`). */
  readonly extra?: readonly { readonly id?: string; readonly label: string; readonly value: string; readonly hint?: string }[] | undefined;
}

/** Totals of the simulated dispatch, named as profilers name them, and the facts of the current step. */
export const MetricsPanel = memo(function MetricsPanel({ metrics, warps, step, other, title, warpSize, extra }: Props) {
  useLocale();
  return (
    <section className="panel metrics" aria-labelledby="metrics-title" data-testid="metrics">
      <h2 id="metrics-title">{ui('metrics.title')}</h2>
      {step && (
        <p className="summary-line" data-testid="step-facts">
          {ui('metrics.thisStep')} <strong>{opKindName(step.kind)}</strong>
          {ui('metrics.active', { active: step.activeLanes, size: step.warpSize })}
          {step.wavefronts > 0 && ` · ${step.wavefronts === 1 ? ui('metrics.noConflict') : ui('metrics.conflict', { n: step.wavefronts })}`}
          {step.sectors > 0 && ` · ${ui('metrics.sectors', { n: step.sectors, bytes: step.sectorBytes, lanes: step.activeLanes })}`}
        </p>
      )}
      <table className="data-table">
        <caption>{ui('metrics.caption', { warpSize })}</caption>
        <ColumnHeads
          labels={[
            ui('metrics.metric'),
            other ? title : ui('metrics.value'),
            other && other.title,
            other && ui('metrics.difference'),
          ]}
        />
        <tbody>
          {METRIC_ROWS.map((row) => {
            const a = row.value(metrics, warps);
            const b = other ? row.value(other.metrics, other.warps) : undefined;
            const better = b === undefined || a === b ? undefined : row.lowerIsBetter ? a < b : a > b;
            return (
              <tr key={row.profilerName}>
                <th scope="row">
                  {ui(row.name)}
                  <span className="profiler-name">{row.profilerName}</span>
                </th>
                <td data-metric={row.profilerName}>{row.format(a)}</td>
                {b !== undefined && <td>{row.format(b)}</td>}
                {b !== undefined && (
                  <td>
                    {a === b ? ui('metrics.same') : `${better ? ui('metrics.better') : ui('metrics.worse')} (${a > b ? '+' : '−'}${row.format(Math.abs(a - b))})`}
                  </td>
                )}
              </tr>
            );
          })}
          {extra?.map((row) => (
            <tr key={row.label}>
              <th scope="row">
                {row.label}
                {row.hint && <span className="profiler-name">{row.hint}</span>}
              </th>
              <td data-metric={row.label}>{row.value}</td>
              {other && <td />}
              {other && <td />}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
});

/**
 * The few figures a lesson step's question needs, beside the stage (not in the drawer): the
 * metric rows named by profiler name (`divergent_branch`) or a lab row by its label, or all.
 */
/**
 * The figures a lesson step's question needs, under the stage: metric rows by profiler name, a
 * lab's rows by id (or label), and `sectors` (the current step's sectors, from the step facts).
 */
export const MetricFigures = memo(function MetricFigures({ metrics, warps, names, extra, step }: { metrics: Metrics; warps: number; names: readonly string[] | 'all'; extra?: Props['extra']; step?: StepFacts | undefined }) {
  useLocale();
  const wanted = (key: string) => names === 'all' || names.includes(key);
  return (
    <dl className="stage-figures" data-testid="stage-figures" aria-label={ui('metrics.title')}>
      {names !== 'all' && names.includes('sectors') && step && (
        <div>
          <dt>{ui('metrics.thisStep')}</dt>
          <dd data-metric="sectors">{ui('metrics.sectors', { n: step.sectors, bytes: step.sectorBytes, lanes: step.activeLanes })}</dd>
        </div>
      )}
      {METRIC_ROWS.filter((r) => wanted(r.profilerName)).map((row) => (
        <div key={row.profilerName}>
          <dt>{ui(row.name)}</dt>
          <dd data-metric={row.profilerName}>{row.format(row.value(metrics, warps))}</dd>
        </div>
      ))}
      {extra
        ?.filter((r) => wanted(r.id ?? r.label) || wanted(r.label))
        .map((row) => (
          <div key={row.label}>
            <dt>{row.label}</dt>
            <dd data-metric={row.label}>{row.value}</dd>
          </div>
        ))}
    </dl>
  );
});
