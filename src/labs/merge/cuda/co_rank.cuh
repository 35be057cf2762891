// How many of the first k outputs come from A (the rest, k - i, from B).
template <typename T>
__device__ int co_rank(int k, const T *A, int m, const T *B, int n) {
  int lo = max(0, k - n), hi = min(k, m);
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (A[mid] <= B[k - 1 - mid]) lo = mid + 1;   // A[mid] is among the first k (ties: A first)
    else hi = mid;
  }
  return lo;
}
