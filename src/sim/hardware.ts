/**
 * The hardware model in one place: how many banks workgroup memory has, how wide a word and a
 * storage sector are, and how many lanes a warp has. The simulator's counters, the trace and every
 * view read it from here (through `Trace.hardware`), so none recomputes bank or sector arithmetic
 * with its own constants.
 */

export interface HardwareModel {
  /** Workgroup-memory banks; word `a` lives in bank `a mod banks`. */
  readonly banks: number;
  /** Bytes per bank word (and per element of a 32-bit array). */
  readonly wordBytes: number;
  /** Bytes per storage-memory sector, the unit a global request is served in. */
  readonly sectorBytes: number;
  /** Lanes per warp (the simulator's subgroup size). */
  readonly warpSize: number;
}

/** What NVIDIA GPUs since Kepler have, and what the course material assumes. */
export const DEFAULT_HARDWARE: HardwareModel = { banks: 32, wordBytes: 4, sectorBytes: 32, warpSize: 32 };

/** The model with another warp size (the simulator accepts 1…128). */
export function hardwareWithWarpSize(warpSize: number, base: HardwareModel = DEFAULT_HARDWARE): HardwareModel {
  return warpSize === base.warpSize ? base : { ...base, warpSize };
}

/** The bank of a workgroup-memory word address. */
export function bankOf(hw: HardwareModel, wordAddr: number): number {
  return ((wordAddr % hw.banks) + hw.banks) % hw.banks;
}

/** The sector of a storage-memory word address. */
export function sectorOf(hw: HardwareModel, wordAddr: number): number {
  return Math.floor((wordAddr * hw.wordBytes) / hw.sectorBytes);
}

/** Words per sector (8 for 4-byte words in 32-byte sectors). */
export function wordsPerSector(hw: HardwareModel): number {
  return Math.max(1, Math.floor(hw.sectorBytes / hw.wordBytes));
}

/**
 * Wavefronts of one workgroup-memory request: the most distinct words any one bank is asked for
 * (lanes reading the same word share it). 0 for an empty request.
 */
export function requestWavefronts(hw: HardwareModel, wordAddrs: ArrayLike<number>, start = 0, end = wordAddrs.length): number {
  const perBank = new Map<number, Set<number>>();
  let worst = 0;
  for (let r = start; r < end; r++) {
    const addr = wordAddrs[r]!;
    const bank = bankOf(hw, addr);
    let words = perBank.get(bank);
    if (!words) perBank.set(bank, (words = new Set()));
    words.add(addr);
    worst = Math.max(worst, words.size);
  }
  return worst;
}

/** Distinct sectors one storage-memory request touches. */
export function requestSectors(hw: HardwareModel, wordAddrs: ArrayLike<number>, start = 0, end = wordAddrs.length): number {
  const seen = new Set<number>();
  for (let r = start; r < end; r++) seen.add(sectorOf(hw, wordAddrs[r]!));
  return seen.size;
}
