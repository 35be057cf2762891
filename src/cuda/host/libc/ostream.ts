/**
 * `std::cout <<` as libstdc++ formats it: integers in decimal, `char` as the character, `bool` as
 * 1/0 (or true/false after `std::boolalpha`), C strings as text, and `float`/`double` through
 * printf's `%.*g` (the default, precision 6), `%.*f` after `std::fixed` or `%.*e` after
 * `std::scientific`, with the stream's precision (`std::setprecision`).
 */
import { byteText } from './bytes.ts';
import { formatPrintf } from './printf.ts';

export type FloatField = 'general' | 'fixed' | 'scientific';

/** The formatting state of one stream (`std::cout`'s flags that teaching programs touch). */
export interface OstreamState {
  precision: number;
  floatfield: FloatField;
  boolalpha: boolean;
}

export function defaultOstreamState(): OstreamState {
  return { precision: 6, floatfield: 'general', boolalpha: false };
}

export type OstreamValue =
  | { readonly kind: 'int'; readonly value: number | bigint }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'char'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'string'; readonly value: string };

/** The text `os << value` appends. */
export function formatOstream(state: OstreamState, v: OstreamValue): string {
  switch (v.kind) {
    case 'int':
      return String(v.value);
    case 'char':
      return byteText(v.value);
    case 'bool':
      return state.boolalpha ? (v.value ? 'true' : 'false') : v.value ? '1' : '0';
    case 'string':
      return v.value;
    case 'float': {
      const conv = state.floatfield === 'fixed' ? 'f' : state.floatfield === 'scientific' ? 'e' : 'g';
      return formatPrintf(`%.*${conv}`, [state.precision, v.value]);
    }
  }
}
