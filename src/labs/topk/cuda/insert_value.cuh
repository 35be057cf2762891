// Inserts v into thread me's list (descending) unless it is not among the list's k largest, or,
// with distinct, the list already holds it.
__device__ void insert_value(int *lists, int me, int k, bool distinct, int v) {
  int W = blockDim.x;
  if (distinct)
    for (int s = 0; s < k; s++)
      if (lists[s * W + me] == v) return;
  if (v <= lists[(k - 1) * W + me]) return;
  int s = k - 1;                             // shift the smaller values down to v's place
  while (s > 0 && v > lists[(s - 1) * W + me]) {
    lists[s * W + me] = lists[(s - 1) * W + me];
    s--;
  }
  lists[s * W + me] = v;
}
