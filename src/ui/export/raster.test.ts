import { describe, expect, it } from 'vitest';
import { pngSize, PROJECTOR_WIDTH } from './raster.ts';
import { resized } from './serialize.ts';

describe('PNG size for projectors', () => {
  it('is at least 1920 px wide and keeps the aspect ratio', () => {
    expect(pngSize({ width: 640, height: 160 })).toEqual({ width: 1920, height: 480 });
    expect(pngSize({ width: 1000, height: 333 })).toEqual({ width: PROJECTOR_WIDTH, height: 639 });
  });

  it('keeps a picture wider than a projector at its own pixel size', () => {
    expect(pngSize({ width: 1200, height: 300 }, 2)).toEqual({ width: 2400, height: 600 });
  });

  it('stays within the largest canvas a browser allows for very tall pictures', () => {
    const size = pngSize({ width: 400, height: 8000 });
    expect(size.height).toBeLessThanOrEqual(16_384);
    expect(size.width / size.height).toBeCloseTo(400 / 8000, 3);
  });
});

describe('resized SVG', () => {
  it('changes only the root size, not the view box or the shapes', () => {
    const svg = {
      markup: '<svg xmlns="http://www.w3.org/2000/svg" width="500" height="100" viewBox="0 0 1000 200"><rect width="10" height="10"/></svg>',
      width: 500,
      height: 100,
    };
    const big = resized(svg, 1920);
    expect(big).toEqual({
      markup: '<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="384" viewBox="0 0 1000 200"><rect width="10" height="10"/></svg>',
      width: 1920,
      height: 384,
    });
  });
});
