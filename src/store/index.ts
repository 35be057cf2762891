import { create } from 'zustand';
import { createGpuSlice, type GpuSlice } from './gpuSlice.ts';

export type { GpuStatus } from './gpuSlice.ts';

/** The app's one store, built from typed slices. Large per-step data (traces) stays outside. */
export type AppState = GpuSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createGpuSlice(...a),
}));

export const selectGpuStatus = (s: AppState) => s.gpuStatus;
