// Import boundaries between the folders of src/, enforced by lint (see src/labs/README.md and
// each folder's README). eslint.config.js spreads these in; src/lint/boundaries.test.ts lints
// deliberate violations with exactly these rules and expects them to fail.
//   - sim, gpu and kernel import no app, labs, views or store;
//   - labs import no views, app or store (a lab's ui/ folder may use the shared views);
//   - wgsl (the front end) imports nothing outside its folder;
//   - trace imports no labs, views, app or store;
//   - sim and kernel stay pure TypeScript: no React, zustand, d3, motion or WebGPU bindings
//     (sim imports no gpu code at all; kernel may use gpu's pure WGSL reflection).
const UI_LIBS = ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'd3', 'd3-*', 'motion', 'motion/*'];
const layer = (...folders) => folders.map((f) => `**/${f}/**`);
const rule = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});
const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

export const boundaries = [
  {
    files: ['src/wgsl/**/*.ts'],
    ignores: TESTS,
    rules: rule(
      [...UI_LIBS, 'webgpu', ...layer('sim', 'gpu', 'kernel', 'trace', 'views', 'ui', 'store', 'app', 'workbench', 'labs', 'lessons')],
      'src/wgsl is the WGSL front end: pure TypeScript that imports nothing outside its own folder.',
    ),
  },
  {
    files: ['src/sim/**/*.ts'],
    // The conformance suite (its harness included) is test code: it runs every case on Dawn too.
    ignores: [...TESTS, 'src/sim/conformance/**'],
    rules: rule(
      [...UI_LIBS, 'webgpu', ...layer('gpu', 'views', 'ui', 'store', 'app', 'workbench', 'labs', 'lessons')],
      'src/sim is pure TypeScript: it imports no UI library, no WebGPU, and no gpu, app, labs, lessons, views or store code.',
    ),
  },
  {
    files: ['src/kernel/**/*.ts'],
    ignores: TESTS,
    rules: rule(
      [...UI_LIBS, 'webgpu', ...layer('views', 'ui', 'store', 'app', 'workbench', 'labs', 'lessons')],
      'src/kernel is the contract between executors: it imports no UI library, no WebGPU bindings, and no app, labs, lessons, views or store code.',
    ),
  },
  {
    files: ['src/gpu/**/*.ts'],
    ignores: TESTS,
    rules: rule(
      [...UI_LIBS, ...layer('views', 'ui', 'store', 'app', 'workbench', 'labs', 'lessons')],
      'src/gpu runs kernels for any caller: it imports no app, labs, lessons, views or store code.',
    ),
  },
  {
    files: ['src/labs/**/*.ts', 'src/labs/**/*.tsx'],
    ignores: [...TESTS, 'src/labs/*/ui/**', 'src/labs/ui.ts', 'src/labs/uis.ts'],
    rules: rule(
      [...UI_LIBS, ...layer('views', 'ui', 'store', 'app', 'lessons')],
      'A lab module is data and drivers: it imports no views, app, lessons or store code and no UI library (its panels live in src/labs/<lab>/ui/).',
    ),
  },
  {
    files: ['src/labs/*/ui/**', 'src/labs/ui.ts', 'src/labs/uis.ts'],
    ignores: TESTS,
    rules: rule([...layer('store', 'app', 'lessons')], 'A lab’s panels get what they show as props: they import no app, lessons or store code.'),
  },
  {
    files: ['src/trace/**/*.ts'],
    ignores: TESTS,
    rules: rule(
      [...UI_LIBS, ...layer('labs', 'views', 'ui', 'store', 'app', 'workbench', 'lessons')],
      'src/trace holds queries over any trace: it imports no labs, lessons, views, app or store code.',
    ),
  },
];
