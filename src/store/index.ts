import { create } from 'zustand';
import { createGpuSlice, type GpuSlice } from './gpuSlice.ts';
import { createNavigationSlice, type NavigationSlice } from './navigationSlice.ts';

export type { GpuStatus } from './gpuSlice.ts';

/**
 * The app's store, built from typed slices: the GPU and the route. What a lab view shows (step,
 * simulations, focus) lives in its lab session (`src/workbench/session.ts`), one per view.
 */
export type AppState = GpuSlice & NavigationSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createGpuSlice(...a),
  ...createNavigationSlice(...a),
}));

export const selectGpuStatus = (s: AppState) => s.gpuStatus;
export const selectRoute = (s: AppState) => s.route;
export const selectChrome = (s: AppState) => s.chrome;
export const selectNotices = (s: AppState) => s.notices;
export const selectNavigate = (s: AppState) => s.navigate;
