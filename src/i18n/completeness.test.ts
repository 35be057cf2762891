/**
 * No English left on a Chinese page: every catalog the app registers (the shell, the workbench,
 * the editor, and every lab and lesson folder that has one) must come with a Simplified Chinese
 * translation of every key, with the same placeholders, and no message may be an English sentence
 * copied over unchanged. The type-level half: a translation missing a key does not compile.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registeredCatalogs, type Translation } from './catalog.ts';
import { REGISTERED_IDS } from '../labs/registry.ts';

// Every module that owns a catalog registers it on import. The labs' own load lazily in the app,
// so this file imports every source file that creates one itself: what it checks does not depend
// on which modules earlier test files in the same worker happened to load.
const SRC = join(import.meta.dirname, '..');
const catalogFiles = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.zh-CN.ts') && f !== join('i18n', 'catalog.ts'))
  .filter((f) => /\bcreateCatalog\(/.test(readFileSync(join(SRC, f), 'utf8')))
  .sort();
for (const f of catalogFiles) await import(/* @vite-ignore */ `../${relative(SRC, join(SRC, f)).split('\\').join('/')}`);

// @ts-expect-error a translation that lacks a key is a type error, not English at run time
const lacking: Translation<{ readonly a: string; readonly b: string }> = { a: 'x' };
void lacking;

/** Messages that are code or commands, or names alone once translated ("The GPU (WebGPU)" → "GPU（WebGPU）"). */
const SAME_IN_EVERY_LANGUAGE = new Set(['editor/d.consolePlaceholder', 'program/executorGpu']);

/** Names and units that read the same in Chinese text. */
const NAMES = new Set(['GPU', 'CPU', 'WGSL', 'CUDA', 'WebGPU', 'Warpscope', 'ms', 'GB', 'KiB', 'MiB', 'GiB', 'Ctrl', 'Enter']);

/**
 * The argument names a message uses: `{name}`, `{n, plural, …}`. A plural or select branch's text
 * (`one {lane}`) is not an argument, so a brace after a branch keyword is skipped.
 */
function placeholders(message: string): string[] {
  return [...new Set([...message.matchAll(/(?<![,}]\s*(?:zero|one|two|few|many|other|=\d+)\s*)\{\s*([A-Za-z_]\w*)\s*[,}]/g)].map((m) => m[1]!))].sort();
}

describe('translations', () => {
  // Catalogs that test files make for themselves are named `test-…`: with unit files sharing a
  // worker, some may be registered by the time this file runs. They are no app text.
  const catalogs = registeredCatalogs().filter((c) => !c.name.startsWith('test-'));

  it('finds the app’s catalogs, one for every lab and every file that creates one', () => {
    expect(catalogFiles.length).toBeGreaterThan(20);
    expect(catalogs.length).toBeGreaterThanOrEqual(catalogFiles.length);
    expect(catalogs.map((c) => c.name)).toEqual(expect.arrayContaining(['workbench', 'ui', 'editor', 'classroom', ...REGISTERED_IDS.map((id) => `lab-${id}`)]));
  });

  it.each(catalogs.map((c) => [c.name, c] as const))('%s: every key has a Chinese message with the same placeholders', async (name, catalog) => {
    expect(catalog.translates('zh-CN'), `${name} has no zh-CN module`).toBe(true);
    await catalog.load('zh-CN');
    const en = catalog.messages('en')!;
    const zh = catalog.messages('zh-CN');
    expect(zh, `${name}: the zh-CN module did not load`).toBeDefined();
    expect(Object.keys(zh!).sort()).toEqual(Object.keys(en).sort());
    for (const [key, english] of Object.entries(en)) {
      const chinese = zh![key]!;
      expect(chinese.trim(), `${name}/${key} is empty`).not.toBe('');
      expect(placeholders(chinese), `${name}/${key}: placeholders differ`).toEqual(placeholders(english));
      // A message with English words in it must come out with Chinese in it (names such as GPU
      // or WGSL alone need no translation).
      const words = (english.replace(/\{[^{}]*\}/g, ' ').match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !NAMES.has(w));
      if (!SAME_IN_EVERY_LANGUAGE.has(`${name}/${key}`) && words.length > 0) {
        expect(chinese, `${name}/${key} is left in English`).toMatch(/[\u4e00-\u9fff]/);
      }
    }
  });
});
