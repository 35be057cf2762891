/**
 * Reflection of a WGSL module for the executors, read by the checker, so the GPU side and the
 * simulator never disagree on what a kernel declares: resource variables with their group,
 * binding, access, type and size; each compute entry point's workgroup size; the
 * pipeline-overridable constants. Pure: the GPU executor (`src/gpu/executor.ts`) and the
 * watchdog (`watchdog.ts`) use it without pulling the simulator into the bundle.
 */
import type { Expr, WgslDiagnostic } from './ast.ts';
import { check, type CheckedModule, type CheckOptions } from './checker.ts';
import { tyName } from './types.ts';

export type BindingKind = 'storage-read' | 'storage-read-write' | 'uniform';

export interface ResourceBinding {
  readonly group: number;
  readonly binding: number;
  readonly name: string;
  readonly kind: BindingKind;
}

/** A resource binding with what the checker knows of its type. */
export interface ReflectedBinding extends ResourceBinding {
  /** WGSL type as written in messages (`array<u32>`, `Params`); null when the module did not check. */
  readonly type: string | null;
  /** Bytes, or for a runtime-sized array the size with one element; null when unknown. */
  readonly size: number | null;
  readonly runtimeSized: boolean;
  readonly line: number;
  readonly column: number;
}

export interface ModuleReflection {
  readonly bindings: readonly ReflectedBinding[];
  readonly entryPoints: readonly { readonly name: string; readonly workgroupSize: readonly [number, number, number] | null; readonly workgroupStorage: number }[];
  readonly overrides: readonly { readonly name: string; readonly id: number | null; readonly type: string; readonly hasDefault: boolean }[];
  /** The front end's diagnostics (errors make the checker-derived fields partial). */
  readonly diagnostics: readonly WgslDiagnostic[];
}

/** Replaces comments with spaces so offsets and line numbers stay where they were. */
export function blankComments(code: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    const next = code[i + 1];
    if (depth === 0 && c === '/' && next === '/') {
      while (i < code.length && code[i] !== '\n') {
        out += ' ';
        i++;
      }
      if (i < code.length) out += '\n';
      continue;
    }
    if (c === '/' && next === '*') {
      depth++;
      out += '  ';
      i++;
      continue;
    }
    if (depth > 0 && c === '*' && next === '/') {
      depth--;
      out += '  ';
      i++;
      continue;
    }
    out += depth > 0 && c !== '\n' ? ' ' : c;
  }
  return out;
}

function literalInt(e: Expr | undefined): number | null {
  if (!e || e.k !== 'lit' || (e.t !== 'ai' && e.t !== 'i32' && e.t !== 'u32')) return null;
  return e.v;
}

function kindOf(space: string, access: string): BindingKind | null {
  if (space === 'uniform') return 'uniform';
  if (space === 'storage') return access === 'read_write' ? 'storage-read-write' : 'storage-read';
  return null; // textures and samplers are not part of our kernels
}

/** Everything the executor and the views need to know about a module's interface. */
export function reflectModule(code: string, options: CheckOptions = {}): ModuleReflection {
  const { module, diagnostics } = check(code, options);
  return {
    bindings: bindingsOf(module),
    entryPoints: module.entryPoints.map((e) => ({ name: e.name, workgroupSize: e.workgroupSize, workgroupStorage: e.workgroupStorage })),
    overrides: module.overrides.map((o) => ({ name: o.name, id: o.id, type: tyName(o.ty), hasDefault: o.hasDefault })),
    diagnostics,
  };
}

/** The resource variables of a checked module, in source order. */
function bindingsOf(module: CheckedModule): ReflectedBinding[] {
  const checked = new Map(module.resources.map((r) => [r.name, r]));
  const bindings: ReflectedBinding[] = [];
  for (const g of module.ast) {
    if (g.k !== 'gvar' || !g.spaceGiven) continue;
    const kind = kindOf(g.space, g.access);
    if (!kind) continue;
    const info = checked.get(g.name);
    const group = info?.group ?? literalInt(g.attrs.find((a) => a.name === 'group')?.args[0]);
    const binding = info?.binding ?? literalInt(g.attrs.find((a) => a.name === 'binding')?.args[0]);
    if (group === null || binding === null) continue;
    const ty = info?.ty;
    const runtimeSized = ty
      ? (ty.k === 'array' && ty.count === null) || (ty.k === 'struct' && ty.members.some((m) => m.ty.k === 'array' && m.ty.count === null))
      : g.ty?.name === 'array' && g.ty.args.length === 1;
    bindings.push({
      group, binding, name: g.name, kind,
      type: ty ? tyName(ty) : null,
      size: info ? info.size : null,
      runtimeSized,
      line: g.pos.line,
      column: g.pos.col,
    });
  }
  return bindings;
}

/**
 * Lists the `@group @binding var<...>` declarations of a module, in source order; with
 * `entryPoint`, only those that entry point uses.
 */
export function reflectBindings(code: string, entryPoint?: string): ResourceBinding[] {
  // One check serves both: the resources do not depend on the entry point asked for.
  const { module } = check(code, entryPoint === undefined ? {} : { entryPoint });
  const all = bindingsOf(module).map(({ group, binding, name, kind }) => ({ group, binding, name, kind }));
  if (entryPoint === undefined) return all;
  // An entry point's pipeline holds only the resources it statically uses (WGSL §13.3.2), as
  // layout 'auto' would: a module whose entry points use different buffers (or reuse a slot)
  // needs data for the chosen one's only. Unknown entry points keep every binding, so pipeline
  // creation reports them.
  const entry = module.entryPoints.find((e) => e.name === entryPoint);
  if (!entry) return all;
  const used = new Set(entry.resources.map((r) => r.name));
  return all.filter((b) => used.has(b.name));
}
