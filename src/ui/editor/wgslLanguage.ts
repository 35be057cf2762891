/**
 * WGSL highlighting for CodeMirror as a small stream language. We evaluated
 * `@iizukak/codemirror-lang-wgsl` 0.3.0: its Lezer grammar predates `alias`, `enable`,
 * `diagnostic` and `override`, so 18 of our 25 kernels parse with error nodes; tokens are all a
 * highlighter needs, and these follow the current WGSL keyword list.
 */
import { StreamLanguage, type StreamParser } from '@codemirror/language';

const KEYWORDS = new Set(
  'alias break case const const_assert continue continuing default diagnostic discard else enable fn for if let loop override requires return struct switch var while'.split(' '),
);
const TYPES = new Set(
  'bool f16 f32 i32 u32 vec2 vec3 vec4 vec2f vec3f vec4f vec2i vec3i vec4i vec2u vec3u vec4u mat2x2 mat3x3 mat4x4 mat2x2f mat3x3f mat4x4f array atomic ptr sampler texture_2d storage uniform workgroup private function read read_write write'.split(
    ' ',
  ),
);
const BUILTINS = new Set(
  'workgroupBarrier storageBarrier textureBarrier workgroupUniformLoad atomicAdd atomicSub atomicMax atomicMin atomicAnd atomicOr atomicXor atomicExchange atomicCompareExchangeWeak atomicLoad atomicStore arrayLength select min max clamp abs floor ceil round sqrt pow exp log dot bitcast countOneBits firstLeadingBit firstTrailingBit reverseBits subgroupAdd subgroupExclusiveAdd subgroupInclusiveAdd subgroupBroadcast subgroupShuffle subgroupShuffleUp subgroupShuffleDown subgroupShuffleXor subgroupBallot subgroupElect'.split(
    ' ',
  ),
);

interface State {
  comment: number;
}

const parser: StreamParser<State> = {
  name: 'wgsl',
  startState: () => ({ comment: 0 }),
  token(stream, state) {
    if (state.comment > 0) {
      while (!stream.eol()) {
        if (stream.match('*/')) {
          state.comment--;
          if (state.comment === 0) return 'comment';
        } else if (stream.match('/*')) state.comment++;
        else stream.next();
      }
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('/*')) {
      state.comment = 1;
      return 'comment';
    }
    if (stream.match(/^@\s*[A-Za-z_]\w*/)) return 'meta';
    if (stream.match(/^0[xX][0-9a-fA-F]+[iu]?/) || stream.match(/^(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?[fhiu]?/)) return 'number';
    if (stream.match(/^[A-Za-z_]\w*/)) {
      const word = stream.current();
      if (word === 'true' || word === 'false') return 'atom';
      if (KEYWORDS.has(word)) return 'keyword';
      if (TYPES.has(word)) return 'typeName';
      if (BUILTINS.has(word)) return 'variableName.standard';
      if (stream.match(/^\s*\(/, false)) return 'variableName.function';
      return 'variableName';
    }
    if (stream.match(/^[-+*/%&|^!=<>~]+/)) return 'operator';
    if (stream.match(/^[()[\]{}]/)) return 'bracket';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } }, closeBrackets: { brackets: ['(', '[', '{'] } },
};

export const wgslLanguage = StreamLanguage.define(parser);
