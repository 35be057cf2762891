/**
 * CUDA C/C++ highlighting for CodeMirror as a small stream language, like `wgslLanguage.ts`:
 * tokens are all a highlighter needs. `@codemirror/lang-cpp` would add a dependency and a grammar
 * of ~90 KB for the same colours; CUDA's qualifiers and built-ins are listed here.
 */
import { StreamLanguage, type StreamParser } from '@codemirror/language';

const KEYWORDS = new Set(
  'break case class const constexpr continue default delete do else enum extern for goto if inline namespace new operator private protected public return sizeof static static_cast reinterpret_cast struct switch template typedef typename union using virtual volatile while __global__ __device__ __host__ __shared__ __constant__ __managed__ __restrict__ __forceinline__ __noinline__'.split(' '),
);
const TYPES = new Set(
  'void bool char short int long signed unsigned float double size_t dim3 uint3 int2 int3 int4 uint2 uint4 float2 float3 float4 auto cudaError_t cudaEvent_t cudaDeviceProp cudaStream_t uint8_t int32_t uint32_t int64_t uint64_t std vector'.split(' '),
);
const BUILTINS = new Set(
  'threadIdx blockIdx blockDim gridDim warpSize __syncthreads __syncwarp __shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync __ballot_sync __any_sync __all_sync __activemask atomicAdd atomicSub atomicMin atomicMax atomicExch atomicCAS atomicAnd atomicOr atomicXor atomicInc atomicDec printf min max abs sqrtf rsqrtf expf __expf logf powf fabsf fminf fmaxf floorf ceilf __fdividef __popc __clz __ffs __brev'.split(
    ' ',
  ),
);

interface State {
  comment: boolean;
}

const parser: StreamParser<State> = {
  name: 'cuda',
  startState: () => ({ comment: false }),
  token(stream, state) {
    if (state.comment) {
      if (stream.skipTo('*/')) {
        stream.match('*/');
        state.comment = false;
      } else stream.skipToEnd();
      return 'comment';
    }
    if (stream.sol() && stream.match(/^\s*#\s*\w+/)) {
      stream.skipToEnd();
      return 'meta';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('/*')) {
      state.comment = true;
      return 'comment';
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/)) return 'string';
    if (stream.match(/^0[xX][0-9a-fA-F]+[uUlL]*/) || stream.match(/^(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?[fFuUlL]*/)) return 'number';
    if (stream.match(/^[A-Za-z_]\w*/)) {
      const word = stream.current();
      if (word === 'true' || word === 'false' || word === 'nullptr' || word === 'NULL') return 'atom';
      if (KEYWORDS.has(word)) return 'keyword';
      if (TYPES.has(word)) return 'typeName';
      if (BUILTINS.has(word)) return 'variableName.standard';
      if (stream.match(/^\s*\(/, false)) return 'variableName.function';
      return 'variableName';
    }
    if (stream.match('<<<') || stream.match('>>>')) return 'bracket';
    if (stream.match(/^[-+*/%&|^!=<>~?:]+/)) return 'operator';
    if (stream.match(/^[()[\]{}]/)) return 'bracket';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } }, closeBrackets: { brackets: ['(', '[', '{', '"', "'"] } },
};

export const cudaLanguage = StreamLanguage.define(parser);
