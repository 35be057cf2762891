/**
 * `compileCuda`: preprocess, parse, check and lower a CUDA translation unit, then validate the
 * generated WGSL with our WGSL front end. WGSL that the front end rejects is a bug in this
 * translator, reported as such at the CUDA position the source map gives.
 */
import { check } from '../wgsl/checker.ts';
import type { Range } from './ast.ts';
import { sizeOf, typeName, vectorOf, type CType } from './ctypes.ts';
import { lower, type LoweredKernel, type MapEntry } from './lower.ts';
import { parseCuda } from './parser.ts';
import type { CompileOptions, CompileResult, CudaProgram, CudaScalarType, Diagnostic, KernelInfo, KernelParam, PrintfFormat, SourceMap } from './types.ts';

/** Test seam: a change applied to the generated WGSL before it is validated. */
export type WgslTransform = (wgsl: string) => string;

export function compileCudaWith(source: string, options: CompileOptions = {}, transform?: WgslTransform): CompileResult {
  const fileName = options.fileName ?? 'kernel.cu';
  let diagnostics: Diagnostic[] = [];
  try {
    const parsed = parseCuda(source, { ...options, fileName, device: true });
    diagnostics.push(...parsed.diagnostics);
    const lowered = lower(parsed.unit, fileName);
    diagnostics.push(...lowered.diagnostics);
    diagnostics = dedupe(diagnostics);
    if (diagnostics.some((d) => d.severity === 'error')) return { ok: false, diagnostics };
    const wgsl = transform ? transform(lowered.wgsl) : lowered.wgsl;
    const sourceMap = makeSourceMap(lowered.map, fileName);
    const checked = check(wgsl, { limits: { maxComputeWorkgroupStorageSize: 49152, maxComputeInvocationsPerWorkgroup: 1024, maxComputeWorkgroupSizeX: 1024, maxComputeWorkgroupSizeY: 1024, maxComputeWorkgroupSizeZ: 64 } });
    const wgslErrors = checked.diagnostics.filter((d) => d.severity === 'error');
    if (wgslErrors.length) {
      for (const d of wgslErrors) {
        const at = sourceMap.toCuda(d.line, d.col) ?? { line: 1, column: 1 };
        diagnostics.push({
          severity: 'error',
          message: `internal error in Warpscope's CUDA translator (a bug in Warpscope, not in your code; please report it): the WGSL it generated for this line is rejected: ${d.message} (generated WGSL line ${d.line}, column ${d.col})`,
          line: at.line,
          column: at.column,
          ...('file' in at && at.file ? { file: at.file } : {}),
        });
      }
      return { ok: false, diagnostics };
    }
    const kernels = lowered.kernels.map((k) => kernelInfo(k, lowered.written, lowered.atomic, lowered.packed));
    if (!kernels.length) {
      const templates = parsed.unit.items.some((i) => i.kind === 'function' && i.global && i.template);
      if (!templates) diagnostics.push({ severity: 'warning', message: 'no __global__ function in this file: nothing to run on the GPU', line: 1, column: 1 });
    }
    const launchKernels = Object.keys(lowered.launchKernels).length ? { launchKernels: lowered.launchKernels } : {};
    const program: CudaProgram = { fileName, source, wgsl, kernels, sourceMap, ...(options?.files ? { files: options.files } : {}), ...launchKernels };
    return { ok: true, program, diagnostics };
  } catch (e) {
    // Never a crash: an exception here is a translator bug, reported at the start of the file.
    diagnostics.push({ severity: 'error', message: `internal error in Warpscope's CUDA translator (please report it): ${(e as Error).message}`, line: 1, column: 1 });
    return { ok: false, diagnostics };
  }
}

function dedupe(ds: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out = ds.filter((d) => {
    const k = `${d.file ?? ''}:${d.line}:${d.column}:${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return out.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || a.line - b.line || a.column - b.column);
}

function scalarName(t: CType): CudaScalarType {
  const vec = vectorOf(t);
  if (vec) return scalarName(vec.of);
  if (t.k === 'int') return t.name;
  if (t.k === 'float') return t.bits === 64 ? 'double' : 'float';
  if (t.k === 'bool') return 'bool';
  return 'int';
}

function kernelInfo(k: LoweredKernel, written: ReadonlySet<string>, atomic: ReadonlySet<string>, packed: ReadonlySet<string>): KernelInfo {
  const params: KernelParam[] = k.params.map((p) => {
    if (p.t.k === 'ptr') {
      const key = p.baseKey!;
      const isAtomic = atomic.has(key);
      return {
        name: p.name,
        index: p.index,
        kind: 'buffer',
        type: p.t.to.k === 'struct' && !vectorOf(p.t.to) ? `struct ${p.t.to.name}` : scalarName(p.t.to),
        bytes: p.bytes ?? sizeOf(p.t.to),
        binding: p.binding!,
        access: written.has(key) || isAtomic ? 'read_write' : 'read',
        atomic: isAtomic,
        wgslName: p.wgslName,
        packed: packed.has(key),
        ...(vectorOf(p.t.to) ? { vector: vectorOf(p.t.to)!.n } : {}),
      };
    }
    return { name: p.name, index: p.index, kind: 'scalar', type: p.t.k === 'struct' ? `struct ${p.t.name}` : scalarName(p.t), bytes: sizeOf(p.t), wgslName: p.wgslName };
  });
  const printf = k.printfBinding !== undefined
    ? { binding: k.printfBinding, formats: k.printfFormats.map((f): PrintfFormat => ({ format: f.format, args: f.args.map((a) => (a.k === 'float' ? 'float' : a.k === 'int' && !a.signed ? 'unsigned int' : 'int')) })) }
    : undefined;
  return {
    name: k.name,
    entryPoint: k.entryPoint,
    line: k.line,
    params,
    uniformBinding: k.uniformBinding,
    staticSharedBytes: k.staticSharedBytes,
    dynamicShared: !!k.dynamicShared,
    usesWarpFunctions: k.usesWarpFunctions,
    usesPrintf: !!printf,
    globals: k.globals.map((g) => {
      const elem = g.info.type.k === 'array' ? g.info.type.of : g.info.type;
      return {
        name: g.info.name,
        kind: g.info.kind === 'shared' ? 'device' : g.info.kind,
        type: scalarName(elem),
        length: g.info.length,
        binding: g.binding,
        access: written.has(g.baseKey) || atomic.has(g.baseKey) ? 'read_write' : 'read',
        atomic: atomic.has(g.baseKey),
        ...(g.info.init ? { init: g.info.init } : {}),
      };
    }),
    ...(printf ? { printf } : {}),
    ...(k.dynamicShared ? { dynamicSharedOverride: { name: k.dynamicShared.override, elementBytes: k.dynamicShared.elemBytes } } : {}),
  };
}

function makeSourceMap(entries: readonly MapEntry[], fileName: string): SourceMap {
  const byWgsl = [...entries].sort((a, b) => a.wgslLine - b.wgslLine);
  const inMain = (r: Range): boolean => r.file === fileName;
  const cudaLines = [...new Set(entries.filter((e) => inMain(e.cuda)).map((e) => e.cuda.line))].sort((a, b) => a - b);
  return {
    cudaLines,
    toCuda(wgslLine) {
      let best: MapEntry | undefined;
      for (const e of byWgsl) {
        if (e.wgslLine > wgslLine) break;
        best = e;
      }
      if (!best) return undefined;
      const r = best.cuda;
      return { line: r.line, column: r.col, ...(inMain(r) ? {} : { file: r.file }) };
    },
    toWgsl(cudaLine, cudaColumn) {
      const candidates = byWgsl.filter((e) => inMain(e.cuda) && e.cuda.line <= cudaLine && e.cuda.endLine >= cudaLine);
      if (!candidates.length) return undefined;
      // The innermost construct that holds the position; on the line itself first.
      const scored = candidates
        .map((e) => ({ e, exact: e.cuda.line === cudaLine, contains: cudaColumn === undefined || ((e.cuda.line < cudaLine || e.cuda.col <= cudaColumn) && (e.cuda.endLine > cudaLine || e.cuda.endCol >= cudaColumn)), span: (e.cuda.endLine - e.cuda.line) * 1000 + (e.cuda.endCol - e.cuda.col) }))
        .sort((a, b) => Number(b.exact) - Number(a.exact) || Number(b.contains) - Number(a.contains) || a.span - b.span || a.e.wgslLine - b.e.wgslLine);
      const e = scored[0]!.e;
      return { line: e.wgslLine, column: 1 };
    },
  };
}

export { typeName };
