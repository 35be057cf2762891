import { describe, expect, it } from 'vitest';
import { createSimCache, simKey, type CachedSim } from './simCache.ts';
import type { SimResult } from '../sim/index.ts';

/** A result holding `bytes` of output and no trace. */
function result(bytes: number): CachedSim {
  const r = { buffers: { 0: { 0: new Uint32Array(bytes / 4) } }, metrics: {}, diagnostics: [] } as unknown as SimResult;
  return { result: r, index: undefined, memory: -1 };
}

describe('simulation cache', () => {
  it('names a run by lab, variant, parameters in any order, seed and options, and by nothing else', () => {
    const a = simKey('reduce', 'interleaved', { n: 256, workgroupSize: 64 }, 1, { warpSize: 32, trace: 'full' });
    expect(simKey('reduce', 'interleaved', { workgroupSize: 64, n: 256 }, 1, { warpSize: 32, trace: 'full' })).toBe(a);
    for (const other of [
      simKey('scan', 'interleaved', { n: 256, workgroupSize: 64 }, 1, { warpSize: 32, trace: 'full' }),
      simKey('reduce', 'neighbored', { n: 256, workgroupSize: 64 }, 1, { warpSize: 32, trace: 'full' }),
      simKey('reduce', 'interleaved', { n: 512, workgroupSize: 64 }, 1, { warpSize: 32, trace: 'full' }),
      simKey('reduce', 'interleaved', { n: 256, workgroupSize: 64 }, 2, { warpSize: 32, trace: 'full' }),
      simKey('reduce', 'interleaved', { n: 256, workgroupSize: 64 }, 1, { warpSize: 32, trace: 'full', traceWorkgroups: [1] }),
      simKey('reduce', 'interleaved', { n: 256, workgroupSize: 64 }, 1, { warpSize: 32, trace: 'full', shaderF16: true }),
    ])
      expect(other).not.toBe(a);
  });

  it('gives back what was put, and lets the least recently used go past its count', () => {
    const cache = createSimCache({ maxEntries: 2 });
    const [a, b, c] = [result(4), result(8), result(12)];
    cache.put('a', a);
    cache.put('b', b);
    expect(cache.get('a')).toBe(a); // a is now the more recently used
    cache.put('c', c);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(a);
    expect(cache.get('c')).toBe(c);
  });

  it('keeps at most its bytes, dropping the oldest first, and never keeps one larger than all of them', () => {
    const cache = createSimCache({ maxEntries: 10, maxBytes: 100 });
    cache.put('a', result(40));
    cache.put('b', result(40));
    cache.put('c', result(40));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    cache.put('huge', result(104));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    // Putting a name again replaces it and counts its bytes once.
    cache.put('b', result(40));
    cache.put('b', result(40));
    expect(cache.get('c')).toBeDefined();
  });
});
