import type { Linter } from 'eslint';

/** The import-boundary rules of `eslint.boundaries.js`. */
export declare const boundaries: Linter.Config[];
