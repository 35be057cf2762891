import { describe, expect, it } from 'vitest';
import { judgeAnswer } from './checkAnswer.ts';

describe('a check question', () => {
  it('does not give the answer away on the first miss: retry, then reveal on the second', () => {
    expect(judgeAnswer('3', 4, 0)).toEqual({ kind: 'retry', misses: 1 });
    expect(judgeAnswer('5', 4, 1)).toEqual({ kind: 'reveal', misses: 2 });
  });

  it('accepts the right number at any try, and asks for a number when given none', () => {
    expect(judgeAnswer(' 4 ', 4, 0)).toEqual({ kind: 'right' });
    expect(judgeAnswer('4', 4, 1)).toEqual({ kind: 'right' });
    expect(judgeAnswer('', 4, 0)).toEqual({ kind: 'not-a-number' });
    expect(judgeAnswer('four', 4, 1)).toEqual({ kind: 'not-a-number' });
  });
});
