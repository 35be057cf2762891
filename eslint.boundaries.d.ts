import type { ESLint, Linter } from 'eslint';

/** One room's rule: the files it covers, what they may import, and why. */
export interface RoomRule {
  readonly room: string;
  readonly files: readonly string[];
  readonly ignores?: readonly string[];
  readonly may: readonly string[];
  readonly packages: readonly string[];
  readonly typesFrom?: readonly string[];
  readonly except?: Readonly<Record<string, readonly string[]>>;
  readonly why: string;
}

/** The rooms' allow-lists, most specific first. */
export declare const ROOMS: readonly RoomRule[];
/** The rule a repository path follows, or undefined outside the rooms. */
export declare function ruleFor(file: string): RoomRule | undefined;
export declare const boundariesPlugin: ESLint.Plugin;
/** The import-boundary config of `eslint.config.js`. */
export declare const boundaries: Linter.Config[];
