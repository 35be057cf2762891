// The rooms of src/ and what each may import: an allow-list per room, enforced by lint. It covers
// static imports and re-exports, dynamic `import()`, `import.meta.glob` patterns and folder
// imports (`'../sim'`: name the file). ARCHITECTURE.md describes the rooms; each folder's README
// repeats its own line. src/lint/boundaries.test.ts lints one fixture per rule
// (src/lint/fixtures/) with exactly these rules and expects each to fail.
//
// A rule names, for files of a room, the files they may import (globs from the repository root;
// `{lab}` is the importing lab's own id), the packages they may import, and what may be imported
// for types only. Test files are exempt: they reach across rooms to check them.
import path from 'node:path';

const UI_LIBS = ['react', 'react-dom', 'zustand', 'd3', 'motion', '@codemirror', '@lezer', 'uqr'];
const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/*.e2e.ts', 'src/lint/fixtures/**'];
/** What a lab's code may import: the lab contract, kernel, sim's index, trace, i18n and itself. */
const LAB_CONTRACT = [
  'src/workbench/lab.ts',
  'src/workbench/labTypes.ts',
  'src/workbench/exercise.ts',
  'src/workbench/openings.ts',
  'src/workbench/lesson.ts',
  'src/kernel/**',
  'src/sim/index.ts',
  'src/trace/**',
  'src/i18n/**',
  'src/util/**',
  'src/labs/{lab}/**',
  'shaders/{lab}/**',
  'shaders/common/**',
];

/** The rules, most specific first: a file follows the first rule whose `files` match it. */
export const ROOMS = [
  {
    room: 'wgsl',
    files: ['src/wgsl/**'],
    may: ['src/wgsl/**'],
    packages: [],
    why: 'src/wgsl is the WGSL front end: pure TypeScript that imports nothing outside its own folder',
  },
  {
    room: 'kernel',
    files: ['src/kernel/**'],
    may: ['src/kernel/**', 'src/wgsl/**'],
    // The watchdog rewrite still reads the simulator's parser and gpu's reflection until it moves
    // into src/wgsl (issue #25's other half); then this exception matches nothing.
    except: { 'src/kernel/watchdog.ts': ['src/sim/parser.ts', 'src/sim/ast.ts', 'src/gpu/reflect.ts'] },
    packages: [],
    why: 'src/kernel is the contract between the executors: it imports only src/wgsl',
  },
  {
    room: 'sim',
    files: ['src/sim/**'],
    ignores: ['src/sim/conformance/**'],
    may: ['src/sim/**', 'src/kernel/**', 'src/wgsl/**'],
    packages: [],
    why: 'src/sim is the simulator, pure TypeScript: it imports only src/kernel and src/wgsl (no gpu, no UI, no WebGPU)',
  },
  {
    room: 'gpu',
    files: ['src/gpu/**'],
    may: ['src/gpu/**', 'src/kernel/**', 'src/wgsl/**', 'src/util/**', 'shaders/bandwidth/**'],
    packages: ['webgpu', 'node:*'],
    why: 'src/gpu runs kernels for any caller: it imports only src/kernel and src/wgsl (and the pure helpers of src/util)',
  },
  {
    room: 'cuda',
    files: ['src/cuda/**'],
    // Test code: the posts' kernels read from ../shared/seeds (node:fs) and the conformance suite,
    // which run what the front end produces on the simulator and on Dawn.
    ignores: ['src/cuda/testdata/**', 'src/cuda/conformance/**', 'src/cuda/host/**'],
    may: ['src/cuda/**', 'src/kernel/**', 'src/wgsl/**'],
    packages: [],
    why: 'src/cuda is the CUDA front end, pure TypeScript: it imports only src/kernel and src/wgsl',
  },
  {
    room: 'classroom',
    files: ['src/classroom/**'],
    may: ['src/classroom/**'],
    packages: ['zod'],
    why: 'src/classroom is the live classroom’s protocol and client, pure TypeScript shared with the server: it imports only itself (and zod, in schema.ts)',
  },
  {
    room: 'cuda-host',
    files: ['src/cuda/host/**'],
    // oracle/ reads the stored gcc/glibc outputs for the tests (node:fs).
    ignores: ['src/cuda/host/oracle/**'],
    may: ['src/cuda/**', 'src/kernel/**', 'src/wgsl/**', 'src/sim/index.ts', 'src/gpu/executor.ts'],
    packages: [],
    why: 'src/cuda/host runs whole programs: the front end, plus the simulator and the GPU executor that run their launches; no UI code',
  },
  {
    room: 'trace',
    files: ['src/trace/**'],
    may: ['src/trace/**', 'src/sim/index.ts', 'src/sim/hardware.ts', 'src/kernel/**', 'src/i18n/**'],
    packages: [],
    why: 'src/trace holds queries over any trace: it imports sim’s index, kernel and i18n only',
  },
  {
    room: 'workbench',
    files: ['src/workbench/**'],
    may: [
      'src/workbench/**', 'src/kernel/**', 'src/wgsl/**', 'src/sim/**', 'src/gpu/**', 'src/trace/**', 'src/i18n/**', 'src/util/**', 'src/bench/**', 'src/labs/*.ts',
      // The program page's worker (started by URL, never imported as code) and the posts' programs as text.
      'src/cuda/host/programWorker.ts', 'src/cuda/host/seeds/**', 'src/cuda/index.ts',
    ],
    typesFrom: ['react', 'src/store/gpuSlice.ts', 'src/cuda/types.ts', 'src/cuda/host/programProtocol.ts'],
    packages: ['zustand/vanilla', 'lz-string', 'workbox-window'],
    // The panel contract names React's component type and the GPU status names the store's type;
    // no React code runs here.
    why: 'src/workbench is the host without React: the contract, the session, runs, drafts and URL state, and a learner’s CUDA through the front end’s index; it imports no UI library, no ui and no lab folder (only the registry, src/labs/*.ts)',
  },
  {
    room: 'a lab’s panels',
    files: ['src/labs/*/ui/**'],
    may: [...LAB_CONTRACT, 'src/workbench/panel.ts', 'src/workbench/services.ts', 'src/ui/widgets/**'],
    packages: ['react', 'react/*', 'd3', 'd3-*', 'motion', 'motion/*'],
    why: 'a lab’s panels import the lab contract (with the panel contract), kernel, sim’s index, trace, i18n, the shared widgets (src/ui/widgets) and their own lab; never another lab, the session or the GPU',
  },
  {
    room: 'a lab’s bench section',
    files: ['src/labs/*/bench.ts'],
    may: [...LAB_CONTRACT, 'src/gpu/**', 'src/bench/**'],
    packages: ['webgpu', '@tensorflow/*'],
    why: 'a lab’s bench section (npm run bench) imports the lab contract, kernel, sim’s index, trace, i18n, its own lab and the GPU executor and bench helpers; never another lab',
  },
  {
    room: 'a lab’s CUDA twins',
    files: ['src/labs/*/cudaTwins.ts'],
    may: [...LAB_CONTRACT, 'src/cuda/index.ts'],
    packages: [],
    why: 'a lab’s CUDA twins (its tests and bench run the lab’s .cu sources beside its WGSL) import the lab contract, their own lab and the CUDA front end’s index; never another lab',
  },
  {
    room: 'a lab',
    files: ['src/labs/*/**'],
    may: LAB_CONTRACT,
    // The differential test's cases for gpu's bandwidth kernels ride with the basics lab.
    except: { 'src/labs/basics/cases.ts': ['shaders/bandwidth/read.wgsl', 'shaders/bandwidth/copy.wgsl'] },
    packages: [],
    why: 'a lab imports the lab contract (src/workbench/lab.ts and its kin), kernel, sim’s index, trace, i18n and its own folders; never another lab, the ui, the session or a UI library',
  },
  {
    room: 'the lab registry',
    files: ['src/labs/*.ts'],
    may: ['src/labs/**', 'src/workbench/lab.ts', 'src/workbench/labTypes.ts', 'src/workbench/panel.ts', 'src/workbench/lesson.ts', 'src/workbench/exercise.ts', 'src/kernel/cases.ts', 'src/i18n/**'],
    packages: [],
    why: 'the registry (src/labs/*.ts) lists the lab folders and derives the catalog, panels and lessons from them',
  },
  {
    room: 'ui',
    files: ['src/ui/**'],
    may: ['src/ui/**', 'src/workbench/**', 'src/labs/*.ts', 'src/labs/*/ui/**', 'src/i18n/**', 'src/store/**', 'src/trace/**', 'src/sim/index.ts', 'src/classroom/protocol.ts', 'src/classroom/client.ts'],
    packages: ['*'],
    typesFrom: ['src/kernel/**', 'src/gpu/**', 'src/sim/**'],
    why: 'src/ui is React only: it imports the workbench, the registry and labs’ panels, i18n, the store, trace queries, sim’s index and the live classroom’s client (never its zod schemas; the executors’ other files for types only)',
  },
  {
    room: 'store',
    files: ['src/store/**'],
    may: ['src/store/**', 'src/workbench/url.ts', 'src/i18n/**'],
    packages: ['zustand'],
    typesFrom: ['src/gpu/**'],
    why: 'src/store holds the route and the GPU status: it imports URL state from the workbench and i18n only',
  },
  {
    room: 'i18n',
    files: ['src/i18n/**'],
    may: ['src/i18n/**'],
    packages: ['react'],
    why: 'src/i18n is the message catalog: it imports nothing outside its own folder',
  },
  {
    room: 'util',
    files: ['src/util/**'],
    may: ['src/util/**'],
    packages: [],
    why: 'src/util holds pure helpers: it imports nothing',
  },
  {
    room: 'bench',
    files: ['src/bench/**'],
    may: ['src/bench/**', 'src/util/**', 'src/gpu/**'],
    packages: ['webgpu', '@tensorflow/*'],
    why: 'src/bench formats and times benchmarks: it imports gpu and util only',
  },
];

// --- matching -------------------------------------------------------------------------------

const globCache = new Map();
/** A glob (`**` any depth, `*` one segment's worth) as a RegExp over repository paths. */
function globRe(glob) {
  let re = globCache.get(glob);
  if (!re) {
    const body = glob
      .split('**')
      .map((part) => part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*'))
      .join('.*');
    re = new RegExp(`^${body}$`);
    globCache.set(glob, re);
  }
  return re;
}
const matches = (globs, p) => globs.some((g) => globRe(g).test(p));

/** The rule a repository path follows (the first whose `files` match), or undefined. */
export function ruleFor(file) {
  return ROOMS.find((r) => matches(r.files, file) && !matches(r.ignores ?? [], file));
}

const labOf = (file) => /^src\/labs\/([^/]+)\//.exec(file)?.[1];

function allowed(globs, file, target) {
  const lab = labOf(file);
  return matches(
    globs.map((g) => (lab ? g.replaceAll('{lab}', lab) : g)).filter((g) => !g.includes('{lab}')),
    target,
  );
}

const packageName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

function packageAllowed(list, spec) {
  if (list.includes('*')) return true;
  return list.some((p) => globRe(p).test(spec) || globRe(p).test(packageName(spec)));
}

/** Why `spec` (imported by `file`) breaks its room's rule, or undefined. */
function violation(file, spec, { typeOnly }) {
  const rule = ruleFor(file);
  if (!rule) return undefined;
  const bare = spec.split('?')[0];
  if (!bare.startsWith('.') && !bare.startsWith('/')) {
    const uiLib = UI_LIBS.some((lib) => packageName(bare) === lib || packageName(bare).startsWith(`${lib}-`) || bare.startsWith(`${lib}/`));
    if (packageAllowed(rule.packages, bare)) return undefined;
    if (typeOnly && (rule.typesFrom ?? []).includes(packageName(bare))) return undefined;
    return `${file} (${rule.room}) may not import the package “${spec}”${uiLib ? ' (a UI library)' : ''}: ${rule.why}.`;
  }
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), bare));
  if (!path.posix.extname(target)) {
    return `${file} imports the folder “${spec}”: name the file (e.g. “${spec}/index.ts”), so the boundary it crosses is visible.`;
  }
  if (allowed(rule.may, file, target)) return undefined;
  if ((rule.except?.[file] ?? []).includes(target)) return undefined;
  if (typeOnly && allowed(rule.typesFrom ?? [], file, target)) return undefined;
  return `${file} (${rule.room}) may not import ${target}: ${rule.why}.`;
}

/** The static part of an `import.meta.glob` pattern: the folder it reaches into. */
const globFolder = (pattern) => pattern.slice(0, pattern.search(/[*{]/) < 0 ? pattern.length : pattern.search(/[*{]/)).replace(/[^/]*$/, '') + 'x.ts';

const roomsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each room of src/ imports only what its allow-list names (eslint.boundaries.js).' },
    schema: [],
  },
  create(context) {
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    if (!ruleFor(file)) return {};
    const check = (node, spec, options = { typeOnly: false }) => {
      const message = violation(file, spec, options);
      if (message) context.report({ node, message });
    };
    const literal = (node) =>
      node?.type === 'Literal' && typeof node.value === 'string'
        ? node.value
        : node?.type === 'TemplateLiteral' && node.expressions.length === 0
          ? node.quasis[0].value.cooked
          : undefined;
    return {
      ImportDeclaration(node) {
        const typeOnly = node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'));
        check(node, node.source.value, { typeOnly });
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value, { typeOnly: node.exportKind === 'type' });
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, { typeOnly: node.exportKind === 'type' });
      },
      ImportExpression(node) {
        const spec = literal(node.source);
        if (spec === undefined) context.report({ node, message: `${file} imports a computed path: the boundary lint cannot check it; import a literal path.` });
        else check(node, spec);
      },
      'CallExpression[callee.type="MemberExpression"][callee.object.type="MetaProperty"][callee.property.name="glob"]'(node) {
        const patterns = node.arguments[0]?.type === 'ArrayExpression' ? node.arguments[0].elements : [node.arguments[0]];
        for (const p of patterns) {
          const spec = literal(p);
          if (spec === undefined) context.report({ node, message: `${file} globs a computed pattern: the boundary lint cannot check it.` });
          else check(node, globFolder(spec.replace(/^!/, '')));
        }
      },
    };
  },
};

export const boundariesPlugin = { rules: { rooms: roomsRule } };

export const boundaries = [
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: TESTS,
    plugins: { boundaries: boundariesPlugin },
    rules: { 'boundaries/rooms': 'error' },
  },
];
