/**
 * The C preprocessor, over tokens: `#define` (object-like and function-like, with `#`, `##` and
 * `__VA_ARGS__`), `#undef`, `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif` with `defined`,
 * `#include <...>` of standard and CUDA headers (understood, not read: their names are known),
 * `#include "x.cuh"` from the learner's files, `#pragma` (`unroll`, `once`), `#error`, `#line`
 * ignored. Tokens that come from a macro carry the position of the macro's use, so a message about
 * `N` in `a[N]` points at the `N` the learner wrote.
 */
import { lex, type CodeComment, type Token } from './lexer.ts';
import type { Diagnostic } from './types.ts';

interface Macro {
  readonly params?: readonly string[];
  readonly variadic: boolean;
  readonly body: readonly Token[];
}

export interface PreprocessResult {
  readonly tokens: Token[];
  readonly diagnostics: Diagnostic[];
  readonly codeComments: CodeComment[];
  /** `#pragma unroll` lines (accepted; WGSL has no unroll hint). */
  readonly pragmas: { file: string; line: number; text: string }[];
  /** The system headers included (`<…>`), by name: some declare type names (`half` in `cuda_fp16.h`). */
  readonly systemHeaders: ReadonlySet<string>;
}

/** Values every CUDA translation unit sees through the headers nvcc includes. */
const PREDEFINED: Record<string, string> = {
  __CUDACC__: '1',
  __NVCC__: '1',
  NULL: '0',
  nullptr: '0',
  EXIT_SUCCESS: '0',
  EXIT_FAILURE: '1',
  RAND_MAX: '2147483647',
  CHAR_BIT: '8',
  INT_MAX: '2147483647',
  INT_MIN: '(-2147483647 - 1)',
  UINT_MAX: '4294967295u',
  SHRT_MAX: '32767',
  SHRT_MIN: '(-32768)',
  USHRT_MAX: '65535',
  UCHAR_MAX: '255',
  CHAR_MAX: '127',
  CHAR_MIN: '(-128)',
  FLT_MAX: '3.40282347e+38f',
  FLT_MIN: '1.17549435e-38f',
  FLT_EPSILON: '1.19209290e-7f',
  M_PI: '3.14159265358979323846',
  CUDART_INF_F: '__int_as_float(0x7f800000)',
};

const KNOWN_HEADERS = new Set(
  (
    'stdio.h stdlib.h string.h math.h time.h limits.h float.h assert.h stdint.h stddef.h stdbool.h ctype.h ' +
    'sys/time.h unistd.h iostream vector algorithm cmath cstdio cstdlib cstring ctime climits cfloat cassert ' +
    'cstdint cstddef cstdarg cerrno cinttypes inttypes.h stdarg.h errno.h numeric iomanip string chrono random utility functional memory fstream sstream ' +
    'array map set unordered_map iterator limits type_traits cstdbool omp.h ' +
    'cuda.h cuda_runtime.h cuda_runtime_api.h device_launch_parameters.h device_functions.h ' +
    'cooperative_groups.h cuda_fp16.h helper_cuda.h helper_functions.h sm_atomics.h'
  ).split(' '),
);

function pushBack(stack: Token[], tokens: readonly Token[]): void {
  for (let i = tokens.length - 1; i >= 0; i--) stack.push(tokens[i]!);
}

/**
 * nvcc's device pass defines `__CUDA_ARCH__` as the target's compute capability times 100; the
 * translation is checked against an H100's CUDA (sm_90), so device code sees 900.
 */
const DEVICE_ARCH = '900';

export function preprocess(source: string, fileName: string, files: Readonly<Record<string, string>> = {}, device = false): PreprocessResult {
  const diagnostics: Diagnostic[] = [];
  const codeComments: CodeComment[] = [];
  const pragmas: { file: string; line: number; text: string }[] = [];
  const systemHeaders = new Set<string>();
  const macros = new Map<string, Macro>();
  for (const [name, value] of Object.entries({ ...PREDEFINED, ...(device ? { __CUDA_ARCH__: DEVICE_ARCH } : {}) })) {
    macros.set(name, { variadic: false, body: lex(value, '<built-in>').tokens.slice(0, -1) });
  }
  const once = new Set<string>();
  const out: Token[] = [];
  const error = (t: { file: string; line: number; col: number; endCol?: number }, message: string, severity: 'error' | 'warning' = 'error'): void => {
    diagnostics.push({
      severity,
      message,
      line: t.line,
      column: t.col,
      ...(t.endCol !== undefined ? { endLine: t.line, endColumn: t.endCol } : {}),
      ...(t.file !== fileName ? { file: t.file } : {}),
    });
  };

  const run = (text: string, file: string, depth: number): void => {
    const lexed = lex(text, file);
    codeComments.push(...lexed.codeComments);
    for (const p of lexed.problems) error(p, p.message);
    const toks = lexed.tokens;
    // Conditional stack: active = this group emits; taken = some branch of it was taken.
    const conds: { active: boolean; taken: boolean; parentActive: boolean; elseSeen: boolean; at: Token }[] = [];
    const active = (): boolean => conds.length === 0 || conds[conds.length - 1]!.active;
    let i = 0;
    let pending: Token[] = [];
    const flush = (): void => {
      if (pending.length) out.push(...expand(pending));
      pending = [];
    };
    while (toks[i]!.kind !== 'eof') {
      const t = toks[i]!;
      if (t.bol && t.text === '#' && t.kind === 'punct') {
        // One directive: the tokens up to the next line start.
        let j = i + 1;
        while (toks[j]!.kind !== 'eof' && !toks[j]!.bol) j++;
        const line = toks.slice(i + 1, j);
        i = j;
        const name = line[0];
        if (!name) continue; // the null directive
        const d = name.text;
        if (d === 'if' || d === 'ifdef' || d === 'ifndef') {
          const parentActive = active();
          let v = false;
          if (parentActive) {
            if (d === 'if') v = evaluate(line.slice(1), name);
            else {
              const m = line[1];
              if (!m || m.kind !== 'id') error(name, `#${d} needs a macro name`);
              else v = macros.has(m.text) === (d === 'ifdef');
            }
          }
          conds.push({ active: parentActive && v, taken: v, parentActive, elseSeen: false, at: name });
          continue;
        }
        if (d === 'elif' || d === 'else' || d === 'endif') {
          const top = conds[conds.length - 1];
          if (!top) {
            error(name, `#${d} without #if`);
            continue;
          }
          if (d === 'endif') conds.pop();
          else if (top.elseSeen) error(name, `#${d} after #else`);
          else if (d === 'else') {
            top.elseSeen = true;
            top.active = top.parentActive && !top.taken;
            top.taken = true;
          } else {
            const v = top.parentActive && !top.taken && evaluate(line.slice(1), name);
            top.active = v;
            top.taken ||= v;
          }
          continue;
        }
        if (!active()) continue;
        flush();
        if (d === 'define') define(line.slice(1), name);
        else if (d === 'undef') {
          if (line[1]) macros.delete(line[1].text);
        } else if (d === 'include') include(line.slice(1), name, depth);
        else if (d === 'pragma') {
          if (line[1]?.text === 'once') once.add(file);
          else pragmas.push({ file, line: name.line, text: line.slice(1).map((x) => x.text).join(' ') });
        } else if (d === 'error') error(name, `#error ${line.slice(1).map((x) => x.text).join(' ')}`);
        else if (d === 'warning') error(name, `#warning ${line.slice(1).map((x) => x.text).join(' ')}`, 'warning');
        else if (d !== 'line' && name.kind !== 'num') error(name, `invalid preprocessing directive #${d}`);
        continue;
      }
      if (active()) pending.push(t);
      i++;
    }
    flush();
    for (const c of conds) error(c.at, `unterminated #${c.at.text}: add #endif`);
  };

  const define = (line: Token[], at: Token): void => {
    const name = line[0];
    if (!name || name.kind !== 'id') {
      error(at, 'macro name missing after #define');
      return;
    }
    // Function-like only when `(` touches the name.
    if (line[1]?.text === '(' && !line[1].space) {
      const params: string[] = [];
      let variadic = false;
      let k = 2;
      while (k < line.length && line[k]!.text !== ')') {
        const p = line[k]!;
        if (p.text === '...') variadic = true;
        else if (p.kind === 'id') params.push(p.text);
        else if (p.text !== ',') error(p, `invalid token '${p.text}' in the parameters of macro '${name.text}'`);
        k++;
      }
      if (k >= line.length) error(name, `missing ')' in the parameters of macro '${name.text}'`);
      macros.set(name.text, { params, variadic, body: line.slice(k + 1) });
    } else macros.set(name.text, { variadic: false, body: line.slice(1) });
  };

  const include = (line: Token[], at: Token, depth: number): void => {
    const first = line[0];
    if (!first) {
      error(at, '#include expects "FILENAME" or <FILENAME>');
      return;
    }
    if (first.kind === 'str') {
      const name = first.text.slice(1, -1);
      const text = files[name] ?? files[name.replace(/^\.\//, '')];
      if (text === undefined) {
        const given = Object.keys(files);
        error(first, `'${name}' file not found: add it to the files of this program${given.length ? ` (given: ${given.join(', ')})` : ''}, or remove the #include`);
        return;
      }
      if (once.has(name)) return;
      if (depth > 32) {
        error(first, `#include nested too deeply (does '${name}' include itself?)`);
        return;
      }
      run(text, name, depth + 1);
      return;
    }
    if (first.text === '<') {
      const name = line.slice(1, line.findIndex((x) => x.text === '>')).map((x) => x.text).join('');
      systemHeaders.add(name);
      if (!KNOWN_HEADERS.has(name)) error(first, `header <${name}> is not one Warpscope knows; its declarations are not available (standard C, C++ and CUDA runtime headers are)`, 'warning');
      return;
    }
    error(first, '#include expects "FILENAME" or <FILENAME>');
  };

  /** Expands macros in a token run (rescanning, with hide sets as in the C standard). */
  const expand = (input: Token[]): Token[] => {
    const result: Token[] = [];
    // A stack, last token first: expansions are pushed back to be rescanned (C's rule).
    const stack = input.slice().reverse();
    let guard = 0;
    while (stack.length) {
      if (++guard > 2_000_000) {
        error(input[0]!, 'macro expansion does not end (a macro that expands to itself through others?)');
        break;
      }
      const t = stack.pop()!;
      if (t.kind === 'id' && (t.text === '__LINE__' || t.text === '__FILE__') && !macros.has(t.text)) {
        result.push({ ...t, kind: t.text === '__LINE__' ? 'num' : 'str', text: t.text === '__LINE__' ? String(t.line) : JSON.stringify(t.file) });
        continue;
      }
      const m = t.kind === 'id' && !t.hide?.has(t.text) ? macros.get(t.text) : undefined;
      if (!m) {
        result.push(t);
        continue;
      }
      const hide = new Set(t.hide ?? []);
      hide.add(t.text);
      if (!m.params) {
        pushBack(stack, substitute(m, [], t, hide));
        continue;
      }
      if (stack[stack.length - 1]?.text !== '(') {
        result.push(t);
        continue;
      }
      // Arguments: split at top-level commas.
      const args: Token[][] = [[]];
      let depth = 0;
      let k = stack.length - 2;
      for (; k >= 0; k--) {
        const a = stack[k]!;
        if (a.text === '(') depth++;
        else if (a.text === ')') {
          if (depth === 0) break;
          depth--;
        } else if (a.text === ',' && depth === 0 && !(m.variadic && args.length > m.params.length)) {
          args.push([]);
          continue;
        }
        args[args.length - 1]!.push(a);
      }
      if (k < 0) {
        error(t, `unterminated call of macro '${t.text}': missing ')'`);
        result.push(t);
        continue;
      }
      stack.length = k;
      if (m.params.length === 0 && args.length === 1 && args[0]!.length === 0) args.length = 0;
      if (args.length !== m.params.length && !(m.variadic && args.length >= m.params.length)) {
        error(t, `macro '${t.text}' takes ${m.params.length} argument${m.params.length === 1 ? '' : 's'}, but ${args.length} ${args.length === 1 ? 'was' : 'were'} given`);
        continue;
      }
      pushBack(stack, substitute(m, args, t, hide));
    }
    return result;
  };

  /** The macro's body with its parameters replaced, stamped with the use site's position. */
  const substitute = (m: Macro, args: Token[][], use: Token, hide: Set<string>): Token[] => {
    const params = m.params ?? [];
    const argOf = (name: string): Token[] | undefined => {
      if (name === '__VA_ARGS__' && m.variadic) {
        const rest = args.slice(params.length);
        return rest.flatMap((a, i) => (i ? [{ ...use, kind: 'punct' as const, text: ',' }, ...a] : a));
      }
      const idx = params.indexOf(name);
      return idx >= 0 ? args[idx] : undefined;
    };
    const body = m.body;
    const outT: Token[] = [];
    for (let k = 0; k < body.length; k++) {
      const b = body[k]!;
      if (b.text === '#' && m.params && body[k + 1]) {
        const a = argOf(body[k + 1]!.text);
        if (a) {
          const text = a.map((x, i) => (i && x.space ? ' ' : '') + x.text).join('');
          outT.push({ ...use, kind: 'str', text: JSON.stringify(text), hide });
          k++;
          continue;
        }
      }
      const a = b.kind === 'id' ? argOf(b.text) : undefined;
      const pasteNext = body[k + 1]?.text === '##';
      const pastePrev = body[k - 1]?.text === '##';
      if (b.text === '##') continue;
      let piece: Token[];
      if (a) piece = pasteNext || pastePrev ? a : expand(a);
      else piece = [b];
      piece = piece.map((x) => ({ ...x, file: use.file, line: use.line, col: use.col, endCol: use.endCol, bol: false, hide: x.hide ? new Set([...x.hide, ...hide]) : hide }));
      if (pastePrev && outT.length && piece.length) {
        const left = outT.pop()!;
        const joined = lex(left.text + piece[0]!.text, use.file).tokens;
        if (joined.length !== 2) error(use, `pasting "${left.text}" and "${piece[0]!.text}" does not give a valid token`);
        outT.push({ ...left, kind: joined[0]!.kind, text: left.text + piece[0]!.text }, ...piece.slice(1));
      } else outT.push(...piece);
    }
    if (outT[0]) outT[0] = { ...outT[0], space: use.space };
    return outT;
  };

  /** `#if` arithmetic: `defined`, macros expanded, other identifiers 0 (C's rule). */
  const evaluate = (line: Token[], at: Token): boolean => {
    const pre: Token[] = [];
    for (let k = 0; k < line.length; k++) {
      const t = line[k]!;
      if (t.text === 'defined') {
        const paren = line[k + 1]?.text === '(';
        const name = line[k + (paren ? 2 : 1)];
        pre.push({ ...t, kind: 'num', text: name && macros.has(name.text) ? '1' : '0' });
        k += paren ? 3 : 1;
      } else pre.push(t);
    }
    const toks = expand(pre);
    let p = 0;
    const peek = (): string => toks[p]?.text ?? '';
    const fail = (msg: string): never => {
      throw new Error(msg);
    };
    const primary = (): number => {
      const t = toks[p++];
      if (!t) return fail('expected a value at the end of the #if expression');
      if (t.text === '(') {
        const v = ternary();
        if (toks[p++]?.text !== ')') fail("expected ')' in #if");
        return v;
      }
      if (t.text === '!') return primary() ? 0 : 1;
      if (t.text === '-') return -primary();
      if (t.text === '+') return primary();
      if (t.text === '~') return ~primary();
      if (t.kind === 'num') return Number.parseInt(t.text.replace(/[uUlL]+$/, ''), t.text.startsWith('0x') || t.text.startsWith('0X') ? 16 : t.text.length > 1 && t.text.startsWith('0') ? 8 : 10);
      if (t.kind === 'char') return t.text.charCodeAt(1);
      if (t.kind === 'id') return t.text === 'true' ? 1 : 0;
      return fail(`unexpected '${t.text}' in #if`);
    };
    const LEVELS: string[][] = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];
    const binary = (level: number): number => {
      if (level >= LEVELS.length) return primary();
      let v = binary(level + 1);
      while (LEVELS[level]!.includes(peek())) {
        const op = toks[p++]!.text;
        const r = binary(level + 1);
        switch (op) {
          case '||': v = v || r ? 1 : 0; break;
          case '&&': v = v && r ? 1 : 0; break;
          case '|': v |= r; break;
          case '^': v ^= r; break;
          case '&': v &= r; break;
          case '==': v = v === r ? 1 : 0; break;
          case '!=': v = v !== r ? 1 : 0; break;
          case '<': v = v < r ? 1 : 0; break;
          case '>': v = v > r ? 1 : 0; break;
          case '<=': v = v <= r ? 1 : 0; break;
          case '>=': v = v >= r ? 1 : 0; break;
          case '<<': v <<= r; break;
          case '>>': v >>= r; break;
          case '+': v += r; break;
          case '-': v -= r; break;
          case '*': v *= r; break;
          default:
            if (r === 0) fail('division by zero in #if');
            v = op === '/' ? Math.trunc(v / r) : v % r;
        }
      }
      return v;
    };
    const ternary = (): number => {
      const c = binary(0);
      if (peek() !== '?') return c;
      p++;
      const a = ternary();
      if (toks[p++]?.text !== ':') fail("expected ':' in #if");
      const b = ternary();
      return c ? a : b;
    };
    try {
      if (!toks.length) fail(`#${at.text} with no expression`);
      const v = ternary();
      if (p < toks.length) fail(`unexpected '${toks[p]!.text}' in #if`);
      return v !== 0;
    } catch (e) {
      error(at, (e as Error).message);
      return false;
    }
  };

  run(source, fileName, 0);
  const eof = lex('', fileName).tokens[0]!;
  const last = out[out.length - 1];
  out.push({ ...eof, line: last ? last.line : 1, col: last ? last.endCol : 1, endCol: last ? last.endCol : 1 });
  return { tokens: out, diagnostics, codeComments, pragmas, systemHeaders };
}
