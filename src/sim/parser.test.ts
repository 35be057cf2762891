import { describe, expect, it } from 'vitest';
import { WgslError } from './ast.ts';
import { parseWgsl } from '../wgsl/parser.ts';
import { simulate } from './simulate.ts';

describe('parser: characters WGSL does not allow', () => {
  const code = '@compute @workgroup_size(1)\nfn main() {\n  let x = 1u;\u0000\n}\n';

  it('reports a NUL at its line and column, named so a person can see it', () => {
    let err: unknown;
    try {
      parseWgsl(code);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(WgslError);
    expect((err as WgslError).pos).toMatchObject({ line: 3, col: 14 });
    expect((err as WgslError).message).toBe('null character U+0000 (NUL) found');
  });

  it('carries the place into the simulator diagnostic', () => {
    const r = simulate({ code, entryPoint: 'main', workgroups: [1], bindings: {}, file: 'nul.wgsl' });
    expect(r.diagnostics).toEqual([
      { kind: 'unsupported', line: 3, column: 14, message: 'nul.wgsl:3:14: null character U+0000 (NUL) found. The browser rejects this WGSL too.' },
    ]);
  });

  it('quotes printable characters, with their code point', () => {
    expect(() => parseWgsl('fn main() { let x = 1u $ 2u; }')).toThrow("invalid character '$' (U+0024) found");
  });
});
