/**
 * The CUDA C/C++ parser: preprocessed tokens → `TranslationUnit`, for the whole file (host code
 * too: `main`, `std::vector<T>`, `std::cout << …`, `new T[n]`, launches `k<<<g, b, s>>>(…)`).
 * Every syntax error is reported, in clang's words, and the parser resumes at the next statement
 * or declaration. C++ beyond teaching code (classes with methods, lambdas, operator overloading,
 * exceptions) is skipped with a diagnostic rather than misread.
 */
import type { Declarator, Expr, FunctionDecl, Param, Range, Stmt, Storage, TemplateArg, TemplateParam, TopLevel, TranslationUnit, TypeRef } from './ast.ts';
import { charValue, stringValue, type CodeComment, type Token } from './lexer.ts';
import { preprocess } from './preprocess.ts';
import type { CompileOptions, Diagnostic } from './types.ts';

/** Type words; `half` joins them only where `cuda_fp16.h` declares it (elsewhere it is an ordinary name). */
const BASIC = new Set(['void', 'bool', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', '__half']);
const BASIC_WITH_HALF = new Set([...BASIC, 'half']);
const QUALIFIERS = new Set(['const', 'volatile', '__restrict__', '__restrict', 'restrict', 'static', 'extern', 'inline', '__inline__', '__forceinline__', '__noinline__', 'constexpr', 'register', 'auto', '__shared__', '__constant__', '__device__', '__managed__', '__host__', '__global__', 'struct', 'typename', 'unsigned', 'signed']);
/** Type names every CUDA program sees (runtime types, fixed-width integers). */
const KNOWN_TYPES = [
  'size_t', 'ssize_t', 'ptrdiff_t', 'dim3', 'uint3', 'int2', 'int3', 'int4', 'float2', 'float3', 'float4', 'uint2', 'uint4',
  'cudaEvent_t', 'cudaError_t', 'cudaStream_t', 'cudaDeviceProp', 'cudaMemcpyKind', 'FILE', 'clock_t', 'time_t',
  'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'timeval', 'timespec',
  'string', 'vector',
];
const STD_TYPES = new Set(['vector', 'string', 'pair', 'array', 'size_t', 'chrono', 'mt19937', 'uniform_int_distribution', 'uniform_real_distribution', 'default_random_engine']);

export interface ParseResult {
  readonly unit: TranslationUnit;
  readonly diagnostics: Diagnostic[];
  /** The preprocessed tokens (the host interpreter and the lowering read positions from them). */
  readonly tokens: readonly Token[];
}

class ParseError extends Error {}

/** Preprocesses and parses `source`; never throws. */
export function parseCuda(source: string, options: CompileOptions = {}): ParseResult {
  const fileName = options.fileName ?? 'kernel.cu';
  const pp = preprocess(source, fileName, options.files ?? {}, options.device ?? false);
  const p = new Parser(pp.tokens, fileName, pp.codeComments, pp.systemHeaders.has('cuda_fp16.h') ? BASIC_WITH_HALF : BASIC);
  const unit = p.unit();
  return { unit, diagnostics: [...pp.diagnostics, ...p.diagnostics], tokens: pp.tokens };
}

class Parser {
  readonly diagnostics: Diagnostic[] = [];
  private i = 0;
  private readonly types = new Set(KNOWN_TYPES);
  private readonly templates = new Set<string>();
  /** Inside `<<<…>>>` or template arguments, `>`/`>>` close rather than compare or shift. */
  private angle = 0;

  constructor(
    private readonly toks: readonly Token[],
    private readonly fileName: string,
    private readonly codeComments: readonly CodeComment[],
    /** The type words of this translation unit (`BASIC`, with `half` where its header is included). */
    private readonly basic: ReadonlySet<string> = BASIC,
  ) {}

  // ---- tokens ----
  private peek(k = 0): Token {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)]!;
  }
  private next(): Token {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }
  private is(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.text === text && t.kind !== 'str' && t.kind !== 'char';
  }
  private accept(text: string): boolean {
    if (this.is(text)) {
      this.i++;
      return true;
    }
    return false;
  }
  private expect(text: string, context: string): Token {
    if (this.is(text)) return this.next();
    this.fail(`expected '${text}' ${context}`, this.errorAt());
  }
  /** The `( expression )` after `keyword` (if, while, switch): its condition or the value it switches on. */
  private parenthesized(keyword: string, what: 'condition' | 'value'): Expr {
    this.expect('(', `after '${keyword}'`);
    const inside = this.expression();
    this.expect(')', `to close the '${keyword}' ${what}`);
    return inside;
  }
  /** clang points at the token after the one a `;` should follow. */
  private errorAt(): Token {
    return this.peek();
  }
  private fail(message: string, at: Token = this.peek()): never {
    this.report(message, at);
    throw new ParseError(message);
  }
  private report(message: string, at: { file: string; line: number; col: number; endCol?: number }, severity: 'error' | 'warning' = 'error'): void {
    if (this.diagnostics.some((d) => d.line === at.line && d.column === at.col && d.severity === severity)) return;
    this.diagnostics.push({
      severity,
      message,
      line: at.line,
      column: at.col,
      ...(at.endCol !== undefined ? { endLine: at.line, endColumn: at.endCol } : {}),
      ...(at.file !== this.fileName ? { file: at.file } : {}),
    });
  }
  private range(start: Token): Range {
    const last = this.toks[Math.max(this.i - 1, 0)]!;
    const end = last.line < start.line || (last.line === start.line && last.endCol < start.col) ? start : last;
    return { file: start.file, line: start.line, col: start.col, endLine: end.line, endCol: end.endCol };
  }

  // ---- top level ----
  unit(): TranslationUnit {
    const items: TopLevel[] = [];
    while (this.peek().kind !== 'eof') {
      const start = this.i;
      try {
        items.push(...this.topLevel());
      } catch (e) {
        if (!(e instanceof ParseError)) throw e;
        this.recoverTop();
      }
      if (this.i === start) this.next();
    }
    return { items };
  }

  private recoverTop(): void {
    let depth = 0;
    while (this.peek().kind !== 'eof') {
      const t = this.next();
      if (t.text === '{') depth++;
      else if (t.text === '}') {
        depth--;
        if (depth <= 0) {
          this.accept(';');
          return;
        }
      } else if (t.text === ';' && depth === 0) return;
    }
  }

  private topLevel(): TopLevel[] {
    const start = this.peek();
    if (this.accept(';')) return [];
    if (this.is('using') && this.peek(1).kind === 'id' && this.is('=', 2)) {
      // C++ [dcl.typedef]: `using real = float;` is a typedef.
      this.next();
      const name = this.next();
      this.next();
      const q = this.storageAndQualifiers();
      const type = this.pointers(this.typeSpec(q.quals));
      this.types.add(name.text);
      this.expect(';', "after 'using' alias");
      return [{ kind: 'typedef', name: name.text, type, range: this.range(start) }];
    }
    if (this.is('using')) {
      while (!this.is(';') && this.peek().kind !== 'eof') this.next();
      this.expect(';', "after 'using' declaration");
      return [{ kind: 'using', text: 'using', range: this.range(start) }];
    }
    if (this.is('extern') && this.peek(1).kind === 'str') {
      this.next();
      this.next();
      if (this.accept('{')) {
        const items: TopLevel[] = [];
        while (!this.is('}') && this.peek().kind !== 'eof') items.push(...this.topLevel());
        this.expect('}', 'to end the extern "C" block');
        return items;
      }
    }
    if (this.is('typedef')) return [this.typedef()];
    if (this.is('namespace')) {
      this.report("namespaces are not supported: declare the functions at file scope", start);
      throw new ParseError('namespace');
    }
    if ((this.is('template') && !this.is('<', 1)) || (this.is('extern') && this.is('template', 1))) return [this.explicitInstantiation()];
    let template: TemplateParam[] | undefined;
    if (this.is('template')) {
      template = this.templateParams();
      // C++ [temp.expl.spec]: `template<> … f<0>(…)`, a body for one argument list.
      if (!template.length) this.fail("explicit specialization ('template<>') is not supported: write one template whose body tests the template parameter (if (N == 0) …), or a separate function with its own name", start);
    }
    if ((this.is('struct') || this.is('class')) && (this.peek(2).text === '{' || (this.peek(1).text === '{'))) {
      const s = this.structDecl();
      this.accept(';');
      return [s];
    }
    const storage = this.storageAndQualifiers();
    const type = this.typeSpec(storage.quals);
    // A declarator: function or variables.
    const ptrs = this.pointers(type);
    const nameTok = this.peek();
    if (nameTok.kind !== 'id') this.fail(`expected a name after the type '${type.base}'`, nameTok);
    this.next();
    // `Type::method` definitions of classes are outside the subset.
    if (this.is('(')) {
      if (template) for (const tp of template) if (tp.kind === 'type') this.types.add(tp.name);
      if (template) this.templates.add(nameTok.text);
      const fn = this.functionRest(start, nameTok, ptrs, storage, template);
      return [fn];
    }
    const decl = this.declRest(start, storage.storage, ptrs, nameTok);
    return [{ kind: 'var', decl, range: decl.range }];
  }

  /** `[extern] template [__global__|__device__…] T name[<args>](types);` (C++ [temp.explicit]). */
  private explicitInstantiation(): TopLevel {
    const start = this.peek();
    const isExtern = this.accept('extern');
    this.expect('template', "in an explicit instantiation");
    const q = this.storageAndQualifiers();
    this.pointers(this.typeSpec(q.quals));
    const nameTok = this.peek();
    if (nameTok.kind !== 'id') this.fail("expected the name of the function template to instantiate after 'template'", nameTok);
    this.next();
    const nameRange: Range = { file: nameTok.file, line: nameTok.line, col: nameTok.col, endLine: nameTok.line, endCol: nameTok.endCol };
    if (!this.templates.has(nameTok.text)) this.fail(`explicit instantiation of undeclared template '${nameTok.text}': declare the template (template <typename T> …) before instantiating it`, nameTok);
    const templateArgs = this.is('<') ? this.templateArgs() : undefined;
    if (!this.is('(')) this.fail(`expected '(' after '${nameTok.text}' in an explicit instantiation: only function templates can be instantiated here`, this.peek());
    this.next();
    const paramTypes: TypeRef[] = [];
    if (this.is('void') && this.is(')', 1)) this.next();
    while (!this.is(')') && this.peek().kind !== 'eof') {
      const pq = this.storageAndQualifiers();
      let t = this.pointers(this.typeSpec(pq.quals));
      if (this.peek().kind === 'id') this.next();
      while (this.accept('[')) {
        if (!this.is(']')) this.conditional();
        this.expect(']', 'to close the array parameter');
        t = { ...t, pointers: [...t.pointers, false] };
      }
      paramTypes.push(t);
      if (!this.accept(',')) break;
    }
    this.expect(')', 'to close the parameter list');
    if (this.is('{')) this.fail("an explicit instantiation has no body: to give one argument list its own body, write a separate function", this.peek());
    this.expect(';', 'after the explicit instantiation');
    return { kind: 'instantiation', name: nameTok.text, nameRange, ...(templateArgs ? { templateArgs } : {}), paramTypes, global: q.quals.has('__global__'), isExtern, range: this.range(start) };
  }

  private typedef(): TopLevel {
    const start = this.next();
    if ((this.is('struct') || this.is('class')) && (this.is('{', 1) || this.is('{', 2))) {
      const s = this.structDecl();
      const name = this.next();
      this.types.add(name.text);
      this.expect(';', 'after typedef');
      return { ...s, name: name.text };
    }
    const q = this.storageAndQualifiers();
    const type = this.pointers(this.typeSpec(q.quals));
    const name = this.next();
    if (name.kind !== 'id') this.fail('expected a name in typedef', name);
    this.types.add(name.text);
    this.expect(';', 'after typedef');
    return { kind: 'typedef', name: name.text, type, range: this.range(start) };
  }

  private structDecl(): TopLevel & { kind: 'struct' } {
    const start = this.next();
    const nameTok = this.is('{') ? undefined : this.next();
    const name = nameTok?.text ?? `anonymous${start.line}`;
    this.types.add(name);
    this.expect('{', 'to open the struct');
    const fields: Declarator[] = [];
    while (!this.is('}') && this.peek().kind !== 'eof') {
      const fstart = this.peek();
      if (this.is('public') || this.is('private') || this.is('protected')) {
        this.next();
        this.expect(':', 'after the access specifier');
        continue;
      }
      const q = this.storageAndQualifiers();
      const t = this.typeSpec(q.quals);
      const ptrs = this.pointers(t);
      const n = this.next();
      if (this.is('(')) {
        this.report(`member functions are not supported in a struct (in '${name}'): write a free function that takes the struct`, n);
        this.skipBalanced();
        continue;
      }
      const d = this.declRest(fstart, q.storage, ptrs, n);
      fields.push(...d.vars);
    }
    this.expect('}', 'to close the struct');
    return { kind: 'struct', name, fields, range: this.range(start) };
  }

  /** Skips a member function: its parameter list and body or `;`. */
  private skipBalanced(): void {
    let depth = 0;
    while (this.peek().kind !== 'eof') {
      const t = this.next();
      if (t.text === '{' || t.text === '(') depth++;
      else if (t.text === '}' || t.text === ')') {
        depth--;
        if (depth === 0 && t.text === '}') return;
      } else if (t.text === ';' && depth === 0) return;
    }
  }

  private templateParams(): TemplateParam[] {
    this.next();
    this.expect('<', "after 'template'");
    const params: TemplateParam[] = [];
    this.angle++;
    while (!this.is('>')) {
      const start = this.peek();
      if (this.accept('typename') || this.accept('class')) {
        const n = this.next();
        params.push({ kind: 'type', name: n.text, range: this.range(start) });
        this.types.add(n.text);
        if (this.accept('=')) this.typeSpec(new Set());
      } else {
        const q = this.storageAndQualifiers();
        const t = this.typeSpec(q.quals);
        const n = this.next();
        params.push({ kind: 'value', name: n.text, valueType: t, range: this.range(start) });
        if (this.accept('=')) this.assignment();
      }
      if (!this.accept(',')) break;
    }
    this.angle--;
    this.expect('>', 'to close the template parameters');
    return params;
  }

  private storageAndQualifiers(): { storage: Storage; quals: Set<string>; fn: Set<string> } {
    const quals = new Set<string>();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'id') break;
      if (t.text === '__launch_bounds__' || t.text === '__align__' || t.text === 'alignas') {
        this.next();
        this.expect('(', `after '${t.text}'`);
        let d = 1;
        while (d > 0 && this.peek().kind !== 'eof') {
          const x = this.next();
          if (x.text === '(') d++;
          else if (x.text === ')') d--;
        }
        continue;
      }
      if (!QUALIFIERS.has(t.text) || t.text === 'unsigned' || t.text === 'signed') break;
      quals.add(t.text);
      this.next();
    }
    const storage: Storage = {
      shared: quals.has('__shared__'),
      constant: quals.has('__constant__'),
      device: quals.has('__device__'),
      managed: quals.has('__managed__'),
      extern: quals.has('extern'),
      static: quals.has('static'),
    };
    return { storage, quals, fn: quals };
  }

  private isTypeStart(k = 0): boolean {
    const t = this.peek(k);
    if (t.kind !== 'id') return false;
    if (this.basic.has(t.text) || QUALIFIERS.has(t.text)) return true;
    if (t.text === 'std' && this.is('::', k + 1)) return STD_TYPES.has(this.peek(k + 2).text);
    if (this.types.has(t.text)) {
      // `T x`, `T *x`, `T<…> x`, `T::…`; not `T(…)` used as a cast-call (handled by the expression parser).
      const n = this.peek(k + 1);
      return n.kind === 'id' || n.text === '*' || n.text === '&' || n.text === '<' || n.text === '::';
    }
    return false;
  }

  /**
   * Whether a `for` header (just after its `(`) is C++11's `decl : range`: a `:` at the header's
   * own depth before any `;` or `?` (a `?:` in a classic header's init is not one).
   */
  private rangeForAhead(): boolean {
    if (!this.isTypeStart() && !this.is('auto') && !this.is('const')) return false;
    let depth = 0;
    for (let k = 0; ; k++) {
      const t = this.peek(k);
      if (t.kind === 'eof') return false;
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
      else if (t.text === ')' || t.text === ']' || t.text === '}') {
        if (depth-- === 0) return false;
      } else if (depth === 0 && (t.text === ';' || t.text === '?')) return false;
      else if (depth === 0 && t.text === ':') return true;
    }
  }

  /** Base type with its qualifiers, before any `*`. */
  private typeSpec(quals: Set<string>): TypeRef {
    const start = this.peek();
    const words: string[] = [];
    let name = '';
    let templateArgs: TemplateArg[] | undefined;
    // C++ [dcl.spec.auto]: `auto x = …` (also `auto *p`, `const auto&`): the type comes from the initializer.
    if (quals.has('auto') && start.kind === 'id' && (this.is('=', 1) || this.is('(', 1) || this.is('{', 1) || this.is(':', 1)) || quals.has('auto') && (start.text === '*' || start.text === '&' || start.text === '&&')) {
      return { kind: 'type', base: 'auto', isConst: quals.has('const') || quals.has('constexpr'), pointers: [], restrict: false, reference: false, range: this.range(start) };
    }
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'id') break;
      if (t.text === 'const' || t.text === 'volatile' || t.text === '__restrict__' || t.text === 'struct' || t.text === 'typename' || t.text === 'static' || t.text === 'inline' || t.text === '__device__' || t.text === '__host__' || t.text === '__forceinline__' || t.text === 'constexpr') {
        quals.add(t.text);
        this.next();
        continue;
      }
      if (this.basic.has(t.text)) {
        if (name) break;
        words.push(t.text);
        this.next();
        continue;
      }
      if (words.length || name) break;
      // A named type: possibly qualified (`std::vector`) and templated.
      name = this.next().text;
      while (this.is('::') && this.peek(1).kind === 'id') {
        this.next();
        name += `::${this.next().text}`;
      }
      if (this.is('<')) templateArgs = this.templateArgs();
    }
    if (!words.length && !name) {
      if (quals.size) words.push('int');
      else this.fail(`expected a type, found '${start.text || 'end of file'}'`, start);
    }
    const base = name || canonical(words);
    return {
      kind: 'type',
      base,
      isConst: quals.has('const') || quals.has('constexpr'),
      pointers: [],
      restrict: quals.has('__restrict__') || quals.has('__restrict') || quals.has('restrict'),
      reference: false,
      ...(quals.has('volatile') ? { isVolatile: true } : {}),
      ...(templateArgs ? { templateArgs } : {}),
      range: this.range(start),
    };
  }

  private templateArgs(): TemplateArg[] {
    this.expect('<', 'to open template arguments');
    const args: TemplateArg[] = [];
    this.angle++;
    while (!this.is('>') && !this.is('>>') && this.peek().kind !== 'eof') {
      if (this.isTypeStart() || (this.peek().kind === 'id' && this.basic.has(this.peek().text)) || (this.types.has(this.peek().text) && (this.is(',', 1) || this.is('>', 1) || this.is('*', 1)))) {
        const q = this.storageAndQualifiers();
        args.push(this.pointers(this.typeSpec(q.quals)));
      } else args.push(this.conditional());
      if (!this.accept(',')) break;
    }
    this.angle--;
    // `vector<vector<int>>`: split a `>>` into two closings.
    if (this.is('>>')) {
      const t = this.peek();
      (this.toks as Token[])[this.i] = { ...t, text: '>', col: t.col + 1 };
      return args;
    }
    this.expect('>', 'to close the template arguments');
    return args;
  }

  /** `*`, `* const`, `&`, `__restrict__` after a base type. */
  private pointers(base: TypeRef): TypeRef {
    const pointers = [...base.pointers];
    let restrict = base.restrict;
    let reference = base.reference;
    for (;;) {
      if (this.accept('*')) pointers.push(false);
      else if (this.accept('&')) reference = true;
      else if (this.is('&&')) {
        this.next();
        reference = true;
      } else if (this.is('const') && pointers.length) {
        this.next();
        pointers[pointers.length - 1] = true;
      } else if (this.is('__restrict__') || this.is('__restrict') || this.is('restrict') || this.is('volatile')) {
        if (!this.is('volatile')) restrict = true;
        this.next();
      } else break;
    }
    return { ...base, pointers, restrict, reference };
  }

  private functionRest(start: Token, nameTok: Token, returnType: TypeRef, q: { quals: Set<string> }, template?: TemplateParam[]): FunctionDecl {
    const nameRange: Range = { file: nameTok.file, line: nameTok.line, col: nameTok.col, endLine: nameTok.line, endCol: nameTok.endCol };
    this.expect('(', 'to open the parameter list');
    const params: Param[] = [];
    if (this.is('void') && this.is(')', 1)) this.next();
    while (!this.is(')') && this.peek().kind !== 'eof') {
      const ps = this.peek();
      if (this.accept('...')) break;
      const pq = this.storageAndQualifiers();
      let t = this.pointers(this.typeSpec(pq.quals));
      let name = '';
      if (this.peek().kind === 'id') name = this.next().text;
      let array = false;
      while (this.accept('[')) {
        if (!this.is(']')) this.conditional();
        this.expect(']', 'to close the array parameter');
        if (!array) t = { ...t, pointers: [...t.pointers, false] };
        array = true;
      }
      const defaultValue = this.accept('=') ? this.conditional() : undefined;
      params.push({ name, type: t, array, ...(defaultValue ? { defaultValue } : {}), range: this.range(ps) });
      if (!this.accept(',')) break;
    }
    this.expect(')', 'to close the parameter list');
    while (this.is('const') || this.is('noexcept')) this.next();
    const quals = q.quals;
    const global = quals.has('__global__');
    const device = quals.has('__device__') || global;
    const host = quals.has('__host__') || !device;
    const base = { kind: 'function' as const, name: nameTok.text, returnType, params, global, device, host, ...(template ? { template } : {}), nameRange };
    if (this.accept(';')) return { ...base, range: this.range(start) };
    if (!this.is('{')) this.fail(`expected ';' or a function body after the declaration of '${nameTok.text}'`, this.errorAt());
    const body = this.block();
    return { ...base, body, range: this.range(start) };
  }

  private declRest(start: Token, storage: Storage, type: TypeRef, first: Token): Extract<Stmt, { kind: 'decl' }> {
    const base: TypeRef = { ...type, pointers: [], reference: false };
    const vars: Declarator[] = [];
    let nameTok = first;
    let t = type;
    for (;;) {
      const dims: (Expr | null)[] = [];
      while (this.accept('[')) {
        if (this.accept(']')) {
          dims.push(null);
          continue;
        }
        dims.push(this.expression());
        this.expect(']', 'to close the array size');
      }
      let init: Expr | undefined;
      let ctorArgs: Expr[] | undefined;
      if (this.accept('=')) init = this.is('{') ? this.initList() : this.assignment();
      else if (this.is('{')) init = this.initList();
      else if (this.is('(')) {
        this.next();
        ctorArgs = [];
        while (!this.is(')') && this.peek().kind !== 'eof') {
          ctorArgs.push(this.assignment());
          if (!this.accept(',')) break;
        }
        this.expect(')', 'to close the constructor arguments');
      }
      vars.push({ name: nameTok.text, type: t, dims, ...(init ? { init } : {}), ...(ctorArgs ? { ctorArgs } : {}), range: this.range(nameTok) });
      if (!this.accept(',')) break;
      t = this.pointers(base);
      nameTok = this.next();
      if (nameTok.kind !== 'id') this.fail('expected a variable name after \',\'', nameTok);
    }
    if (!this.is(';')) {
      const prev = this.toks[this.i - 1]!;
      // clang reports a missing ';' just after the declaration when the next token is on a later line.
      this.report("expected ';' after the declaration", this.peek().line === prev.line ? this.peek() : { file: prev.file, line: prev.line, col: prev.endCol });
      throw new ParseError(';');
    }
    this.next();
    return { kind: 'decl', storage, vars, range: this.range(start) };
  }

  private initList(): Expr {
    const start = this.expect('{', 'to open the initializer');
    const items: Expr[] = [];
    while (!this.is('}') && this.peek().kind !== 'eof') {
      items.push(this.is('{') ? this.initList() : this.assignment());
      if (!this.accept(',')) break;
    }
    this.expect('}', 'to close the initializer');
    return { kind: 'init', items, range: this.range(start) };
  }

  // ---- statements ----
  private block(): Extract<Stmt, { kind: 'block' }> {
    const open = this.expect('{', 'to open the block');
    const body: Stmt[] = [];
    while (!this.is('}')) {
      if (this.peek().kind === 'eof') {
        const hidden = this.codeComments.find((c) => c.line >= open.line);
        this.report(
          `expected '}' at end of input, to match the '{' at line ${open.line}, column ${open.col}` +
            (hidden ? `; the '//' comment at line ${hidden.line} runs to the end of that line and hides the code after it (were the line breaks lost when the code was copied?)` : ''),
          this.peek(),
        );
        return { kind: 'block', body, range: this.range(open) };
      }
      body.push(this.statementRecovering());
    }
    this.next();
    return { kind: 'block', body, range: this.range(open) };
  }

  private statementRecovering(): Stmt {
    const start = this.peek();
    const at = this.i;
    try {
      return this.statement();
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      if (this.i === at) this.next();
      // Resume after the next `;` at this nesting, or before a `}` that closes the block.
      let depth = 0;
      while (this.peek().kind !== 'eof') {
        if (this.is('}') && depth === 0) break;
        const t = this.next();
        if (t.text === '{' || t.text === '(') depth++;
        else if (t.text === '}' || t.text === ')') depth = Math.max(0, depth - 1);
        else if (t.text === ';' && depth === 0) break;
      }
      return { kind: 'empty', range: this.range(start) };
    }
  }

  private statement(): Stmt {
    const start = this.peek();
    const t = start.text;
    if (start.kind === 'id') {
      switch (t) {
        case 'if': {
          this.next();
          const test = this.parenthesized('if', 'condition');
          const then = this.statementRecovering();
          const alt = this.accept('else') ? this.statementRecovering() : undefined;
          return { kind: 'if', test, then, ...(alt ? { else: alt } : {}), range: this.range(start) };
        }
        case 'for': {
          this.next();
          this.expect('(', "after 'for'");
          if (this.rangeForAhead()) {
            const q = this.storageAndQualifiers();
            const type = this.pointers(this.typeSpec(q.quals));
            const nameTok = this.peek();
            if (nameTok.kind !== 'id') this.fail(`expected a variable name after the type '${type.base}'`, nameTok);
            this.next();
            const nameRange = this.range(nameTok);
            this.expect(':', "in range-based 'for' statement");
            const over = this.is('{') ? this.initList() : this.expression();
            this.expect(')', "to close the 'for' header");
            const body = this.statementRecovering();
            return { kind: 'forRange', name: nameTok.text, type, nameRange, over, body, range: this.range(start) };
          }
          let init: Stmt | undefined;
          if (!this.accept(';')) init = this.isTypeStart() ? this.declaration() : this.exprStatement();
          const test = this.is(';') ? undefined : this.expression();
          this.expect(';', "in 'for' statement");
          const update = this.is(')') ? undefined : this.expression();
          this.expect(')', "to close the 'for' header");
          const body = this.statementRecovering();
          return { kind: 'for', ...(init ? { init } : {}), ...(test ? { test } : {}), ...(update ? { update } : {}), body, range: this.range(start) };
        }
        case 'while':
        case 'switch': {
          // `keyword (expression) statement`: the loop's condition, or the value switched on.
          this.next();
          const test = this.parenthesized(t, t === 'while' ? 'condition' : 'value');
          const body = this.statementRecovering();
          return { kind: t, test, body, range: this.range(start) };
        }
        case 'do': {
          this.next();
          const body = this.statementRecovering();
          this.expect('while', "after the 'do' body");
          const test = this.parenthesized('while', 'condition');
          this.expect(';', "after 'do … while (…)'");
          return { kind: 'do', body, test, range: this.range(start) };
        }
        case 'return': {
          this.next();
          const arg = this.is(';') ? undefined : this.expression();
          this.expect(';', 'after return statement');
          return { kind: 'return', ...(arg ? { arg } : {}), range: this.range(start) };
        }
        case 'break':
        case 'continue':
          this.next();
          this.expect(';', `after '${t}'`);
          return { kind: t, range: this.range(start) };
        case 'case': {
          this.next();
          const test = this.conditional();
          this.expect(':', "after 'case' value");
          return { kind: 'case', test, range: this.range(start) };
        }
        case 'default':
          if (this.is(':', 1)) {
            this.next();
            this.next();
            return { kind: 'default', range: this.range(start) };
          }
          break;
        case 'goto':
        case 'try':
        case 'throw':
        case 'asm': {
          const what = t === 'asm' ? 'inline PTX (asm)' : t === 'goto' ? "'goto'" : 'exceptions';
          this.report(`${what} ${t === 'asm' ? 'is' : 'are'} outside the CUDA subset Warpscope runs: ${t === 'goto' ? "use a loop with 'break' or 'continue'" : t === 'asm' ? 'use the CUDA intrinsic that the PTX implements' : 'return an error code instead'}`, start);
          throw new ParseError(t);
        }
        default:
          if (this.peek(1).text === ':' && !this.is('::', 1) && !this.types.has(t) && start.kind === 'id' && this.angle === 0) {
            this.report("labels are outside the CUDA subset Warpscope runs: use a loop with 'break' or 'continue'", start);
            this.next();
            this.next();
            return { kind: 'empty', range: this.range(start) };
          }
      }
      if (this.isTypeStart()) return this.declaration();
      const n = this.peek(1);
      if (n.kind === 'id' && (this.peek(2).text === ';' || this.peek(2).text === '=' || this.peek(2).text === '[' || this.peek(2).text === ',') && !QUALIFIERS.has(n.text)) {
        this.fail(`unknown type name '${t}'`, start);
      }
    }
    if (t === '{' && start.kind === 'punct') return this.block();
    if (t === ';' && start.kind === 'punct') {
      this.next();
      return { kind: 'empty', range: this.range(start) };
    }
    return this.exprStatement();
  }

  private declaration(): Stmt {
    const start = this.peek();
    const q = this.storageAndQualifiers();
    if ((this.is('struct') || this.is('class')) && this.is('{', 2)) {
      this.report('a struct defined inside a function is not supported: define it at file scope', start);
      throw new ParseError('struct');
    }
    const type = this.typeSpec(q.quals);
    const ptrs = this.pointers(type);
    const nameTok = this.peek();
    if (nameTok.kind !== 'id') {
      if (this.is(';')) {
        this.next();
        return { kind: 'empty', range: this.range(start) };
      }
      this.fail(`expected a variable name after the type '${type.base}'`, nameTok);
    }
    this.next();
    return this.declRest(start, q.storage, ptrs, nameTok);
  }

  private exprStatement(): Stmt {
    const start = this.peek();
    const expr = this.expression();
    if (!this.is(';')) {
      const prev = this.toks[this.i - 1]!;
      // clang reports a missing ';' just after the previous token.
      this.report("expected ';' after expression", this.peek().line === prev.line ? this.peek() : { file: prev.file, line: prev.line, col: prev.endCol });
      throw new ParseError(';');
    }
    this.next();
    return { kind: 'expr', expr, range: this.range(start) };
  }

  // ---- expressions ----
  private expression(): Expr {
    const start = this.peek();
    let e = this.assignment();
    while (this.is(',') && this.angle === 0) {
      this.next();
      const right = this.assignment();
      e = { kind: 'comma', left: e, right, range: this.range(start) };
    }
    return e;
  }

  private assignment(): Expr {
    const start = this.peek();
    const left = this.conditional();
    const op = this.peek().text;
    if (this.peek().kind === 'punct' && ['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>='].includes(op)) {
      this.next();
      const right = this.is('{') ? this.initList() : this.assignment();
      return { kind: 'assign', op, left, right, range: this.range(start) };
    }
    return left;
  }

  private conditional(): Expr {
    const start = this.peek();
    const test = this.binary(0);
    if (!this.accept('?')) return test;
    const a = this.expressionNoComma();
    this.expect(':', "in the conditional expression '?:'");
    const b = this.assignment();
    return { kind: 'cond', test, then: a, else: b, range: this.range(start) };
  }

  private expressionNoComma(): Expr {
    const saved = this.angle;
    this.angle = 0;
    const e = this.assignment();
    this.angle = saved;
    return e;
  }

  private static readonly LEVELS: readonly (readonly string[])[] = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];

  private binary(level: number): Expr {
    if (level >= Parser.LEVELS.length) return this.unary();
    const start = this.peek();
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'punct' || !Parser.LEVELS[level]!.includes(t.text)) break;
      if (this.angle > 0 && (t.text === '>' || t.text === '>>')) break;
      this.next();
      const right = this.binary(level + 1);
      left = { kind: 'binary', op: t.text, left, right, range: this.range(start) };
    }
    return left;
  }

  private unary(): Expr {
    const start = this.peek();
    const t = start.text;
    if (start.kind === 'punct' && ['-', '+', '!', '~', '*', '&', '++', '--'].includes(t)) {
      this.next();
      const arg = this.unary();
      return { kind: 'unary', op: t as '-', postfix: false, arg, range: this.range(start) };
    }
    if (start.kind === 'id' && t === 'sizeof') {
      this.next();
      // sizeof(type): a type-name alone in the parentheses (`sizeof(size_t)`, `sizeof(int4)`,
      // `sizeof(Padded)`) or followed by `*`s.
      const typeName = this.is('(') && this.peek(1).kind === 'id' && (this.basic.has(this.peek(1).text) || (this.types.has(this.peek(1).text) && (this.is(')', 2) || this.is('*', 2))));
      if ((this.is('(') && this.isTypeStart(1)) || typeName) {
        this.next();
        const q = this.storageAndQualifiers();
        const type = this.pointers(this.typeSpec(q.quals));
        this.expect(')', "to close 'sizeof'");
        return { kind: 'sizeof', type, range: this.range(start) };
      }
      const arg = this.unary();
      return { kind: 'sizeof', arg, range: this.range(start) };
    }
    if (start.kind === 'id' && (t === 'new' || t === 'delete')) {
      this.next();
      if (t === 'delete') {
        const array = this.accept('[') && !!this.expect(']', "in 'delete[]'");
        return { kind: 'delete', arg: this.unary(), array, range: this.range(start) };
      }
      const q = this.storageAndQualifiers();
      const type = this.pointers(this.typeSpec(q.quals));
      let count: Expr | undefined;
      let args: Expr[] | undefined;
      if (this.accept('[')) {
        count = this.expression();
        this.expect(']', "to close 'new[]'");
      } else if (this.accept('(')) {
        args = this.callArgs();
      }
      return { kind: 'new', type, ...(count ? { count } : {}), ...(args ? { args } : {}), range: this.range(start) };
    }
    // A C cast `(type) x`.
    if (t === '(' && start.kind === 'punct' && (this.isTypeStart(1) || (this.peek(1).kind === 'id' && this.types.has(this.peek(1).text) && (this.is(')', 2) || this.is('*', 2))))) {
      this.next();
      const q = this.storageAndQualifiers();
      const type = this.pointers(this.typeSpec(q.quals));
      this.expect(')', 'to close the cast');
      const arg = this.unary();
      return { kind: 'cast', type, arg, style: 'c', range: this.range(start) };
    }
    return this.postfix(this.primary());
  }

  private callArgs(): Expr[] {
    const args: Expr[] = [];
    while (!this.is(')') && this.peek().kind !== 'eof') {
      args.push(this.expressionNoComma());
      if (!this.accept(',')) break;
    }
    this.expect(')', 'to close the argument list');
    return args;
  }

  private postfix(e: Expr): Expr {
    const start = e.range;
    const r = (): Range => {
      const last = this.toks[this.i - 1]!;
      return { file: start.file, line: start.line, col: start.col, endLine: last.line, endCol: last.endCol };
    };
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'punct') break;
      if (t.text === '(') {
        this.next();
        e = { kind: 'call', callee: e, args: this.callArgs(), range: r() };
      } else if (t.text === '[') {
        this.next();
        const saved = this.angle;
        this.angle = 0;
        const index = this.expression();
        this.angle = saved;
        this.expect(']', 'to close the subscript');
        e = { kind: 'index', object: e, index, range: r() };
      } else if (t.text === '.' || t.text === '->') {
        this.next();
        const n = this.next();
        if (n.kind !== 'id') this.fail(`expected a member name after '${t.text}'`, n);
        e = { kind: 'member', object: e, name: n.text, arrow: t.text === '->', range: r() };
      } else if (t.text === '++' || t.text === '--') {
        this.next();
        e = { kind: 'unary', op: t.text, postfix: true, arg: e, range: r() };
      } else if (t.text === '<<' && this.is('<', 1)) {
        // A kernel launch `k<<<grid, block, shared, stream>>>(args)`.
        this.next();
        this.next();
        const config: Expr[] = [];
        this.angle++;
        while (!this.is('>>') && this.peek().kind !== 'eof') {
          config.push(this.assignment());
          if (!this.accept(',')) break;
        }
        this.angle--;
        if (!this.is('>>') || !this.is('>', 1)) this.fail("expected '>>>' to close the launch configuration");
        this.next();
        this.next();
        this.expect('(', "after '>>>': a launch needs its arguments, even '()'");
        const args = this.callArgs();
        e = { kind: 'launch', callee: e, ...(pendingTemplate.get(e) ? { templateArgs: pendingTemplate.get(e)! } : {}), config, args, range: r() };
      } else break;
    }
    return e;
  }

  private primary(): Expr {
    const t = this.next();
    const range = (): Range => this.range(t);
    switch (t.kind) {
      case 'num':
        return parseNumber(t.text, range(), (m) => this.report(m, t));
      case 'str': {
        let value = stringValue(t.text);
        while (this.peek().kind === 'str') value += stringValue(this.next().text);
        return { kind: 'str', value, range: range() };
      }
      case 'char':
        return { kind: 'char', value: charValue(t.text), range: range() };
      case 'punct':
        if (t.text === '(') {
          const saved = this.angle;
          this.angle = 0;
          const e = this.expression();
          this.angle = saved;
          this.expect(')', 'to close the parenthesis');
          return { ...e, range: range() };
        }
        if (t.text === '{') {
          this.i--;
          return this.initList();
        }
        if (t.text === '[') {
          this.report('lambdas are outside the CUDA subset Warpscope runs: write a named function', t);
          throw new ParseError('lambda');
        }
        if (t.text === '::') return this.primary();
        break;
      case 'id': {
        if (t.text === 'true' || t.text === 'false') return { kind: 'bool', value: t.text === 'true', range: range() };
        if (t.text === 'static_cast' || t.text === 'reinterpret_cast' || t.text === 'const_cast') {
          this.expect('<', `after '${t.text}'`);
          this.angle++;
          const q = this.storageAndQualifiers();
          const type = this.pointers(this.typeSpec(q.quals));
          this.angle--;
          this.expect('>', `to close '${t.text}<…>'`);
          this.expect('(', `after '${t.text}<…>'`);
          const arg = this.expression();
          this.expect(')', `to close '${t.text}'`);
          return { kind: 'cast', type, arg, style: t.text, range: range() };
        }
        // C++ [expr.type.conv]: a functional cast names a simple type: `int(x)`, a typedef or a
        // template type parameter (`T(0)`); `unsigned int(x)` is not C++. `T()` with no argument
        // is value-initialization ([dcl.init]/8): zero for an arithmetic type, so a cast of 0.
        if ((this.basic.has(t.text) || (this.types.has(t.text) && !KNOWN_TYPES.includes(t.text))) && this.is('(') && this.peek(1).text === ')') {
          const zero: Expr = { kind: 'num', text: '0', value: 0, isFloat: false, floatSuffix: false, unsigned: false, long: 0, range: range() };
          this.next();
          this.next();
          return { kind: 'cast', type: { kind: 'type', base: t.text, isConst: false, pointers: [], restrict: false, reference: false, range: range() }, arg: zero, style: 'functional', range: range() };
        }
        if (!this.basic.has(t.text) && this.types.has(t.text) && !KNOWN_TYPES.includes(t.text) && this.is('(')) {
          const at = this.i;
          this.next();
          const arg = this.assignment();
          if (this.accept(')')) return { kind: 'cast', type: { kind: 'type', base: t.text, isConst: false, pointers: [], restrict: false, reference: false, range: range() }, arg, style: 'functional', range: range() };
          this.i = at; // `Pair(a, b)`: not a conversion of one value
        }
        if (this.basic.has(t.text) && this.is('(')) {
          this.i--;
          const type = this.typeSpec(new Set());
          this.expect('(', 'after the type');
          const arg = this.expression();
          this.expect(')', 'to close the conversion');
          return { kind: 'cast', type, arg, style: 'functional', range: range() };
        }
        let name = t.text;
        while (this.is('::') && this.peek(1).kind === 'id') {
          this.next();
          name += `::${this.next().text}`;
        }
        const id: Expr = { kind: 'ident', name, range: range() };
        // Explicit template arguments of a known template: `reduce<256><<<…>>>`, `f<float>(x)`,
        // `std::vector<int>(n, v)`, and `vector<int>(n, v)` after `using namespace std` (a type follows the `<`).
        if (this.is('<') && !this.is('<<') && (this.templates.has(name) || (STD_TYPES.has(name.replace(/^std::/, '')) && (name.startsWith('std::') || this.isTypeStart(1))))) {
          const args = this.templateArgs();
          if (this.is('(')) {
            this.next();
            return { kind: 'call', callee: id, templateArgs: args, args: this.callArgs(), range: range() };
          }
          pendingTemplate.set(id, args);
          return id;
        }
        return id;
      }
      default:
        break;
    }
    this.fail(t.kind === 'eof' ? 'expected expression at end of input' : `expected expression, found '${t.text}'`, t);
  }
}

/** Explicit template arguments seen before a launch's `<<<`. */
const pendingTemplate = new WeakMap<Expr, TemplateArg[]>();

function canonical(words: string[]): string {
  const count = (w: string): number => words.filter((x) => x === w).length;
  const unsigned = words.includes('unsigned');
  const longs = count('long');
  if (words.includes('float')) return 'float';
  if (words.includes('double')) return longs ? 'long double' : 'double';
  if (words.includes('void')) return 'void';
  if (words.includes('bool')) return 'bool';
  if (words.includes('half') || words.includes('__half')) return 'half';
  if (words.includes('char')) return unsigned ? 'unsigned char' : words.includes('signed') ? 'signed char' : 'char';
  if (words.includes('short')) return unsigned ? 'unsigned short' : 'short';
  if (longs >= 2) return unsigned ? 'unsigned long long' : 'long long';
  if (longs === 1) return unsigned ? 'unsigned long' : 'long';
  return unsigned ? 'unsigned int' : 'int';
}

/** A hexadecimal floating literal's value, C [lex.fcon]: `0x1.8p3` is (1 + 8/16) · 2^3. */
function hexFloat(text: string): number {
  const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(text);
  if (!m) return Number.NaN;
  const frac = m[2] ?? '';
  const mantissa = parseInt(`${m[1] || '0'}${frac}`, 16) / 16 ** frac.length;
  return mantissa * 2 ** Number(m[3]);
}

function parseNumber(text: string, range: Range, report: (m: string) => void): Expr {
  const clean = text.replace(/'/g, '');
  const hex = /^0[xX]/.test(clean);
  const isFloat = !hex ? /[.eE]/.test(clean) : /[.pP]/.test(clean);
  if (isFloat) {
    const m = /^([0-9.]+(?:[eE][+-]?[0-9]+)?|0[xX][0-9a-fA-F.]+[pP][+-]?[0-9]+)([fFlL]?)$/.exec(clean);
    if (!m) report(`invalid suffix on floating constant '${text}'`);
    const value = m ? (hex ? hexFloat(m[1]!) : Number(m[1])) : Number.NaN;
    return { kind: 'num', text, value, isFloat: true, floatSuffix: /[fF]$/.test(clean), unsigned: false, long: 0, range };
  }
  const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*)$/.exec(clean);
  if (!m || !/^(u?l{0,2}|l{0,2}u?)$/i.test(m[2]!)) {
    report(`invalid suffix '${clean.replace(/^[0-9a-fA-FxX]+/, '')}' on integer constant`);
    return { kind: 'num', text, value: 0, isFloat: false, floatSuffix: false, unsigned: false, long: 0, range };
  }
  const digits = m[1]!;
  let value: number;
  if (/^0[xX]/.test(digits)) value = Number.parseInt(digits.slice(2), 16);
  else if (/^0[bB]/.test(digits)) value = Number.parseInt(digits.slice(2), 2);
  else if (digits.length > 1 && digits[0] === '0') value = Number.parseInt(digits, 8);
  else value = Number(digits);
  const suffix = m[2]!.toLowerCase();
  return { kind: 'num', text, value, isFloat: false, floatSuffix: false, unsigned: suffix.includes('u'), long: (suffix.match(/l/g) ?? []).length, range };
}
