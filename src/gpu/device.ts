import { GpuError, HINTS } from './errors.ts';

/** What the page shows about the GPU it got. */
export interface AdapterSummary {
  readonly vendor: string;
  readonly architecture: string;
  readonly device: string;
  readonly description: string;
  /** A one-line name for tables and benchmark records. */
  readonly name: string;
  readonly subgroupMinSize: number | undefined;
  readonly subgroupMaxSize: number | undefined;
  readonly isFallbackAdapter: boolean;
  readonly features: readonly string[];
  readonly hasTimestamps: boolean;
  readonly hasSubgroups: boolean;
  readonly limits: {
    readonly maxBufferSize: number;
    readonly maxStorageBufferBindingSize: number;
    readonly maxComputeWorkgroupsPerDimension: number;
    readonly maxComputeInvocationsPerWorkgroup: number;
    readonly maxComputeWorkgroupSizeX: number;
    readonly maxComputeWorkgroupStorageSize: number;
    readonly maxStorageBuffersPerShaderStage: number;
  };
}

/** A device with the adapter it came from. Keep the whole object referenced while in use. */
export interface GpuContext {
  readonly gpu: GPU;
  readonly adapter: GPUAdapter;
  readonly device: GPUDevice;
  readonly summary: AdapterSummary;
}

const RAISED_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxComputeWorkgroupsPerDimension',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupSizeZ',
  'maxComputeWorkgroupStorageSize',
  'maxStorageBuffersPerShaderStage',
] as const;

function readInfo(adapter: GPUAdapter): {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  subgroupMinSize: number | undefined;
  subgroupMaxSize: number | undefined;
  isFallbackAdapter: boolean;
} {
  // `info` is an interface of getters; copy the fields we show (some browsers lack the newer ones).
  const info = adapter.info as GPUAdapterInfo & {
    subgroupMinSize?: number;
    subgroupMaxSize?: number;
    isFallbackAdapter?: boolean;
  };
  const legacy = adapter as GPUAdapter & { isFallbackAdapter?: boolean };
  return {
    vendor: info.vendor || '',
    architecture: info.architecture || '',
    device: info.device || '',
    description: info.description || '',
    subgroupMinSize: info.subgroupMinSize,
    subgroupMaxSize: info.subgroupMaxSize,
    isFallbackAdapter: Boolean(info.isFallbackAdapter ?? legacy.isFallbackAdapter),
  };
}

function adapterName(i: ReturnType<typeof readInfo>): string {
  const parts = [i.vendor, i.architecture, i.description || i.device].filter((p) => p.length > 0);
  return parts.length > 0 ? parts.join(' · ') : 'unnamed adapter';
}

/**
 * Asks `gpu` for a high-performance adapter and a device with `timestamp-query`, `subgroups` and
 * `shader-f16` when offered, and every compute limit raised to what the adapter allows.
 * @throws GpuError `no-webgpu`, `no-adapter` or `device-request`.
 */
export async function acquireDevice(gpu: GPU | undefined, label = 'warpscope'): Promise<GpuContext> {
  if (!gpu) throw new GpuError('no-webgpu', 'WebGPU is unavailable in this browser.', HINTS.noWebgpu);
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (e) {
    throw new GpuError('no-adapter', `Requesting a WebGPU adapter failed: ${String(e)}`, HINTS.noAdapter);
  }
  if (!adapter) throw new GpuError('no-adapter', 'No WebGPU adapter is available.', HINTS.noAdapter);

  const wanted: GPUFeatureName[] = ['timestamp-query', 'subgroups', 'shader-f16'];
  const requiredFeatures = wanted.filter((f) => adapter.features.has(f));
  const requiredLimits: Record<string, number> = {};
  for (const name of RAISED_LIMITS) {
    const value = (adapter.limits as unknown as Record<string, number | undefined>)[name];
    if (typeof value === 'number') requiredLimits[name] = value;
  }
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ label, requiredFeatures, requiredLimits });
  } catch (e) {
    throw new GpuError(
      'device-request',
      `The adapter refused a device: ${String(e)}`,
      'Reload the page; if it persists, the GPU driver may be in a bad state.',
    );
  }
  const info = readInfo(adapter);
  const limits = device.limits;
  const summary: AdapterSummary = {
    ...info,
    name: adapterName(info),
    features: [...device.features].map(String).sort(),
    hasTimestamps: device.features.has('timestamp-query'),
    hasSubgroups: device.features.has('subgroups'),
    limits: {
      maxBufferSize: limits.maxBufferSize,
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxComputeWorkgroupsPerDimension: limits.maxComputeWorkgroupsPerDimension,
      maxComputeInvocationsPerWorkgroup: limits.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: limits.maxComputeWorkgroupSizeX,
      maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
      maxStorageBuffersPerShaderStage: limits.maxStorageBuffersPerShaderStage,
    },
  };
  return { gpu, adapter, device, summary };
}
