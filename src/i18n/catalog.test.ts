import { afterEach, describe, expect, it } from 'vitest';
import { createCatalog, loadLocale } from './catalog.ts';
import { parseLocale, setCurrentLocale } from './locale.ts';

describe('message catalogs', () => {
  afterEach(() => setCurrentLocale('en'));

  it('speaks English until another locale is chosen and loaded, then that locale', async () => {
    let loads = 0;
    const m = createCatalog('test-a', { hello: 'Hello, {who}', steps: '{n, plural, one {# step} other {# steps}}' }, {
      'zh-CN': () => {
        loads++;
        return Promise.resolve({ default: { hello: '你好，{who}', steps: '{n} 步' } });
      },
    });
    expect(m('hello', { who: 'GPU' })).toBe('Hello, GPU');
    expect(m('steps', { n: 1 })).toBe('1 step');
    setCurrentLocale('zh-CN');
    expect(m('hello', { who: 'GPU' })).toBe('Hello, GPU'); // not loaded yet: English, never a key
    await loadLocale('zh-CN');
    await loadLocale('zh-CN');
    expect(loads).toBe(1);
    expect(m('hello', { who: 'GPU' })).toBe('你好，GPU');
    expect(m('steps', { n: 3 })).toBe('3 步');
    setCurrentLocale('en');
    expect(m('hello', { who: 'GPU' })).toBe('Hello, GPU');
  });

  it('falls back to English for a catalog with no translation', async () => {
    const m = createCatalog('test-b', { only: 'Only English' });
    await loadLocale('zh-CN');
    setCurrentLocale('zh-CN');
    expect(m('only')).toBe('Only English');
    expect(m.has('only')).toBe(true);
    expect(m.has('other')).toBe(false);
  });

  it('reads the usual spellings of the supported languages', () => {
    expect(parseLocale('zh-CN')).toBe('zh-CN');
    expect(parseLocale('zh')).toBe('zh-CN');
    expect(parseLocale('zh-Hans')).toBe('zh-CN');
    expect(parseLocale('en-GB')).toBe('en');
    expect(parseLocale('fr')).toBeUndefined();
    expect(parseLocale('')).toBeUndefined();
  });
});
