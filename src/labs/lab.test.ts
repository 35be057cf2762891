import { describe, expect, it } from 'vitest';
import { choiceField, type LabVariant } from './lab.ts';

const variant: LabVariant = {
  id: 'v',
  title: 'V',
  summary: '',
  file: 'v.wgsl',
  wgsl: '',
  workgroupSizes: [64, 256],
  elementTypes: ['u32'],
  needsSubgroups: false,
};

const field = (strict: boolean) =>
  choiceField({
    key: 'dist',
    label: 'distribution',
    values: ['uniform', 'skewed'],
    fallback: 'uniform',
    strict,
    parseError: () => 'not a distribution',
    notice: (name) => `no ${name}; uniform`,
    show: (v) => v.toUpperCase(),
  });

describe('choiceField', () => {
  it('strict: the address may name only a listed value', () => {
    expect(field(true).parse('skewed')).toEqual({ value: 'skewed' });
    expect(field(true).parse('zipf')).toEqual({ error: 'not a distribution' });
  });

  it('lenient: any short lower-case name parses, and the resolver falls back with a notice', () => {
    const f = field(false);
    expect(f.parse('zipf')).toEqual({ value: 'zipf' });
    expect(f.parse('Zipf!')).toEqual({ error: 'not a distribution' });
    expect(f.resolve('zipf', variant, {})).toEqual({ value: 'uniform', notice: 'no zipf; uniform' });
    expect(f.resolve('skewed', variant, {})).toEqual({ value: 'skewed' });
  });

  it('offers the values, shows them its way and cuts a hostile name in the notice', () => {
    const f = field(true);
    expect(f.choices(variant, {})).toEqual(['uniform', 'skewed']);
    expect(f.show?.('skewed')).toBe('SKEWED');
    expect(f.resolve('x'.repeat(100), variant, {}).notice).toBe(`no ${'x'.repeat(40)}…; uniform`);
  });
});
