/**
 * Every lesson reads in Chinese once zh-CN is loaded and chosen (title, summary, and each step's
 * title, narration, what to look at, question and the explanation of a wrong answer), and in
 * English again after: no step falls back to English.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateOf } from '../workbench/lessonTestkit.ts';
import { loadLocale } from '../i18n/catalog.ts';
import { setCurrentLocale } from '../i18n/locale.ts';
import { LESSONS } from './lessons.ts';
import type { Lesson, MomentState } from '../workbench/lesson.ts';

const CJK = /[\u3400-\u9fff]/;

function textsOf(lesson: Lesson, states: readonly (MomentState | undefined)[]): [string, string][] {
  const out: [string, string][] = [
    ['title', lesson.title],
    ['summary', lesson.summary],
  ];
  lesson.steps.forEach((s, i) => {
    const at = `step ${i + 1}`;
    out.push([`${at} title`, s.title], [`${at} narrative`, s.narrative]);
    if (s.lookAt !== undefined) out.push([`${at} lookAt`, s.lookAt]);
    if (s.question) {
      const state = states[i]!;
      const right = s.question.answer(state);
      out.push([`${at} prompt`, s.question.prompt], [`${at} explain`, s.question.explain(state, right + 1)]);
    }
  });
  return out;
}

describe.each(LESSONS.map((l) => [l.id, l] as const))('lesson %s in Chinese', (_id, lesson) => {
  let states: (MomentState | undefined)[] = [];
  let english: [string, string][] = [];
  beforeAll(async () => {
    states = lesson.steps.map((s) => (s.question ? stateOf(s) : undefined));
    english = textsOf(lesson, states);
    await loadLocale('zh-CN');
  });
  afterAll(() => setCurrentLocale('en'));

  it('reads every step in Chinese once zh-CN is chosen, and in English again after', () => {
    for (const [where, text] of english) expect(text, where).not.toMatch(CJK);
    setCurrentLocale('zh-CN');
    const chinese = textsOf(lesson, states);
    expect(chinese).toHaveLength(english.length);
    for (const [where, text] of chinese) expect(text, `${lesson.id}: ${where}`).toMatch(CJK);
    setCurrentLocale('en');
    expect(textsOf(lesson, states)).toEqual(english);
  });
});
