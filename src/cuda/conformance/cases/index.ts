/** Every case of the suite, by section, in a stable order. */
import type { Case, Section } from '../harness.ts';
import { SECTIONS } from '../harness.ts';
import { g as atomics } from './atomics.ts';
import { g as builtins } from './builtins.ts';
import { g as control } from './control.ts';
import { expressionGroups } from './expressions.ts';
import { g as functions } from './functions.ts';
import { g as launch } from './launch.ts';
import { g as math } from './math.ts';
import { g as memory } from './memory.ts';
import { g as operators } from './operators.ts';
import { g as preprocessor } from './preprocessor.ts';
import { g as printf } from './printf.ts';
import { g as sync } from './sync.ts';
import { g as types } from './types.ts';
import { g as warp } from './warp.ts';

const GROUPS = [functions, builtins, types, memory, sync, atomics, warp, math, operators, control, printf, preprocessor, launch, ...expressionGroups()];

export const CASES: readonly Case[] = SECTIONS.flatMap((s) => GROUPS.filter((g) => g.section === s).flatMap((g) => g.cases));

/** Case counts by section: [section, run cases, error cases]. */
export function countsBySection(): [Section, number, number][] {
  return SECTIONS.map((s) => {
    const mine = CASES.filter((c) => c.section === s);
    return [s, mine.filter((c) => c.kind === 'run').length, mine.filter((c) => c.kind !== 'run').length];
  });
}
