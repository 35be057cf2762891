/**
 * Just enough reflection of a WGSL module for the executor: which resource variables sit at which
 * group and binding, and how they may be accessed. (The simulator has a full parser; the GPU side
 * needs only this, and must not pull the simulator into the bundle.)
 */

export type BindingKind = 'storage-read' | 'storage-read-write' | 'uniform';

export interface ResourceBinding {
  readonly group: number;
  readonly binding: number;
  readonly name: string;
  readonly kind: BindingKind;
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

const VAR_DECL =
  /((?:@\s*(?:group|binding)\s*\(\s*\d+\s*\)\s*)+)var\s*(?:<\s*([a-z_]+)\s*(?:,\s*([a-z_]+)\s*)?>)?\s*([A-Za-z_][A-Za-z0-9_]*)/g;

/** Lists the `@group @binding var<...>` declarations of a module, in source order. */
export function reflectBindings(code: string): ResourceBinding[] {
  const text = blankComments(code);
  const result: ResourceBinding[] = [];
  for (const match of text.matchAll(VAR_DECL)) {
    const attrs = match[1] ?? '';
    const group = /group\s*\(\s*(\d+)\s*\)/.exec(attrs)?.[1];
    const binding = /binding\s*\(\s*(\d+)\s*\)/.exec(attrs)?.[1];
    if (group === undefined || binding === undefined) continue;
    const space = match[2];
    const access = match[3];
    let kind: BindingKind;
    if (space === 'uniform') kind = 'uniform';
    else if (space === 'storage') kind = access === 'read_write' ? 'storage-read-write' : 'storage-read';
    else continue; // textures and samplers are not part of our kernels
    result.push({ group: Number(group), binding: Number(binding), name: match[4] ?? '?', kind });
  }
  return result;
}
