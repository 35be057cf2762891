import { describe, expect, it } from 'vitest';
import { doubleFromBits, oracleRecords } from '../oracle/read.ts';
import { formatPrintf, PrintfError, type PrintfArg } from './printf.ts';

// Expected outputs: src/cuda/host/oracle/printf.c run with glibc (scripts/cuda-host-oracle.sh).
function decodeArg(a: string): PrintfArg {
  const colon = a.indexOf(':');
  const tag = a.slice(0, colon);
  const v = a.slice(colon + 1);
  switch (tag) {
    case 'i':
    case 'u':
      return Number(v);
    case 'l':
    case 'ul':
    case 'll':
    case 'ull':
      return BigInt(v);
    case 'd':
      return doubleFromBits(v);
    case 'p':
      return BigInt(`0x${v}`);
    default:
      return v;
  }
}

const cases = oracleRecords('printf', 'P').map((f) => {
  const eq = f.indexOf('=');
  return { format: f[1]!, args: f.slice(2, eq), expected: f[eq + 1]! };
});

describe('printf against glibc', () => {
  it('has the oracle cases', () => {
    expect(cases.length).toBeGreaterThan(600);
  });

  it.each(cases)('printf("$format", $args) prints glibc’s text', ({ format, args, expected }) => {
    expect(formatPrintf(format, args.map(decodeArg))).toBe(expected);
  });

  it('reads %s through memory when given an address', () => {
    expect(formatPrintf('[%-6s]', [64], { readString: (a) => (a === 64 ? 'abc' : '') })).toBe('[abc   ]');
  });

  it('counts widths in UTF-8 bytes, as glibc does', () => {
    expect(formatPrintf('[%8s]', ['结果'])).toBe('[  结果]');
  });

  it('says so when a conversion has no argument', () => {
    expect(() => formatPrintf('%d %d', [1])).toThrow(PrintfError);
  });
});
