/**
 * glibc's `random`/`rand`: the TYPE_3 additive feedback generator (x[i] = x[i-3] + x[i-31] mod 2^32,
 * output x[i] >> 1), seeded by a Park–Miller sequence and run 310 steps before the first output.
 * `rand()` is `random()` in glibc, and both share one state, so `srand` and `srandom` are the same
 * call. With no seed the state is that of seed 1; seed 0 is taken as 1. These sequences are what
 * a seeded course program prints on Linux.
 */

/** RAND_MAX in glibc. */
export const RAND_MAX = 2147483647;

const DEG = 31;
const SEP = 3;

export class GlibcRandom {
  private readonly r = new Int32Array(DEG);
  private front = SEP;
  private rear = 0;

  constructor(seed = 1) {
    this.seed(seed);
  }

  /** `srand(seed)` / `srandom(seed)`: the seed is an `unsigned int`, stored as a 32-bit int. */
  seed(seed: number): void {
    let word = seed | 0;
    if (word === 0) word = 1;
    const r = this.r;
    r[0] = word;
    for (let i = 1; i < DEG; i++) {
      // 16807 * word % 2147483647 without overflow (Schrage): 2147483647 = 16807 * 127773 + 2836.
      const hi = (word / 127773) | 0;
      const lo = word % 127773;
      word = 16807 * lo - 2836 * hi;
      if (word < 0) word += 2147483647;
      r[i] = word;
    }
    this.front = SEP;
    this.rear = 0;
    for (let i = 0; i < 10 * DEG; i++) this.next();
  }

  /** `rand()` / `random()`: a value in [0, RAND_MAX]. */
  next(): number {
    const r = this.r;
    const v = (r[this.front]! + r[this.rear]!) | 0;
    r[this.front] = v;
    this.front = this.front + 1 === DEG ? 0 : this.front + 1;
    this.rear = this.rear + 1 === DEG ? 0 : this.rear + 1;
    return v >>> 1;
  }
}
