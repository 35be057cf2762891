/**
 * The WGSL front end against live Dawn: every program of the parity table is compiled by Dawn
 * (`getCompilationInfo`) and by `src/wgsl`; both must reject the invalid ones at the same line and
 * column, and accept the valid ones. The recorded line:col in the table must still be Dawn's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { check } from '../wgsl/checker.ts';
import { INVALID, VALID } from '../wgsl/testdata/parity.ts';
import type { GpuExecutor } from './executor.ts';
import { sharedNodeGpu } from './node.ts';

let gpu: GpuExecutor;
let device: GPUDevice;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
  device = (await gpu.ready()).device;
});

async function dawnMessages(code: string): Promise<GPUCompilationMessage[]> {
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  await device.popErrorScope();
  return [...info.messages];
}

describe('WGSL front end and Dawn agree', () => {
  it.each(INVALID.map((c) => [`§${c.section}: ${c.name}`, c] as const))('rejects %s at the same line and column', async (_, c) => {
    if (c.code.includes('enable subgroups') && !device.features.has('subgroups')) return;
    const dawn = (await dawnMessages(c.code)).find((m) => m.type === 'error');
    expect(dawn, 'Dawn accepted it').toBeDefined();
    expect(`${dawn!.lineNum}:${dawn!.linePos}`).toBe(`${c.line}:${c.col}`);
    const ours = check(c.code).diagnostics.find((d) => d.severity === 'error');
    expect(ours && `${ours.line}:${ours.col}`).toBe(`${dawn!.lineNum}:${dawn!.linePos}`);
  });

  it.each(VALID.map((c) => [`§${c.section}: ${c.name}`, c] as const))('accepts %s', async (_, c) => {
    if (c.code.includes('enable subgroups') && !device.features.has('subgroups')) return;
    const dawn = await dawnMessages(c.code);
    expect(dawn.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
    expect(check(c.code).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
