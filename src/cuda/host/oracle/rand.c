/* rand/random oracle: each line is  R <tab> function <tab> seed-or-none <tab> v1 v2 ... (space separated)
 * rand() without srand behaves as srand(1); srand(0) as srand(1) in glibc. */
#include <stdio.h>
#include <stdlib.h>

static void seq(const char *fn, const char *seedtxt, int n, int use_random) {
  printf("R\t%s\t%s\t", fn, seedtxt);
  for (int i = 0; i < n; i++) printf(i ? " %ld" : "%ld", use_random ? random() : (long)rand());
  putchar('\n');
}

int main(void) {
  seq("rand", "none", 40, 0);
  printf("M\tRAND_MAX\t%d\n", RAND_MAX);
  unsigned seeds[] = {1, 0, 2, 42, 1234, 12345, 20260101, 4294967295u, 2147483647u, 2147483648u, 127773, 100};
  char txt[32];
  for (unsigned k = 0; k < sizeof seeds / sizeof *seeds; k++) {
    sprintf(txt, "%u", seeds[k]);
    srand(seeds[k]);
    seq("rand", txt, 40, 0);
    srandom(seeds[k]);
    seq("random", txt, 20, 1);
  }
  /* A long run: the 100000th value after srand(7), and values that teaching programs compute. */
  srand(7);
  long last = 0, sum = 0;
  for (int i = 0; i < 100000; i++) { last = rand(); sum += last % 100; }
  printf("L\t7\t100000\t%ld\t%ld\n", last, sum);
  srand(3);
  printf("F\t3\t");
  for (int i = 0; i < 8; i++) printf(i ? " %.9g" : "%.9g", (double)((float)rand() / RAND_MAX));
  putchar('\n');
  return 0;
}
