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
  it('picks ordinal branches by the locale’s ordinal rules', () => {
    const m = 'every {k, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} word';
    expect([1, 2, 3, 4, 11, 22].map((k) => format(m, { k }))).toEqual(['every 1st word', 'every 2nd word', 'every 3rd word', 'every 4th word', 'every 11th word', 'every 22nd word']);
  });
  it('writes numbers as the locale does', () => {
    expect(format('{n, number} lanes', { n: 65536 }, 'en')).toBe('65,536 lanes');
    expect(format('{n, number} 个通道', { n: 65536 }, 'zh-CN')).toBe('65,536 个通道');
    expect(format('{n, number}', { n: 1234.5 }, 'de')).toBe('1.234,5');
  });
});
