import { describe, expect, it } from 'vitest';
import { formatLocation, parseLocation } from './url.ts';

describe('URL ↔ route', () => {
  it('round-trips a lab with its variant, parameters and step', () => {
    const url = '/lab/reduce?v=neighbored&cmp=interleaved&n=1024&wg=256&type=u32&step=40&g=1&warp=3&lane=7';
    const [path, query] = url.split('?');
    const parsed = parseLocation(path!, `?${query}`);
    expect(parsed.notices).toEqual([]);
    expect(parsed.route).toMatchObject({ kind: 'lab', lab: 'reduce', variant: 'neighbored', params: { n: 1024 }, step: 40, lane: 7 });
    expect(formatLocation(parsed.route, parsed.chrome)).toBe(url);
  });

  it('round-trips the program page, and refuses a path under it', () => {
    const parsed = parseLocation('/program', '?lang=zh-CN');
    expect(parsed.route).toEqual({ kind: 'program' });
    expect(parsed.notices).toEqual([]);
    expect(formatLocation(parsed.route, parsed.chrome)).toBe('/program?lang=zh-CN');
    const deeper = parseLocation('/program/x', '');
    expect(deeper.route).toEqual({ kind: 'home' });
    expect(deeper.notices).toHaveLength(1);
  });

  it('reads lesson steps and presentation switches', () => {
    const p = parseLocation('/lesson/reduction/7', '?mode=projector&embed=1');
    expect(p.route).toEqual({ kind: 'lesson', lesson: 'reduction', step: 7 });
    expect(p.chrome).toEqual({ mode: 'projector', embed: true, presenter: false });
  });

  it.each([
    ['/lab/nope', ''],
    ['/lab/reduce', '?n=-5&step=abc'],
    ['/lab/reduce', '?v=<script>alert(1)</script>'],
    ['/%E0%A4%A', ''],
    ['/lesson/../../etc', ''],
    ['/lesson/reduction/zero', ''],
    ['/nothing/here', ''],
    ['/lab/reduce', '?mode=evil&wg=999999999999'],
    ['/lab', ''],
    ['/lab/reduce/extra', '?lane=5000'],
  ])('never throws on %s%s and says what it ignored', (path, search) => {
    const p = parseLocation(path, search);
    expect(p.notices.length).toBeGreaterThan(0);
    for (const n of p.notices) expect(n.length).toBeLessThan(200);
  });
});
