/**
 * The code panes' colouring engine: a small CodeMirror stream language for a language shaped like
 * C (words, numbers, operators, brackets, `//` and `/* … *\/` comments). Tokens are all a
 * highlighter needs; each language (`cudaLanguage.ts`, `wgslLanguage.ts`) names its words and
 * what it has beyond that shape.
 */
import { StreamLanguage, type StreamParser } from '@codemirror/language';

/** What one language adds to the shape. Word lists are separated by spaces. */
export interface Lexicon {
  readonly name: string;
  readonly keywords: string;
  readonly types: string;
  /** Built-in variables and functions (`threadIdx`, `workgroupBarrier`). */
  readonly builtins: string;
  /** Words that are values (`true`, `nullptr`). */
  readonly atoms: string;
  /** A line that is one token when it starts this way (CUDA's `#include`), coloured as meta. */
  readonly directive?: RegExp;
  /** Literals and marks, tried in order before words: numbers, strings, attributes… with their kinds. */
  readonly tokens: readonly (readonly [RegExp | string, string])[];
  readonly operators: RegExp;
  /** Whether a `/*` inside a block comment opens another (WGSL's nest, C's do not). */
  readonly nestedComments: boolean;
  readonly closeBrackets: readonly string[];
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

/** The stream language for `lexicon`. */
export function cLikeLanguage(lexicon: Lexicon): StreamLanguage<{ comments: number }> {
  const keywords = words(lexicon.keywords);
  const types = words(lexicon.types);
  const builtins = words(lexicon.builtins);
  const atoms = words(lexicon.atoms);
  const parser: StreamParser<{ comments: number }> = {
    name: lexicon.name,
    // How many block comments are open where the line starts.
    startState: () => ({ comments: 0 }),
    token(stream, state) {
      if (state.comments > 0) {
        while (!stream.eol()) {
          if (stream.match('*/')) {
            if (--state.comments === 0) return 'comment';
          } else if (lexicon.nestedComments && stream.match('/*')) state.comments++;
          else stream.next();
        }
        return 'comment';
      }
      if (lexicon.directive && stream.sol() && stream.match(lexicon.directive)) {
        stream.skipToEnd();
        return 'meta';
      }
      if (stream.eatSpace()) return null;
      if (stream.match('//')) {
        stream.skipToEnd();
        return 'comment';
      }
      if (stream.match('/*')) {
        state.comments = 1;
        return 'comment';
      }
      for (const [pattern, kind] of lexicon.tokens) if (typeof pattern === 'string' ? stream.match(pattern) : stream.match(pattern)) return kind;
      if (stream.match(/^[A-Za-z_]\w*/)) {
        const word = stream.current();
        if (atoms.has(word)) return 'atom';
        if (keywords.has(word)) return 'keyword';
        if (types.has(word)) return 'typeName';
        if (builtins.has(word)) return 'variableName.standard';
        if (stream.match(/^\s*\(/, false)) return 'variableName.function';
        return 'variableName';
      }
      if (stream.match(lexicon.operators)) return 'operator';
      if (stream.match(/^[()[\]{}]/)) return 'bracket';
      stream.next();
      return null;
    },
    languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } }, closeBrackets: { brackets: lexicon.closeBrackets } },
  };
  return StreamLanguage.define(parser);
}
