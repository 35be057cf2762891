/**
 * The rooms' import rules hold themselves. Each file in `fixtures/` breaks one rule of
 * `eslint.boundaries.js`; it says where it pretends to live (`// lint as:`) and what the lint
 * must say (`// fails:`). The fixtures lie outside the linted and type-checked files, and are
 * linted here through ESLint's Node API with exactly the rules `eslint.config.js` uses. Allowed
 * imports are linted too, so a rule that forbids everything fails as well.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { boundaries, ruleFor } from '../../eslint.boundaries.js';

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } }, ...boundaries],
});

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const FIXTURES = new URL('./fixtures/', import.meta.url);
const fixtures = readdirSync(FIXTURES)
  .sort()
  .map((name) => {
    const code = readFileSync(new URL(name, FIXTURES), 'utf8');
    const as = /^\/\/ lint as: (\S+)$/m.exec(code)?.[1];
    const fails = /^\/\/ fails: (.+)$/m.exec(code)?.[1];
    if (!as || !fails) throw new Error(`src/lint/fixtures/${name} needs a “// lint as:” and a “// fails:” line`);
    return [name, as, fails, code] as const;
  });

describe('each room rule fails on its fixture', () => {
  it.each(fixtures)('%s (as %s)', async (_name, as, fails, code) => {
    const found = await problems(as, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^boundaries\/rooms: /);
    expect(found[0]).toContain(fails);
  });

  it('has a fixture for every room', () => {
    const rooms = new Set(fixtures.map(([, as]) => ruleFor(as)?.room));
    for (const room of ['wgsl', 'kernel', 'sim', 'gpu', 'cuda', 'trace', 'workbench', 'a lab', 'a lab’s panels', 'ui', 'store', 'i18n']) expect(rooms, room).toContain(room);
  });

  it('covers static, dynamic, glob and folder imports', () => {
    const codes = fixtures.map(([, , , code]) => code).join('\n');
    expect(codes).toMatch(/^import .* from '/m);
    expect(codes).toMatch(/^export \* from '/m);
    expect(codes).toMatch(/import\('/);
    expect(codes).toMatch(/import\.meta\.glob\('/);
    expect(fixtures.some(([, , fails]) => fails.includes('imports the folder'))).toBe(true);
  });
});

describe('the rules let through what each room may import', () => {
  it.each([
    ['src/sim/fixture.ts', "import type { KernelRun } from '../kernel/types.ts';"],
    ['src/sim/fixture.ts', "import { DEFAULT_HARDWARE } from './hardware.ts';"],
    ['src/gpu/fixture.ts', "import type { KernelRun } from '../kernel/types.ts';"],
    ['src/cuda/fixture.ts', "import type { KernelRun } from '../kernel/types.ts';"],
    ['src/kernel/watchdog.ts', "import { parse } from '../sim/parser.ts';"],
    ['src/workbench/fixture.ts', "import type { ComponentType } from 'react';"],
    ['src/workbench/fixture.ts', "import { LAB_CATALOG } from '../labs/catalog.ts';"],
    ['src/workbench/fixture.ts', "import { createStore } from 'zustand/vanilla';"],
    ['src/labs/rowsum/fixture.ts', "import { defineLab } from '../../workbench/lab.ts';"],
    ['src/labs/rowsum/fixture.ts', "import { simulate } from '../../sim/index.ts';"],
    ['src/labs/rowsum/fixture.ts', "import { indexTrace } from '../../trace/index.ts';"],
    ['src/labs/rowsum/fixture.ts', "import { m } from './messages.ts';"],
    ['src/labs/rowsum/fixture.ts', "import WGSL from '../../../shaders/rowsum/simple.wgsl?raw';"],
    ['src/labs/rowsum/lessons/rowsum/fixture.ts', "import { rowsumMoments } from '../../moments.ts';"],
    ['src/labs/rowsum/fixture.ts', "export const load = () => import('./index.ts');"],
    ['src/labs/rowsum/bench.ts', "import type { GpuExecutor } from '../../gpu/executor.ts';"],
    ['src/labs/scan/ui/fixture.tsx', "import { usePrefersReducedMotion } from '../../../ui/widgets/motion.ts';"],
    ['src/labs/scan/ui/fixture.tsx', "import type { LabUi } from '../../../workbench/panel.ts';"],
    ['src/labs/fixture.ts', "export const load = () => import('./scan/index.ts');"],
    ['src/ui/pages/fixture.tsx', "import { loadLabUi } from '../../labs/uis.ts';"],
    ['src/ui/pages/fixture.tsx', "import { scanUi } from '../../labs/scan/ui/index.ts';"],
    ['src/ui/pages/fixture.tsx', "import type { GpuExecutor } from '../../gpu/index.ts';"],
    ['src/ui/pages/fixture.tsx', "import { createLabSession } from '../../workbench/session.ts';"],
    ['src/sim/fixture.test.ts', "import { kernelCases } from '../labs/all.ts';"],
  ])('%s may %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
