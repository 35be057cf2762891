import { describe, expect, it } from 'vitest';
import { format } from './format.ts';

describe('format', () => {
  it('fills names and picks plural branches', () => {
    expect(format('Step {n} of {count}', { n: 3, count: 9 })).toBe('Step 3 of 9');
    const m = '{n, plural, =0 {no problems} one {# problem} other {# problems}} in {file}';
    expect(format(m, { n: 0, file: 'a.wgsl' })).toBe('no problems in a.wgsl');
    expect(format(m, { n: 1, file: 'a.wgsl' })).toBe('1 problem in a.wgsl');
    expect(format(m, { n: 1200, file: 'a.wgsl' })).toBe('1,200 problems in a.wgsl');
  });
  it('nests placeholders in branches and leaves unknown names visible', () => {
    expect(format('{n, plural, one {# lane of {w}} other {# lanes of {w}}}', { n: 2, w: 'warp 1' })).toBe('2 lanes of warp 1');
    expect(format('Hello {who}', {})).toBe('Hello {who}');
    expect(format('broken {n, plural, one {#', { n: 1 })).toBe('broken {n, plural, one {#');
  });
});
