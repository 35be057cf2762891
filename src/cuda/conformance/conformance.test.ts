/**
 * The CUDA conformance suite on the simulator: every case through compileCuda → prepareLaunch →
 * simulate (32-lane warps), compared with the case's expectation; every error case's diagnostic.
 * Known translator failures are listed in known-failures.ts and run as `it.fails`.
 */
import { describe, expect, it } from 'vitest';
import { compileCuda, prepareLaunch } from '../index.ts';
import { simulate } from '../../sim/simulate.ts';
import { CASES, countsBySection } from './cases/index.ts';
import { checkCompileError, checkLaunchError, checkRun, type Case, type FrontEnd } from './harness.ts';
import { KNOWN_FAILURES } from './known-failures.ts';

const FRONT_END: FrontEnd = { compileCuda, prepareLaunch };

async function failuresOf(c: Case): Promise<string[]> {
  if (c.kind === 'compile-error') return checkCompileError(FRONT_END, c);
  if (c.kind === 'launch-error') return checkLaunchError(FRONT_END, c);
  return checkRun(FRONT_END, c, (run) => {
    const r = simulate(run, { warpSize: 32, trace: 'summary' });
    if (r.incomplete || r.diagnostics.length) {
      throw new Error(`simulator: ${r.diagnostics.map((d) => `${d.kind} at WGSL ${d.line}:${d.column}: ${d.message}`).join('; ') || 'incomplete run'}`);
    }
    return r.buffers;
  });
}

describe('CUDA conformance on the simulator', () => {
  for (const c of CASES) {
    const known = KNOWN_FAILURES[c.id]?.sim;
    const test = async () => {
      const failures = await failuresOf(c);
      if (failures.length) throw new Error(`${c.id} (${c.spec}):\n  ${failures.join('\n  ')}`);
    };
    if (known) it.fails(`${c.id} [known failure: ${known}]`, test);
    else it(c.id, test);
  }
});

describe('the suite itself', () => {
  it('has at least 150 cases, with unique ids, in every section', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(150);
    expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
    for (const [section, run, errors] of countsBySection()) expect(run + errors, section).toBeGreaterThan(0);
  });

  it('lists only known failures that are cases', () => {
    const ids = new Set(CASES.map((c) => c.id));
    expect(Object.keys(KNOWN_FAILURES).filter((id) => !ids.has(id))).toEqual([]);
  });
});
