/**
 * The SpMV kernels' CUDA, for the code pane (written for Warpscope): every variant's `.cu` file,
 * translated and checked against its WGSL (`cudaTwins.ts`).
 */
import type { SpmvVariant } from './kernel.ts';
import CSR_SCALAR_CU from './cuda/csr-scalar.cu?raw';
import ELL_CU from './cuda/ell.cu?raw';
import CSR_VECTOR_CU from './cuda/csr-vector.cu?raw';
import COO_CU from './cuda/coo.cu?raw';
import HYBRID_CU from './cuda/hybrid.cu?raw';
import JDS_CU from './cuda/jds.cu?raw';
import CSR_ADAPTIVE_CU from './cuda/csr-adaptive.cu?raw';
import SELL_CU from './cuda/sell.cu?raw';
import CSR_MERGE_CU from './cuda/csr-merge.cu?raw';

export const SPMV_CUDA: Readonly<Record<SpmvVariant, string>> = {
  'csr-scalar': CSR_SCALAR_CU,
  ell: ELL_CU,
  'csr-vector': CSR_VECTOR_CU,
  coo: COO_CU,
  hybrid: HYBRID_CU,
  jds: JDS_CU,
  'csr-merge': CSR_MERGE_CU,
  'csr-adaptive': CSR_ADAPTIVE_CU,
  sell: SELL_CU,
};
