// Merges A[0, m) and B[0, n) into C.
template <typename T>
__device__ void merge_sequential(const T *A, int m, const T *B, int n, T *C) {
  int i = 0, j = 0, k = 0;
  while (i < m && j < n) {
    if (A[i] <= B[j]) C[k++] = A[i++];
    else C[k++] = B[j++];
  }
  while (i < m) C[k++] = A[i++];
  while (j < n) C[k++] = B[j++];
}
