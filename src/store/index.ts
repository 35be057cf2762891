import { create } from 'zustand';
import { createGpuSlice, type GpuSlice } from './gpuSlice.ts';
import { createNavigationSlice, type NavigationSlice } from './navigationSlice.ts';
import { createTimelineSlice, type TimelineSlice } from './timelineSlice.ts';

export type { GpuStatus } from './gpuSlice.ts';
export { SPEEDS } from './timelineSlice.ts';

/** The app's one store, built from typed slices. Large per-step data (traces) stays outside. */
export type AppState = GpuSlice & NavigationSlice & TimelineSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createGpuSlice(...a),
  ...createNavigationSlice(...a),
  ...createTimelineSlice(...a),
}));

export const selectGpuStatus = (s: AppState) => s.gpuStatus;
export const selectRoute = (s: AppState) => s.route;
export const selectChrome = (s: AppState) => s.chrome;
export const selectNotices = (s: AppState) => s.notices;
export const selectNavigate = (s: AppState) => s.navigate;
