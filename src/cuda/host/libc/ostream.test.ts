import { describe, expect, it } from 'vitest';
import { doubleFromBits, oracleRecords } from '../oracle/read.ts';
import { defaultOstreamState, formatOstream, type OstreamState, type OstreamValue } from './ostream.ts';

// Expected outputs: src/cuda/host/oracle/iostream.cpp run with libstdc++ (scripts/cuda-host-oracle.sh).
function stateFor(manips: string): OstreamState {
  const s = defaultOstreamState();
  for (const m of manips.matchAll(/p(\d+)|f|s|b/g)) {
    if (m[1] !== undefined) s.precision = Number(m[1]);
    else if (m[0] === 'f') s.floatfield = 'fixed';
    else if (m[0] === 's') s.floatfield = 'scientific';
    else if (m[0] === 'b') s.boolalpha = true;
  }
  return s;
}

function valueFor(type: string, text: string): OstreamValue {
  if (type === 'double') return { kind: 'float', value: doubleFromBits(text) };
  if (type === 'float') return { kind: 'float', value: Math.fround(doubleFromBits(text)) };
  if (type.endsWith('char')) return { kind: 'char', value: Number(text) };
  if (type === 'bool') return { kind: 'bool', value: text === '1' };
  if (type === 'const char*') return { kind: 'string', value: text };
  return { kind: 'int', value: BigInt(text) };
}

const cases = oracleRecords('iostream', 'O').map(([, manips, type, value, , expected]) => ({
  manips: manips!,
  type: type!,
  value: value!,
  expected: expected!,
}));

describe('std::cout << against libstdc++', () => {
  it('has the oracle cases', () => {
    expect(cases.length).toBeGreaterThan(150);
  });

  it.each(cases)('cout [$manips] << ($type) $value', ({ manips, type, value, expected }) => {
    expect(formatOstream(stateFor(manips), valueFor(type, value))).toBe(expected);
  });
});
