/**
 * CUDA C/C++ highlighting for CodeMirror (`cLikeLanguage.ts`). `@codemirror/lang-cpp` would add a
 * dependency and a grammar of ~90 KB for the same colours; CUDA's qualifiers and built-ins are
 * listed here.
 */
import { cLikeLanguage } from './cLikeLanguage.ts';

export const cudaLanguage = cLikeLanguage({
  name: 'cuda',
  keywords:
    'break case class const constexpr continue default delete do else enum extern for goto if inline namespace new operator private protected public return sizeof static static_cast reinterpret_cast struct switch template typedef typename union using virtual volatile while __global__ __device__ __host__ __shared__ __constant__ __managed__ __restrict__ __forceinline__ __noinline__',
  types:
    'void bool char short int long signed unsigned float double size_t dim3 uint3 int2 int3 int4 uint2 uint4 float2 float3 float4 auto cudaError_t cudaEvent_t cudaDeviceProp cudaStream_t uint8_t int32_t uint32_t int64_t uint64_t std vector',
  builtins:
    'threadIdx blockIdx blockDim gridDim warpSize __syncthreads __syncwarp __shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync __ballot_sync __any_sync __all_sync __activemask atomicAdd atomicSub atomicMin atomicMax atomicExch atomicCAS atomicAnd atomicOr atomicXor atomicInc atomicDec printf min max abs sqrtf rsqrtf expf __expf logf powf fabsf fminf fmaxf floorf ceilf __fdividef __popc __clz __ffs __brev',
  atoms: 'true false nullptr NULL',
  directive: /^\s*#\s*\w+/,
  tokens: [
    [/^"(?:[^"\\]|\\.)*"?/, 'string'],
    [/^'(?:[^'\\]|\\.)*'?/, 'string'],
    [/^0[xX][0-9a-fA-F]+[uUlL]*/, 'number'],
    [/^(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?[fFuUlL]*/, 'number'],
    ['<<<', 'bracket'],
    ['>>>', 'bracket'],
  ],
  operators: /^[-+*/%&|^!=<>~?:]+/,
  nestedComments: false,
  closeBrackets: ['(', '[', '{', '"', "'"],
});
