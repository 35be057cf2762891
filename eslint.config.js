import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { boundaries } from './eslint.boundaries.js';

export default tseslint.config(
  // src/lint/fixtures/ breaks the import rules on purpose: src/lint/boundaries.test.ts lints it.
  { ignores: ['dist/', 'node_modules/', 'test-results/', '.gpu-bundle/', '.gpu-*/', '.bench/', 'coverage/', 'src/lint/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // One TypeScript program for every file, the root tsconfig's (it includes all of them). The
      // project service built one per nearest tsconfig as well (src/sim, src/kernel, src/wgsl: the
      // same files again without the DOM library), 16 % of lint's CPU for no finding of its own:
      // what those folders may not use is typecheck's to say (npm run typecheck).
      parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  ...boundaries,
);
