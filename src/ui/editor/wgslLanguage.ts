/**
 * WGSL highlighting for CodeMirror (`cLikeLanguage.ts`). We evaluated
 * `@iizukak/codemirror-lang-wgsl` 0.3.0: its Lezer grammar predates `alias`, `enable`,
 * `diagnostic` and `override`, so 18 of our 25 kernels parse with error nodes; tokens are all a
 * highlighter needs, and these follow the current WGSL keyword list.
 */
import { cLikeLanguage } from './cLikeLanguage.ts';

export const wgslLanguage = cLikeLanguage({
  name: 'wgsl',
  keywords: 'alias break case const const_assert continue continuing default diagnostic discard else enable fn for if let loop override requires return struct switch var while',
  types:
    'bool f16 f32 i32 u32 vec2 vec3 vec4 vec2f vec3f vec4f vec2i vec3i vec4i vec2u vec3u vec4u mat2x2 mat3x3 mat4x4 mat2x2f mat3x3f mat4x4f array atomic ptr sampler texture_2d storage uniform workgroup private function read read_write write',
  builtins:
    'workgroupBarrier storageBarrier textureBarrier workgroupUniformLoad atomicAdd atomicSub atomicMax atomicMin atomicAnd atomicOr atomicXor atomicExchange atomicCompareExchangeWeak atomicLoad atomicStore arrayLength select min max clamp abs floor ceil round sqrt pow exp log dot bitcast countOneBits firstLeadingBit firstTrailingBit reverseBits subgroupAdd subgroupExclusiveAdd subgroupInclusiveAdd subgroupBroadcast subgroupShuffle subgroupShuffleUp subgroupShuffleDown subgroupShuffleXor subgroupBallot subgroupElect',
  atoms: 'true false',
  tokens: [
    [/^@\s*[A-Za-z_]\w*/, 'meta'],
    [/^0[xX][0-9a-fA-F]+[iu]?/, 'number'],
    [/^(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?[fhiu]?/, 'number'],
  ],
  operators: /^[-+*/%&|^!=<>~]+/,
  nestedComments: true,
  closeBrackets: ['(', '[', '{'],
});
