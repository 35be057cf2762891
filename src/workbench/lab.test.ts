import { describe, expect, it } from 'vitest';
import { choiceField, defineLab, fitsDevice, resolveParams, variantFrom, type LabVariant } from './lab.ts';
import { createCatalog } from '../i18n/catalog.ts';
import { mergeLab } from '../labs/merge/index.ts';
import { reduceLab } from '../labs/reduce/index.ts';
import { rowsumLab } from '../labs/rowsum/index.ts';
import { histogramLab } from '../labs/histogram/index.ts';

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
    label: () => 'distribution',
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

describe('a lesson’s parameters go through the same checks as the address', () => {
  const bins = histogramLab.defaults.bins;

  it('histogram bins beyond 256 are refused as in the address: the default stays, with a notice naming the bounds', () => {
    const r = resolveParams(histogramLab, 'grid-stride', { bins: 1000 });
    expect(r.params.bins).toBe(bins);
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(/1000.*256/);
  });

  it('a number below the least, or not whole, or a name for a number, is refused the same way', () => {
    for (const wrong of [0, 7.5, -3, 'many']) {
      const r = resolveParams(histogramLab, 'grid-stride', { bins: wrong });
      expect(r.params.bins).toBe(bins);
      expect(r.notices).toHaveLength(1);
    }
  });

  it('a name the strict field does not list is refused too', () => {
    const r = resolveParams(histogramLab, 'grid-stride', { dist: 'zipf' });
    expect(r.params.dist).toBe(histogramLab.defaults.dist);
    expect(r.notices).toHaveLength(1);
  });

  it('values inside the bounds pass without a notice', () => {
    expect(resolveParams(histogramLab, 'grid-stride', { bins: 256, dist: 'uniform' }).notices).toEqual([]);
  });
});

describe('parameters that size the workgroup fit the adapter', () => {
  const webgpuDefault = { maxInvocationsPerWorkgroup: 256 };

  it('a URL asking reduce for 1024 invocations on a 256-invocation adapter gets 256, with a notice', () => {
    const r = resolveParams(reduceLab, 'interleaved', { workgroupSize: 1024 }, webgpuDefault);
    expect(r.params.workgroupSize).toBe(256);
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(/256.*1,024|1,024.*256/);
  });

  it('an adapter that allows 1024 keeps it, and no device keeps it too', () => {
    expect(resolveParams(reduceLab, 'interleaved', { workgroupSize: 1024 }, { maxInvocationsPerWorkgroup: 1024 }).params.workgroupSize).toBe(1024);
    expect(resolveParams(reduceLab, 'interleaved', { workgroupSize: 1024 }).params.workgroupSize).toBe(1024);
  });

  it('row sum’s N sets the workgroup (N / 2 invocations): N 2048 becomes 512 on a 256-invocation adapter', () => {
    const r = resolveParams(rowsumLab, 'simple', { cols: 2048, rows: 4 }, webgpuDefault);
    expect(r.params.cols).toBe(512);
    expect(r.notices).toHaveLength(1);
  });

  it('tells the controls which offered values the adapter cannot run', () => {
    const field = reduceLab.params.workgroupSize!;
    const v = reduceLab.variants.find((x) => x.id === 'interleaved')!;
    const offered = field.choices(v, reduceLab.defaults);
    expect(offered).toContain(1024);
    expect(offered.filter((c) => !fitsDevice(field, c, v, reduceLab.defaults, webgpuDefault))).toEqual([512, 1024]);
  });
});

describe('a variant whose every workgroup size is over the adapter’s limit', () => {
  it('keeps the value and says no size fits', () => {
    const r = resolveParams(reduceLab, 'interleaved', { workgroupSize: 64 }, { maxInvocationsPerWorkgroup: 32 });
    expect(r.params.workgroupSize).toBe(64);
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(/at most 32/);
  });
});

describe('a lab’s texts', () => {
  it('reads a variant’s title and summary from the catalog by its id, with the values filled in, and refuses a catalog without them', () => {
    const m = createCatalog('test-variant-texts', { 'variant.v.title': 'Vee', 'variant.v.summary': '{items} items a lane' });
    const { title: _t, summary: _s, ...fields } = variant;
    const v = variantFrom(m, 'variant.', fields, { items: 4 });
    expect([v.title, v.summary, v.file]).toEqual(['Vee', '4 items a lane', 'v.wgsl']);
    expect(() => variantFrom(m, '', fields)).toThrow(/has no “v.title” for the variant v/);
  });

  it('the lab module reads its meta’s title and summary through (a spread would copy one language’s words), and its variants’ texts name their shapes', () => {
    let calls = 0;
    const meta = { id: 'fake' as const, courseOrder: 1, params: {}, get title() { return `T${calls++}`; }, summary: 'S' };
    const lab = defineLab<'fake', Record<string, never>>(meta, { variants: [] } as never);
    const [first, second] = [lab.title, lab.title];
    expect(second).not.toBe(first);
    expect([lab.summary, lab.id, lab.variants]).toEqual(['S', 'fake', []]);
    expect(mergeLab.variants.find((x) => x.id === 'wide')!.title).toMatch(/15/);
  });
});
