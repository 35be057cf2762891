 
/**
 * The C and C++ library that host code calls, as builtins of the interpreter: stdio (`printf`,
 * `fprintf`, `sprintf`, `snprintf`, `puts`, `putchar`), stdlib (`malloc`, `calloc`, `free`,
 * `rand`, `srand`, `random`, `srandom`, `atoi`, `exit`, `abs`), string.h (`memset`, `memcpy`,
 * `strlen`), math.h, time (`time`, `clock`, `gettimeofday`), `assert`, `std::cout`/`std::cerr`
 * with `std::endl`, `std::fixed`, `std::scientific` and `std::setprecision`, and the constants of
 * the headers (`RAND_MAX`, `INT_MIN`, `EXIT_FAILURE`, ...), which the preprocessor does not read.
 */
import type { Range } from '../ast.ts';
import { ExitSignal, type Builtin, type Compiled, type Ev, type Interpreter, type V } from './interp.ts';
import { RAND_MAX, GlibcRandom } from './libc/rand.ts';
import { formatPrintf, PrintfError } from './libc/printf.ts';
import { byteText, encodeBytes } from './libc/bytes.ts';
import { defaultOstreamState, formatOstream, type OstreamState } from './libc/ostream.ts';
import { DOUBLE, FLOAT, HANDLE, INT, LONG, TIMEVAL, ULONG, VOID, arith, ptr, sizeOf, type HType } from './types.ts';

/** Where the program's clocks come from (tests fix them; a real run reads the machine's). */
export interface HostClock {
  /** Seconds since the epoch, for `time(NULL)`. */
  now(): number;
  /** Microseconds of processor time, for `clock()` (CLOCKS_PER_SEC is 1000000 on Linux). */
  cpuMicros(): number;
}

export const realClock: HostClock = {
  now: () => Date.now() / 1000,
  cpuMicros: () => performance.now() * 1000,
};

const STDOUT = 1;
const STDERR = 2;

/** The state the library keeps for one run. */
export class LibcState {
  readonly random = new GlibcRandom();
  readonly streams = new Map<number, OstreamState>([
    [STDOUT, defaultOstreamState()],
    [STDERR, defaultOstreamState()],
  ]);
  constructor(
    readonly clock: HostClock,
    /** The source text, for `assert`'s message. */
    readonly source: string,
    readonly programName: string,
  ) {}
}

type Impl = (interp: Interpreter, vals: V[], range: Range) => V;

/** A builtin with fixed parameter types (arguments converted as C converts them). */
function fn(ret: HType, params: readonly HType[] | 'varargs', impl: Impl): Builtin {
  return (ctx, args) => {
    const { interp, range } = ctx;
    const evs: Ev[] = args.map((a, i) => (params === 'varargs' || !params[i] ? interp.rvalue(a).ev : interp.convertTo(a, params[i]).ev));
    if (params !== 'varargs' && args.length < params.length) interp.fail(`too few arguments to function call, expected ${params.length}, have ${args.length}`, range);
    const n = evs.length;
    return {
      t: ret,
      ev: (f) => {
        const vals = new Array<V>(n);
        for (let i = 0; i < n; i++) vals[i] = evs[i]!(f);
        return impl(interp, vals, range);
      },
      range,
    };
  };
}

const constant = (t: HType, v: V): Builtin => (ctx) => ({ t, ev: () => v, range: ctx.range });

const encoder = new TextEncoder();

function format(interp: Interpreter, fmtAddr: V, rest: V[]): string {
  try {
    return formatPrintf(interp.mem.cString(Number(fmtAddr)), rest, { readString: (a) => interp.mem.cString(a) });
  } catch (e) {
    if (e instanceof PrintfError) interp.fail(e.message);
    throw e;
  }
}

function write(interp: Interpreter, stream: number, text: string): void {
  (stream === STDERR ? interp.stderr : interp.stdout).push(text);
}

const math1 = (f: (x: number) => number, t: HType = DOUBLE): Builtin => fn(t, [t], (_i, [x]) => (t === FLOAT ? Math.fround(f(x as number)) : f(x as number)));
const math2 = (f: (x: number, y: number) => number, t: HType = DOUBLE): Builtin => fn(t, [t, t], (_i, [x, y]) => (t === FLOAT ? Math.fround(f(x as number, y as number)) : f(x as number, y as number)));

/** The library builtins, bound to one run's state. */
export function libcBuiltins(state: LibcState): Record<string, Builtin> {
  const ostream = (err: boolean): Builtin => (ctx) => ({ t: { k: 'ostream', err }, ev: () => (err ? STDERR : STDOUT), range: ctx.range });
  const manip = (name: string): Builtin => (ctx) => ({ t: { k: 'manip', name }, ev: () => 0, range: ctx.range });
  const malloc = (interp: Interpreter, bytes: number, label: string): number => {
    if (bytes > 2 ** 31) return 0; // malloc fails and returns NULL
    return interp.mem.allocate(bytes, { kind: 'heap', label, line: interp.at?.line ?? 0 });
  };
  const b: Record<string, Builtin> = {
    // ---- constants of the headers ----
    RAND_MAX: constant(INT, RAND_MAX),
    INT_MAX: constant(INT, 2147483647),
    INT_MIN: constant(INT, -2147483648),
    UINT_MAX: constant(arith('unsigned int'), 4294967295),
    LONG_MAX: constant(LONG, 9223372036854775807n),
    FLT_MAX: constant(FLOAT, 3.4028234663852886e38),
    DBL_MAX: constant(DOUBLE, Number.MAX_VALUE),
    EXIT_SUCCESS: constant(INT, 0),
    EXIT_FAILURE: constant(INT, 1),
    CLOCKS_PER_SEC: constant(LONG, 1000000),
    NULL: constant(ptr(VOID), 0),
    nullptr: constant(ptr(VOID), 0),
    stdout: constant(HANDLE, STDOUT),
    stderr: constant(HANDLE, STDERR),
    // ---- stdio ----
    printf: fn(INT, 'varargs', (interp, [fmt, ...rest]) => {
      const s = format(interp, fmt!, rest);
      write(interp, STDOUT, s);
      return encodeBytes(s).length;
    }),
    fprintf: fn(INT, 'varargs', (interp, [stream, fmt, ...rest]) => {
      const s = format(interp, fmt!, rest);
      write(interp, Number(stream), s);
      return encodeBytes(s).length;
    }),
    sprintf: fn(INT, 'varargs', (interp, [dst, fmt, ...rest]) => {
      const bytes = encodeBytes(format(interp, fmt!, rest));
      const out = interp.mem.bytes(Number(dst), bytes.length + 1, true);
      out.set(bytes);
      out[bytes.length] = 0;
      return bytes.length;
    }),
    snprintf: fn(INT, 'varargs', (interp, [dst, size, fmt, ...rest]) => {
      const bytes = encodeBytes(format(interp, fmt!, rest));
      const n = Number(size);
      if (n > 0) {
        const k = Math.min(bytes.length, n - 1);
        const out = interp.mem.bytes(Number(dst), k + 1, true);
        out.set(bytes.subarray(0, k));
        out[k] = 0;
      }
      return bytes.length;
    }),
    puts: fn(INT, [ptr(arith('char'))], (interp, [s]) => (write(interp, STDOUT, `${interp.mem.cString(Number(s))}\n`), 1)),
    putchar: fn(INT, [INT], (interp, [c]) => (write(interp, STDOUT, byteText(Number(c))), Number(c) & 0xff)),
    fflush: fn(INT, 'varargs', () => 0),
    // ---- stdlib ----
    malloc: fn(ptr(VOID), [ULONG], (interp, [n]) => malloc(interp, Number(n), `malloc(${Number(n)})`)),
    calloc: fn(ptr(VOID), [ULONG, ULONG], (interp, [n, size]) => malloc(interp, Number(n) * Number(size), `calloc(${Number(n)}, ${Number(size)})`)),
    free: fn(VOID, [ptr(VOID)], (interp, [p]) => (interp.mem.free(Number(p), 'free'), 0)),
    rand: fn(INT, [], () => state.random.next()),
    random: fn(LONG, [], () => state.random.next()),
    srand: fn(VOID, [arith('unsigned int')], (_i, [s]) => (state.random.seed(Number(s)), 0)),
    srandom: fn(VOID, [arith('unsigned int')], (_i, [s]) => (state.random.seed(Number(s)), 0)),
    atoi: fn(INT, [ptr(arith('char'))], (interp, [s]) => parseInt(interp.mem.cString(Number(s)), 10) | 0 || 0),
    atof: fn(DOUBLE, [ptr(arith('char'))], (interp, [s]) => parseFloat(interp.mem.cString(Number(s))) || 0),
    exit: fn(VOID, [INT], (_i, [code]) => {
      throw new ExitSignal(Number(code) & 0xff);
    }),
    abort: fn(VOID, [], (interp) => {
      write(interp, STDERR, '');
      throw new ExitSignal(134);
    }),
    abs: fn(INT, [INT], (_i, [x]) => Math.abs(Number(x)) | 0),
    labs: fn(LONG, [LONG], (_i, [x]) => (typeof x === 'bigint' ? (x < 0n ? -x : x) : Math.abs(x ?? 0))),
    // ---- string.h ----
    memset: fn(ptr(VOID), [ptr(VOID), INT, ULONG], (interp, [p, v, n]) => (interp.mem.bytes(Number(p), Number(n), true).fill(Number(v) & 0xff), p!)),
    memcpy: fn(ptr(VOID), [ptr(VOID), ptr(VOID), ULONG], (interp, [d, s, n]) => {
      interp.mem.bytes(Number(d), Number(n), true).set(interp.mem.bytes(Number(s), Number(n), false));
      return d!;
    }),
    strlen: fn(ULONG, [ptr(arith('char'))], (interp, [s]) => encoder.encode(interp.mem.cString(Number(s))).length),
    // glibc's x86-64 strcmp returns the difference of the first differing bytes (as unsigned char).
    strcmp: fn(INT, [ptr(arith('char')), ptr(arith('char'))], (interp, [a, b]) => compareBytes(interp, Number(a), Number(b), Infinity)),
    strncmp: fn(INT, [ptr(arith('char')), ptr(arith('char')), ULONG], (interp, [a, b, n]) => compareBytes(interp, Number(a), Number(b), Number(n))),
    // ---- math.h ----
    sqrt: math1(Math.sqrt),
    sqrtf: math1(Math.sqrt, FLOAT),
    fabs: math1(Math.abs),
    fabsf: math1(Math.abs, FLOAT),
    exp: math1(Math.exp),
    expf: math1(Math.exp, FLOAT),
    log: math1(Math.log),
    logf: math1(Math.log, FLOAT),
    floor: math1(Math.floor),
    floorf: math1(Math.floor, FLOAT),
    ceil: math1(Math.ceil),
    ceilf: math1(Math.ceil, FLOAT),
    sin: math1(Math.sin),
    cos: math1(Math.cos),
    pow: math2(Math.pow),
    powf: math2(Math.pow, FLOAT),
    // fmax/fmin return the other operand when one is NaN (C11 F.10.9.2).
    fmax: math2((x, y) => (Number.isNaN(x) ? y : Number.isNaN(y) ? x : Math.max(x, y))),
    fmin: math2((x, y) => (Number.isNaN(x) ? y : Number.isNaN(y) ? x : Math.min(x, y))),
    fmaxf: math2((x, y) => (Number.isNaN(x) ? y : Number.isNaN(y) ? x : Math.max(x, y)), FLOAT),
    fminf: math2((x, y) => (Number.isNaN(x) ? y : Number.isNaN(y) ? x : Math.min(x, y)), FLOAT),
    max: (ctx, args) => minMax(ctx.interp, args, ctx.range, '>'),
    min: (ctx, args) => minMax(ctx.interp, args, ctx.range, '<'),
    // ---- time ----
    time: fn(LONG, 'varargs', (interp, [p]) => {
      const t = Math.floor(state.clock.now());
      if (p && Number(p) !== 0) interp.mem.store(Number(p), 'i64', t);
      return t;
    }),
    clock: fn(LONG, [], () => Math.floor(state.clock.cpuMicros())),
    gettimeofday: fn(INT, 'varargs', (interp, [tv]) => {
      const s = state.clock.now();
      const fields = TIMEVAL.k === 'struct' ? TIMEVAL.fields : undefined;
      const sec = Math.floor(s);
      interp.mem.store(Number(tv) + (fields?.get('tv_sec')?.offset ?? 0), 'i64', sec);
      interp.mem.store(Number(tv) + (fields?.get('tv_usec')?.offset ?? 8), 'i64', Math.floor((s - sec) * 1e6));
      return 0;
    }),
    // ---- assert ----
    assert: (ctx, args, call) => {
      const { interp, range } = ctx;
      const test = interp.truth(args[0]!);
      const text = sourceText(state.source, call.args[0]?.range);
      const fnName = 'main';
      return {
        t: VOID,
        ev: (f) => {
          if (!test(f)) {
            write(interp, STDERR, `${state.programName}: ${range.file}:${range.line}: ${fnName}: Assertion \`${text}' failed.\n`);
            throw new ExitSignal(134);
          }
          return 0;
        },
        range,
      };
    },
    // ---- iostream ----
    cout: ostream(false),
    cerr: ostream(true),
    endl: manip('endl'),
    fixed: manip('fixed'),
    scientific: manip('scientific'),
    boolalpha: manip('boolalpha'),
    setprecision: (ctx, args) => {
      const n = ctx.interp.convertTo(args[0]!, INT).ev;
      return { t: { k: 'manip', name: 'setprecision' }, ev: n, range: ctx.range };
    },
    '<<': (ctx, [l, r0]) => streamInsert(state, ctx.interp, l!, r0!, ctx.range),
  };
  for (const k of Object.keys(b)) if (!k.startsWith('std::')) b[`std::${k}`] = b[k]!;
  return b;
}

function minMax(interp: Interpreter, args: Compiled[], range: Range, op: '<' | '>'): Compiled {
  const cmp = interp.binaryExpr(op, args[0]!, args[1]!, range).ev;
  const t = interp.binaryExpr('+', args[0]!, args[1]!, range).t;
  const a = interp.convertTo(args[0]!, t).ev;
  const b = interp.convertTo(args[1]!, t).ev;
  return { t, ev: (f) => (cmp(f) ? a(f) : b(f)), range };
}

function sourceText(source: string, r: Range | undefined): string {
  if (!r) return '';
  const lines = source.split('\n');
  if (r.line !== r.endLine) return (lines[r.line - 1] ?? '').slice(r.col - 1).trim();
  return (lines[r.line - 1] ?? '').slice(r.col - 1, r.endCol - 1);
}

function streamInsert(state: LibcState, interp: Interpreter, l: Compiled, r0: Compiled, range: Range): Compiled {
  const stream = l.ev;
  const r = r0.t.k === 'manip' ? r0 : interp.rvalue(r0);
  const t = r.t;
  const ev = r.ev;
  const st = (f: Parameters<Ev>[0]): { id: number; s: OstreamState } => {
    const id = Number(stream(f));
    return { id, s: state.streams.get(id)! };
  };
  const emit = (id: number, text: string): void => write(interp, id, text);
  // Each insertion evaluates its stream once (the chain to its left) and yields the stream's id.
  let out: (f: Parameters<Ev>[0]) => number;
  if (t.k === 'manip') {
    const name = t.name;
    out = (f) => {
      const { id, s } = st(f);
      if (name === 'endl') emit(id, '\n');
      else if (name === 'fixed') s.floatfield = 'fixed';
      else if (name === 'scientific') s.floatfield = 'scientific';
      else if (name === 'boolalpha') s.boolalpha = true;
      else if (name === 'setprecision') s.precision = Number(ev(f));
      return id;
    };
  } else if (t.k === 'ptr' && t.to.k === 'arith' && (t.to.t === 'char' || t.to.t === 'unsigned char' || t.to.t === 'signed char')) {
    out = (f) => {
      const { id, s } = st(f);
      emit(id, formatOstream(s, { kind: 'string', value: interp.mem.cString(Number(ev(f))) }));
      return id;
    };
  } else if (t.k === 'ptr') {
    out = (f) => {
      const { id } = st(f);
      emit(id, formatPrintf('%p', [ev(f)]));
      return id;
    };
  } else if (t.k === 'arith') {
    const a = t.t;
    out = (f) => {
      const { id, s } = st(f);
      const v = ev(f);
      if (a === 'char' || a === 'signed char' || a === 'unsigned char') emit(id, formatOstream(s, { kind: 'char', value: Number(v) }));
      else if (a === 'bool') emit(id, formatOstream(s, { kind: 'bool', value: v !== 0 }));
      else if (a === 'float' || a === 'double') emit(id, formatOstream(s, { kind: 'float', value: Number(v) }));
      else emit(id, formatOstream(s, { kind: 'int', value: v }));
      return id;
    };
  } else {
    interp.fail(`std::cout cannot print a value of this type`, range);
  }
  void sizeOf;
  return { t: l.t, ev: out, range };
}

/** `strncmp(a, b, n)` byte by byte, every byte read checked (a missing '\0' is a fault). */
function compareBytes(interp: Interpreter, a: number, b: number, n: number): number {
  for (let i = 0; i < n; i++) {
    const x = Number(interp.mem.load(a + i, 'u8'));
    const y = Number(interp.mem.load(b + i, 'u8'));
    if (x !== y || x === 0) return x - y;
  }
  return 0;
}
