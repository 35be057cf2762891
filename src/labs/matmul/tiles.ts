/**
 * Tile widths of the tiled kernel (WebGPU guarantees 256 invocations: TILE 32 runs 32 × 8). Kept
 * apart from kernel.ts, whose WGSL sources the start page must not load: the lab's parameter
 * fields (meta.ts, read by the catalog) need only these numbers.
 */
export const TILE_SIZES = [16, 32] as const;
