#!/usr/bin/env node
// `npm run typecheck` and `npm run lint` (eslint .) in one process, for npm test: the same checks,
// the same findings, less CPU. Both build a TypeScript program of the root tsconfig.json and check
// it: tsc to report type errors, eslint's typed rules to ask types of it. Here it is built and
// checked once, then handed to eslint (typescript-eslint's `parserOptions.programs`), whose rules
// find the types already computed. The folder configs `npm run typecheck` also checks (src/sim,
// src/kernel, src/wgsl: the same files without the DOM library) reuse the files the root program
// parsed and bound; each is still type-checked on its own, under its own libraries.
//   node scripts/typecheck-and-lint.mjs
// Prints tsc's and eslint's findings as they do; exits 0 when both pass, else the sum of 1 (type
// errors) and 2 (lint errors); 4 when it could not check (the error printed).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { ESLint } from 'eslint';

/** The tsconfigs `npm run typecheck` checks, read from that script (one list, not two). */
function typecheckConfigs() {
  const script = JSON.parse(readFileSync('package.json', 'utf8')).scripts.typecheck;
  const configs = [...script.matchAll(/tsc --noEmit -p (\S+)/g)].map((m) => m[1]);
  if (configs.length === 0) throw new Error(`no "tsc --noEmit -p <config>" in package.json's typecheck script: ${script}`);
  return configs;
}

/**
 * Parsed source files by name and parse settings, shared by every program made here. A file the
 * root program parsed and bound is not parsed or bound again by a folder config's program (the
 * binder skips a file it has bound; the folder configs extend the root one, so the settings that
 * shape parsing and binding are the same). Each program's checker is its own.
 */
const parsed = new Map();

function createProgram(configPath) {
  const config = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  const host = ts.createCompilerHost(config.options);
  const read = host.getSourceFile;
  host.getSourceFile = (fileName, settings, onError, shouldCreate) => {
    const s = typeof settings === 'object' ? settings : { languageVersion: settings };
    const key = `${fileName}\0${s.languageVersion}\0${s.impliedNodeFormat}\0${s.jsDocParsingMode}`;
    let file = parsed.get(key);
    if (file === undefined || shouldCreate) {
      file = read.call(host, fileName, settings, onError, shouldCreate);
      if (file !== undefined) parsed.set(key, file);
    }
    return file;
  };
  return ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
    host,
  });
}

const formatHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => ts.sys.newLine,
};

/** tsc's check of one config (`tsc --noEmit -p`): prints its errors; resolves to whether none. */
function typecheck(configPath, program) {
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length === 0) return true;
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  console.log(`\n${configPath}:\n${format(diagnostics, formatHost)}`);
  return !diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error);
}

/** Both checks; resolves to the exit status. */
async function main() {
  const started = performance.now();
  const [rootConfig, ...folderConfigs] = typecheckConfigs();
  const rootProgram = createProgram(rootConfig);
  let typesOk = typecheck(rootConfig, rootProgram);
  for (const configPath of folderConfigs) typesOk = typecheck(configPath, createProgram(configPath)) && typesOk;
  console.log(`typecheck (${[rootConfig, ...folderConfigs].join(', ')}): ${typesOk ? 'no errors' : 'errors above'} (${((performance.now() - started) / 1000).toFixed(0)} s)`);

  // eslint . with eslint.config.js, the TypeScript files' typed rules reading the program checked
  // above instead of building their own from parserOptions.project (the same tsconfig.json: a file
  // outside it fails here as it does there).
  const lintStarted = performance.now();
  if (resolve(rootConfig) !== resolve('tsconfig.json')) throw new Error(`eslint.config.js types files with tsconfig.json, typecheck's first config is ${rootConfig}`);
  const eslint = new ESLint({
    overrideConfig: [{ files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'], languageOptions: { parserOptions: { programs: [rootProgram] } } }],
  });
  const results = await eslint.lintFiles(['.']);
  const formatter = await eslint.loadFormatter('stylish');
  const report = await formatter.format(results, { cwd: process.cwd(), rulesMeta: eslint.getRulesMetaForResults(results) });
  if (report) console.log(report);
  const lintOk = results.every((r) => r.errorCount === 0 && r.fatalErrorCount === 0);
  console.log(`lint (eslint .): ${lintOk ? 'no errors' : 'errors above'} (${((performance.now() - lintStarted) / 1000).toFixed(0)} s)`);

  return (typesOk ? 0 : 1) + (lintOk ? 0 : 2);
}

try {
  process.exitCode = await main();
} catch (e) {
  console.error(e);
  process.exitCode = 4;
}
