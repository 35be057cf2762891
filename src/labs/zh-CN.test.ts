/**
 * Every text a lab shows speaks Chinese once zh-CN is loaded and chosen, and English again after:
 * the lab's name and summary, its variants, parameter labels and the notices they give, its
 * exercises, its timings note, the metric rows it adds and the titles of its panels. Text is read
 * when shown (getters and lookups), so the same objects answer in the locale of the moment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocale } from '../i18n/catalog.ts';
import { setCurrentLocale } from '../i18n/locale.ts';
import { simulate } from '../sim/index.ts';
import { indexTrace } from '../trace/index.ts';
import { resolveParams, type AnyLab } from '../workbench/lab.ts';
import { LABS } from './all.ts';
import { loadLabUi } from './uis.ts';
import type { LabUi } from '../workbench/panel.ts';

const CJK = /[\u3400-\u9fff]/;
/** Chinese, or nothing to translate: a formula or a code constant (`TILE`) with no English word in it. */
const readsChinese = (text: string): boolean => CJK.test(text) || !/[A-Za-z]{3,}/.test(text.replace(/\b[A-Z][A-Z0-9_]+\b/g, ''));

/** Every user-visible text of a lab, labelled by where it comes from. */
function textsOf(lab: AnyLab): [string, string][] {
  const out: [string, string][] = [
    ['title', lab.title],
    ['summary', lab.summary],
  ];
  for (const v of lab.variants) {
    out.push([`variant ${v.id} title`, v.title], [`variant ${v.id} summary`, v.summary]);
    if (v.racy !== undefined) out.push([`variant ${v.id} racy`, v.racy]);
  }
  for (const [name, field] of Object.entries(lab.params)) out.push([`param ${name}`, field.label]);
  for (const ex of lab.exercises ?? []) out.push([`exercise ${ex.id} title`, ex.title], [`exercise ${ex.id} goal`, ex.goal], [`exercise ${ex.id} hint`, ex.hint]);
  if (lab.bench.note !== undefined) out.push(['bench note', lab.bench.note]);
  if (lab.metrics) {
    const { variant, params } = resolveParams(lab, undefined, {});
    const result = simulate(lab.stepRun(variant.id, params, lab.inputs(params, 1)), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    const rows = lab.metrics(result.metrics, params, { variant: variant.id, index: indexTrace(result.trace!) });
    for (const row of rows) {
      out.push([`metric ${row.label}`, row.label]);
      if (row.hint !== undefined) out.push([`metric hint ${row.label}`, row.hint]);
    }
  }
  const ui = UIS.get(lab.id);
  for (const panel of ui?.panels ?? []) out.push([`panel ${panel.id}`, panel.title]);
  if (ui?.treeTitle !== undefined) out.push(['tree title', ui.treeTitle]);
  return out;
}

const UIS = new Map<string, LabUi | undefined>(await Promise.all(LABS.map(async (l) => [l.id, await loadLabUi(l.id)] as const)));

describe.each(LABS.map((l) => [l.id, l] as const))('lab %s in Chinese', (_id, lab) => {
  let english: [string, string][] = [];
  beforeAll(async () => {
    english = textsOf(lab);
    await loadLocale('zh-CN');
  });
  afterAll(() => setCurrentLocale('en'));

  it('shows every text in Chinese once zh-CN is chosen, and English again after', () => {
    for (const [where, text] of english) expect(text, where).not.toMatch(CJK);
    setCurrentLocale('zh-CN');
    const chinese = textsOf(lab);
    expect(chinese.map(([w]) => w)).toHaveLength(english.length);
    for (const [where, text] of chinese) expect(readsChinese(text), `${lab.id}: ${where}: ${text}`).toBe(true);
    setCurrentLocale('en');
    expect(textsOf(lab).map(([, t]) => t)).toEqual(english.map(([, t]) => t));
  });

  it('gives its notices in the chosen language', () => {
    setCurrentLocale('zh-CN');
    const { notices } = resolveParams(lab, 'no-such-variant', {});
    expect(notices.length).toBeGreaterThan(0);
    for (const n of notices) expect(n).toMatch(CJK);
    setCurrentLocale('en');
  });
});
