/**
 * CUDA C++ highlighting for CodeMirror as a small stream language (`@codemirror/lang-cpp` is not
 * among the app's dependencies; tokens are all a highlighter needs): comments, strings, numbers,
 * preprocessor lines, C++ and CUDA keywords, types and the CUDA built-ins.
 */
import { StreamLanguage, type StreamParser } from '@codemirror/language';

const words = (s: string): Set<string> => new Set(s.split(' '));
const KEYWORDS = words(
  'break case class const constexpr continue default delete do else enum extern for goto if inline namespace new operator private protected public return sizeof static static_cast reinterpret_cast struct switch template typedef typename union using virtual volatile while __global__ __device__ __host__ __shared__ __constant__ __managed__ __restrict__ __syncthreads __forceinline__',
);
const TYPES = words('auto bool char double float int long short signed unsigned void size_t dim3 cudaError_t cudaEvent_t cudaDeviceProp cudaStream_t uint8_t int32_t uint32_t int64_t uint64_t float2 float4 int2 int4 std vector');
const BUILTINS = words('threadIdx blockIdx blockDim gridDim warpSize atomicAdd atomicSub atomicMax atomicMin atomicExch atomicCAS atomicAnd atomicOr atomicXor __syncwarp __shfl_sync __shfl_down_sync __shfl_up_sync __shfl_xor_sync printf');

interface State {
  comment: boolean;
}

const parser: StreamParser<State> = {
  name: 'cuda',
  startState: () => ({ comment: false }),
  token(stream, state) {
    if (state.comment) {
      while (!stream.eol()) {
        if (stream.match('*/')) {
          state.comment = false;
          return 'comment';
        }
        stream.next();
      }
      return 'comment';
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
    if (stream.sol() && stream.match(/^#\s*\w+/)) {
      stream.skipToEnd();
      return 'meta';
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/)) return 'string';
    if (stream.match(/^0[xX][0-9a-fA-F]+[uUlL]*/) || stream.match(/^(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?[fFuUlL]*/)) return 'number';
    if (stream.match(/^[A-Za-z_]\w*/)) {
      const word = stream.current();
      if (word === 'true' || word === 'false' || word === 'NULL' || word === 'nullptr') return 'atom';
      if (KEYWORDS.has(word)) return 'keyword';
      if (TYPES.has(word)) return 'typeName';
      if (BUILTINS.has(word)) return 'variableName.standard';
      if (stream.match(/^\s*\(/, false)) return 'variableName.function';
      return 'variableName';
    }
    if (stream.match('<<<') || stream.match('>>>')) return 'meta';
    if (stream.match(/^[-+*/%&|^!=<>~?:]+/)) return 'operator';
    if (stream.match(/^[()[\]{}]/)) return 'bracket';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } }, closeBrackets: { brackets: ['(', '[', '{', '"', "'"] } },
};

export const cudaLanguage = StreamLanguage.define(parser);
