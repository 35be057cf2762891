import type { StateCreator } from 'zustand';
import type { AdapterSummary } from '../gpu/index.ts';

/** Where the page stands with WebGPU. */
export type GpuStatus =
  | { readonly state: 'pending' }
  | { readonly state: 'ready'; readonly adapter: AdapterSummary }
  | { readonly state: 'unavailable'; readonly kind: string; readonly message: string; readonly hint: string };

export interface GpuSlice {
  gpuStatus: GpuStatus;
  setGpuStatus: (status: GpuStatus) => void;
}

export const createGpuSlice: StateCreator<GpuSlice, [], [], GpuSlice> = (set) => ({
  gpuStatus: { state: 'pending' },
  setGpuStatus: (gpuStatus) => set({ gpuStatus }),
});
