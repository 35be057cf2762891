import type { StateCreator } from 'zustand';

/** Play speeds in warp instructions per second. */
export const SPEEDS = [1, 2, 4, 8, 16, 32, 64, 128, 256] as const;

/** Where the timeline stands. The step indexes the focused trace; the trace itself is not here. */
export interface TimelineSlice {
  step: number;
  stepCount: number;
  playing: boolean;
  speedIndex: number;
  setStepCount: (count: number) => void;
  setStep: (step: number) => void;
  setPlaying: (playing: boolean) => void;
  togglePlaying: () => void;
  faster: () => void;
  slower: () => void;
}

const clampStep = (step: number, count: number): number => Math.max(0, Math.min(Math.max(0, count - 1), step));

export const createTimelineSlice: StateCreator<TimelineSlice, [], [], TimelineSlice> = (set, get) => ({
  step: 0,
  stepCount: 0,
  playing: false,
  speedIndex: 3,
  setStepCount: (stepCount) => set({ stepCount, step: clampStep(get().step, stepCount) }),
  setStep: (step) => set({ step: clampStep(step, get().stepCount) }),
  setPlaying: (playing) => set({ playing }),
  togglePlaying: () => {
    const { playing, step, stepCount } = get();
    // Play from the start when standing at the end.
    if (!playing && step >= stepCount - 1) set({ step: 0 });
    set({ playing: !playing });
  },
  faster: () => set({ speedIndex: Math.min(SPEEDS.length - 1, get().speedIndex + 1) }),
  slower: () => set({ speedIndex: Math.max(0, get().speedIndex - 1) }),
});
