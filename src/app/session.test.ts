import { describe, expect, it } from 'vitest';
import { createLabSession, type SimulateFn } from './session.ts';
import { findLab } from '../labs/registry.ts';
import { simulate } from '../sim/index.ts';
import { SimCancelled } from '../sim/workerClient.ts';

/** Runs the simulator in-process, as the worker would, and records each job. */
function inProcess() {
  const started: string[] = [];
  const fn: SimulateFn = (channel, run, options) => {
    started.push(channel);
    let cancelled = false;
    const promise = Promise.resolve().then(() => {
      if (cancelled) throw new SimCancelled();
      return simulate(run, options);
    });
    return { promise, cancel: () => (cancelled = true) };
  };
  return { fn, started };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('lab session (outside React)', () => {
  it('resolves the request, simulates the primary run and opens at the step asked for', async () => {
    const sim = inProcess();
    const session = createLabSession(findLab('reduce'), { variant: 'interleaved', compare: undefined, params: { n: 256 }, workgroup: 0 }, { simulate: sim.fn, startAt: () => 7 });
    expect(session.getState().params).toEqual({ n: 256, workgroupSize: 256, type: 'u32' });
    await settle();
    const s = session.getState();
    expect(s.primary.status.state).toBe('done');
    expect(s.primary.index?.warpCount).toBe(8);
    expect(s.stepCount).toBeGreaterThan(7);
    expect(s.step).toBe(7);
    session.getState().dispose();
  });

  it('says what it adjusted and refuses to compare a variant with itself', () => {
    const session = createLabSession(
      findLab('scan'),
      { variant: 'blelloch', compare: 'blelloch', params: { type: 'f64', workgroupSize: 100 }, workgroup: undefined },
      { simulate: inProcess().fn },
    );
    const { notices, params, compare } = session.getState();
    expect(compare).toBeUndefined();
    expect(params.type).toBe('u32');
    expect(notices.join(' ')).toMatch(/does not run on f64/);
    expect(notices.join(' ')).toMatch(/Cannot compare with “blelloch”/);
    expect(notices.join(' ')).toMatch(/written for workgroups of/);
    session.getState().dispose();
  });

  it('runs the companions its panels declare, and re-simulates only when the request changes', async () => {
    const sim = inProcess();
    const session = createLabSession(findLab('scan'), { variant: 'blelloch', compare: undefined, params: {}, workgroup: 0 }, {
      simulate: sim.fn,
      companions: (v) => (v.id === 'blelloch' ? [{ id: 'twin', variant: 'blelloch-padded' }] : []),
    });
    await settle();
    expect(sim.started).toEqual(['primary', 'twin']);
    expect(session.getState().companions.twin?.status.state).toBe('done');
    session.getState().configure({ variant: 'blelloch', compare: undefined, params: {}, workgroup: 0 });
    expect(sim.started).toHaveLength(2);
    session.getState().configure({ variant: 'hillis-steele', compare: 'blelloch', params: {}, workgroup: 0 });
    expect(sim.started.slice(2)).toEqual(['primary', 'other']);
    expect(session.getState().companions).toEqual({});
    session.getState().dispose();
  });

  it('traces every workgroup of a companion that asks for the whole dispatch, and only the focus otherwise', async () => {
    const sim = inProcess();
    const session = createLabSession(findLab('matmul'), { variant: 'tiled', compare: undefined, params: { m: 32, n: 32, k: 16 }, workgroup: 0 }, {
      simulate: sim.fn,
      companions: (v) => [{ id: 'whole', variant: v.id, traceAll: true }],
    });
    await settle();
    expect(session.getState().primary.result?.trace?.workgroups).toEqual([0]);
    expect(session.getState().companions.whole?.result?.trace?.workgroups).toEqual([0, 1, 2, 3]);
    session.getState().dispose();
  });

  it('plays on its own clock and stops at the last step', async () => {
    let tick: (() => void) | undefined;
    const session = createLabSession(findLab('reduce'), { variant: 'neighbored', compare: undefined, params: { n: 64 }, workgroup: 0 }, {
      simulate: inProcess().fn,
      timer: { set: (fn) => (tick = fn), clear: () => (tick = undefined) },
    });
    await settle();
    const { stepCount } = session.getState();
    session.getState().setStep(stepCount - 3);
    session.getState().togglePlaying();
    expect(session.getState().playing).toBe(true);
    tick!();
    tick!();
    expect(session.getState().step).toBe(stepCount - 1);
    tick!();
    expect(session.getState().playing).toBe(false);
    expect(tick).toBeUndefined();
    session.getState().dispose();
  });
});
