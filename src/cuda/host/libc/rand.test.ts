import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GlibcRandom, RAND_MAX } from './rand.ts';

// Expected values: src/cuda/host/oracle/rand.c run with glibc (scripts/cuda-host-oracle.sh).
const lines = readFileSync(new URL('../oracle/rand.out', import.meta.url), 'utf8').trimEnd().split('\n');
const sequences = lines.filter((l) => l.startsWith('R\t')).map((l) => l.split('\t'));

describe('glibc rand/random', () => {
  it('has at least ten seeded sequences to check', () => {
    expect(sequences.length).toBeGreaterThanOrEqual(10);
  });

  it.each(sequences.map(([, fn, seed, values]) => ({ fn: fn!, seed: seed!, values: values! })))(
    '$fn after srand($seed) matches glibc',
    ({ seed, values }) => {
      const g = seed === 'none' ? new GlibcRandom() : new GlibcRandom(Number(seed));
      const want = values.split(' ').map(Number);
      expect(want.map(() => g.next())).toEqual(want);
    },
  );

  it('RAND_MAX is glibc’s', () => {
    const line = lines.find((l) => l.startsWith('M\tRAND_MAX'))!;
    expect(RAND_MAX).toBe(Number(line.split('\t')[2]));
  });

  it('the 100000th value after srand(7) and the sum of rand() % 100 match', () => {
    const [, , count, last, sum] = lines.find((l) => l.startsWith('L\t'))!.split('\t');
    const g = new GlibcRandom(7);
    let v = 0;
    let s = 0;
    for (let i = 0; i < Number(count); i++) {
      v = g.next();
      s += v % 100;
    }
    expect([v, s]).toEqual([Number(last), Number(sum)]);
  });

  it('(float)rand() / RAND_MAX as a course program computes it', () => {
    const [, seed, values] = lines.find((l) => l.startsWith('F\t'))!.split('\t');
    const g = new GlibcRandom(Number(seed));
    // %.9g prints a float exactly enough to tell any two floats apart.
    const got = values!.split(' ').map(() => Math.fround(Math.fround(g.next()) / Math.fround(RAND_MAX)));
    expect(got.map((v) => Number(v.toPrecision(9)))).toEqual(values!.split(' ').map(Number));
  });
});
