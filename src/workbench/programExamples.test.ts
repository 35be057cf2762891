import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, POSTS, loadExample } from './programExamples.ts';

describe("the posts' programs", () => {
  it('lists every seed by post and loads each as its file, with error.cuh', async () => {
    expect(POSTS).toEqual(['000', '002', '003', '004']);
    expect(EXAMPLES.map((e) => e.id)).toContain('003-histogram-shared');
    const e = await loadExample('003-histogram-shared');
    expect(e.source).toBe(readFileSync(new URL('../cuda/host/seeds/003-histogram-shared.cu', import.meta.url), 'utf8'));
    expect(e.files['error.cuh']).toContain('CHECK');
  });
});
