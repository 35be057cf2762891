/**
 * Words a learner knows, and one word per concept. Every catalog the app registers is read in
 * English and in Simplified Chinese:
 * - no internal word reaches a learner: "seed" (the course's posts are named as such), file paths
 *   of our docs, option names of the simulator (maxTraceBytes, maxSteps), "front end";
 * - Chinese uses one term for each concept: 归约 (never 规约), 波前 (never "wavefront" left in
 *   English), 执行记录 (never 执行跟踪) for "the trace", and glosses roofline and co-rank.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLocale, registeredCatalogs } from './catalog.ts';
import './messages.ts';
import './ui.ts';
import '../ui/editor/strings.ts';
import '../workbench/labMessages.ts';
import '../labs/registry.ts';
import '../labs/lessons.ts';
import { ui } from './ui.ts';
import { LABS } from '../labs/all.ts';

// Each lab folder's own catalog (the registry loads labs on demand).
import.meta.glob(['../labs/*/messages.ts', '../labs/*/lessons/*/messages.ts', '../ui/**/messages.ts'], { eager: true });

/** Internal words, in any locale; `{seed}`-style placeholders are code, not words, and are removed first. */
const INTERNAL: readonly [RegExp, string][] = [
  [/\bseeds?\b/i, '“seed” (name the course post)'],
  [/种子|教程版/, '种子代码 / 教程版 (name the course post)'],
  [/docs\/|\.md\b/, 'a file of our docs'],
  [/maxTraceBytes|maxSteps/, 'an option name of the simulator'],
  [/front[ -]end/i, '“front end”'],
];

/** Chinese terms that must not appear, each with the one the catalogs use instead. */
const ZH_MIXED: readonly [RegExp, string][] = [
  [/规约/, 'use 归约'],
  [/wavefront/i, 'use 波前'],
  [/执行跟踪/, 'use 执行记录'],
];

/**
 * The course posts' titles, quoted as their authors wrote them (post 004 writes 规约): a learner
 * looks a post up by its title, so its spelling is kept.
 */
const POST_TITLE = /^program\/post\.\d{3}$/;

/** A term left in English in Chinese text is glossed where a catalog first uses it: `co-rank（划分点）`. */
const ZH_GLOSSED: readonly [RegExp, RegExp, string][] = [
  [/roofline/i, /roofline（屋顶线）/i, 'first roofline of the catalog needs （屋顶线）'],
  [/co-rank/i, /co-rank（划分点）/i, 'first co-rank of the catalog needs （划分点）'],
];

const withoutPlaceholders = (text: string): string => text.replace(/\{\s*[A-Za-z_]\w*\s*[,}]/g, '{');

function messages(locale: 'en' | 'zh-CN'): [string, string][] {
  const out: [string, string][] = [];
  // Not the `test-…` catalogs other test files in this worker may have made for themselves.
  for (const c of registeredCatalogs().filter((x) => !x.name.startsWith('test-'))) {
    for (const [key, text] of Object.entries(c.messages(locale) ?? {})) out.push([`${c.name}/${key}`, withoutPlaceholders(text)]);
  }
  return out;
}

describe('wording', () => {
  beforeAll(() => loadLocale('zh-CN'));

  it.each(['en', 'zh-CN'] as const)('no internal word reaches a learner (%s)', (locale) => {
    const found: string[] = [];
    const all = messages(locale);
    expect(all.length).toBeGreaterThan(500);
    for (const [where, text] of all) for (const [re, what] of INTERNAL) if (re.test(text)) found.push(`${where}: ${what}: ${text}`);
    expect(found.join("\n")).toBe("");
  });

  it('the recorded timings name no file of ours', () => {
    for (const lab of LABS) {
      if (!lab.recorded) continue;
      const caption = ui('timings.recordedCaption', { device: lab.recorded.device, log2: Math.log2(lab.recorded.n) });
      for (const [re, what] of INTERNAL) expect(re.test(caption), `${lab.id}: ${what}: ${caption}`).toBe(false);
    }
  });

  it('Chinese uses one term per concept and glosses the English ones it keeps', () => {
    const found: string[] = [];
    const glossed = new Set<string>();
    for (const [where, text] of messages('zh-CN')) {
      for (const [re, what] of ZH_MIXED) if (re.test(text) && !POST_TITLE.test(where)) found.push(`${where}: ${what}: ${text}`);
      const catalog = where.slice(0, where.indexOf('/'));
      for (const [term, gloss, what] of ZH_GLOSSED) {
        if (!term.test(text) || glossed.has(`${catalog} ${term.source}`)) continue;
        if (!gloss.test(text)) found.push(`${where}: ${what}: ${text}`);
        glossed.add(`${catalog} ${term.source}`);
      }
    }
    expect(found.join("\n")).toBe("");
  });
});
