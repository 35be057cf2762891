/**
 * The import boundaries hold themselves: each case lints a one-line file with the rules
 * `eslint.config.js` uses (`eslint.boundaries.js`), as if it lived in the named folder, and
 * expects a violation to fail and an allowed import to pass.
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { boundaries } from '../../eslint.boundaries.js';

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } }, ...boundaries],
});

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('import boundaries (lint)', () => {
  it.each([
    ['src/sim/fixture.ts', "import { labRoute } from '../workbench/url.ts';"],
    ['src/sim/fixture.ts', "import { LABS } from '../labs/registry.ts';"],
    ['src/sim/fixture.ts', "import { useState } from 'react';"],
    ['src/sim/fixture.ts', "import { GpuExecutor } from '../gpu/executor.ts';"],
    ['src/kernel/fixture.ts', "import { reduceLab } from '../labs/reduce/index.ts';"],
    ['src/gpu/fixture.ts', "import { WarpGrid } from '../ui/panels/WarpGrid.tsx';"],
    ['src/labs/rowsum/fixture.ts', "import { WarpGrid } from '../../views/WarpGrid.tsx';"],
    ['src/labs/rowsum/fixture.ts', "import { useAppStore } from '../../store/index.ts';"],
    ['src/labs/scan/ui/fixture.tsx', "import { useAppStore } from '../../../store/index.ts';"],
    ['src/trace/fixture.ts', "import { scanMoments } from '../labs/scan/moments.ts';"],
  ])('%s may not %s', async (file, code) => {
    const found = await problems(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^no-restricted-imports: /);
  });

  it.each([
    ['src/sim/fixture.ts', "import { DEFAULT_HARDWARE } from './hardware.ts';"],
    ['src/kernel/fixture.ts', "import { reflectKernel } from '../gpu/reflect.ts';"],
    ['src/labs/rowsum/fixture.ts', "import type { GpuExecutor } from '../../gpu/executor.ts';"],
    ['src/labs/scan/ui/fixture.tsx', "import { usePrefersReducedMotion } from '../../../views/motion.ts';"],
    ['src/sim/fixture.test.ts', "import { kernelCases } from '../labs/registry.ts';"],
    ['src/views/fixture.tsx', "import { LABS } from '../labs/registry.ts';"],
  ])('%s may %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
