/**
 * Integer and conversion semantics from the host compiler: one case per entry of
 * oracle/expressions.cpp, each a kernel that evaluates the entry's expression (the very text the
 * oracle printed) for every pair of its edge values, one pair a thread. Operands come in through
 * buffers of their own C type (bytes and shorts included), so nothing folds at compile time.
 */
import data from '../oracle/expressions.json';
import { arrayOf, dim3, group, type Group, type OracleType, type Section } from '../harness.ts';
import { cu } from './source.ts';

interface Entry {
  name: string;
  tx: OracleType;
  ty: OracleType | '';
  tr: OracleType;
  expr: string;
  x: number[];
  y?: number[];
  r: number[];
}
const ENTRIES = data as unknown as Entry[];

/** Where each entry belongs and where its semantics are stated. */
function placeOf(name: string): { section: Section; spec: string } {
  if (/^(clz|ffs|popc|brev|min|max|abs)/.test(name)) return { section: 'math', spec: 'CUDA Math API: integer intrinsics (__clz, __ffs, __popc, __brev) and min/max/abs overloads' };
  if (/_to_|^bool_add/.test(name)) return { section: 'types', spec: 'C++ [conv.integral], [conv.fpint], [conv.fpconv], [conv.bool]' };
  if (/^(shl|shr)/.test(name)) return { section: 'operators', spec: 'C++ [expr.shift]' };
  if (/^(lt|eq|ge)/.test(name)) return { section: 'operators', spec: 'C++ [expr.rel], [expr.eq], [expr.arith.conv]' };
  if (/uchar|ushort|short|schar|char/.test(name)) return { section: 'operators', spec: 'C++ [conv.prom] integral promotion, [conv.integral]' };
  return { section: 'operators', spec: 'C++ [expr.add], [expr.mul], [expr.unary.op], [expr.arith.conv]' };
}

function kernelOf(e: Entry): string {
  const y = e.ty !== '';
  return cu`
__global__ void eval(const ${e.tx}* xs, ${y ? `const ${e.ty}* ys, ` : ''}${e.tr}* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        ${e.tx} x = xs[i];
${y ? `        ${e.ty} y = ys[i];\n` : ''}        out[i] = ${e.expr};
    }
}
`;
}

export function expressionGroups(): Group[] {
  const groups = new Map<Section, Group>();
  for (const e of ENTRIES) {
    const { section, spec } = placeOf(e.name);
    const g = groups.get(section) ?? group(section);
    groups.set(section, g);
    g.test('expression', spec)
      .params([{ expr: e.name }])
      .run(() => ({
        from: 'gcc',
        source: kernelOf(e),
        kernel: 'eval',
        launch: { grid: dim3(Math.ceil(e.x.length / 64)), block: dim3(64) },
        args: {
          xs: arrayOf(e.tx, e.x),
          ...(e.ty !== '' ? { ys: arrayOf(e.ty, e.y ?? []) } : {}),
          out: arrayOf(e.tr, e.r.map(() => 0)),
          n: e.x.length,
        },
        expect: { out: e.r },
      }));
  }
  return [...groups.values()];
}
