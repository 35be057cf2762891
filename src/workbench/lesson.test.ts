/**
 * `lessonFrom`: a lesson's texts come from its catalog by fixed keys, with the step's values
 * filled in, and a text that is missing or left over stops the lesson from loading.
 */
import { describe, expect, it } from 'vitest';
import { createCatalog } from '../i18n/catalog.ts';
import { lessonFrom, type StepSpec } from './lesson.ts';

const step: StepSpec = { lab: 'reduce', variant: 'neighbored', params: {}, moment: { kind: 'end' } };
const question = { answer: () => 1, explain: () => 'why' };
/** The texts of a lesson of one step without a question. */
const texts = { 'title': 'T', 'summary': 'S', 's1.title': 'One', 's1.narrative': 'N' };

describe('lessonFrom', () => {
  it('reads each text from the catalog, with the step’s values, and leaves out a look-at the catalog lacks', () => {
    const m = createCatalog('test-lesson-texts', {
      'title': 'T',
      'summary': 'S',
      's1.title': 'One',
      's1.narrative': 'Bound {n}.',
      's1.lookAt': 'the grid',
      's1.prompt': 'How many?',
      's2.title': 'Two',
      's2.narrative': 'Plain.',
    });
    const lesson = lessonFrom(m, { id: 'x', courseOrder: 1, steps: [{ ...step, question, values: { n: 7 } }, step] });
    expect([lesson.title, lesson.summary]).toEqual(['T', 'S']);
    const [a, b] = lesson.steps;
    expect([a!.title, a!.narrative, a!.lookAt, a!.question!.prompt]).toEqual(['One', 'Bound 7.', 'the grid', 'How many?']);
    expect(a!.question!.answer(undefined as never)).toBe(1);
    expect(a).not.toHaveProperty('values');
    expect([b!.title, b!.narrative, b!.lookAt, b!.question]).toEqual(['Two', 'Plain.', undefined, undefined]);
    expect(b!.variant).toBe('neighbored');
  });

  it('explains a wrong answer from the step’s text, filled with the right answer and the given one, unless the step explains it itself', () => {
    const asked = { 's1.prompt': 'How many?', 's2.title': 'Two', 's2.narrative': 'N', 's2.prompt': 'How many?' };
    const m = createCatalog('test-lesson-explain', { ...texts, ...asked, 's1.explain': 'The grid shows {answer} of {n}, not {given}.' });
    const counted = { answer: () => 3 };
    const lesson = lessonFrom(m, { id: 'x', courseOrder: 1, steps: [{ ...step, question: counted, values: { n: 8 } }, { ...step, question }] });
    const [a, b] = lesson.steps;
    expect(a!.question!.explain(undefined as never, 5)).toBe('The grid shows 3 of 8, not 5.');
    expect(b!.question!.explain(undefined as never, 5)).toBe('why');
    const noExplain = () => lessonFrom(m, { id: 'x', courseOrder: 1, steps: [{ ...step, question }, { ...step, question: counted }] });
    expect(noExplain).toThrow(/step 2: the question has no text “s2.explain”/);
  });

  it('refuses a missing text, a prompt without a question, a question without a prompt, and texts for a step that is not there', () => {
    const lesson = (en: Record<string, string>, steps: readonly StepSpec[]) => () => lessonFrom(createCatalog('test-lesson-guard', en), { id: 'x', courseOrder: 1, steps });
    const { 's1.narrative': _n, ...noNarrative } = texts;
    expect(lesson(noNarrative, [step])).toThrow(/has no text “s1.narrative”/);
    expect(lesson({ ...texts, 's1.prompt': 'Q?' }, [step])).toThrow(/“s1.prompt” has no question/);
    expect(lesson(texts, [{ ...step, question }])).toThrow(/the question has no text “s1.prompt”/);
    expect(lesson({ ...texts, 's2.title': 'Two' }, [step])).toThrow(/a step 2 it does not have/);
    expect(lesson(texts, [step])).not.toThrow();
  });
});
