import { afterEach, describe, expect, it } from 'vitest';
import { createCatalog, loadLocale, switchWhenLoaded, textGetters, withTexts } from './catalog.ts';
import { getLocale, localeSnapshot, parseLocale, setCurrentLocale, subscribeLocale } from './locale.ts';

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

  it('finds a message by a key built at run time, in the language of the moment, and nothing for a key it lacks', async () => {
    const m = createCatalog('test-find', { 'op.load': 'load from {where}' }, { 'zh-CN': () => Promise.resolve({ default: { 'op.load': '从{where}读取' } }) });
    expect(m.find('op.load', { where: 'shared' })).toBe('load from shared');
    expect(m.find('op.store')).toBeUndefined();
    await loadLocale('zh-CN');
    setCurrentLocale('zh-CN');
    expect(m.find(`op.${'load'}`, { where: '共享内存' })).toBe('从共享内存读取');
  });

  it('a catalog created after the switch (a lab loaded later) fetches the current language and tells the views', async () => {
    setCurrentLocale('zh-CN');
    const before = localeSnapshot();
    let told = 0;
    const stop = subscribeLocale(() => told++);
    let resolve: (m: { default: { title: string } }) => void = () => undefined;
    const late = createCatalog('test-late', { title: 'Histogram' }, { 'zh-CN': () => new Promise((r) => (resolve = r)) });
    expect(late('title')).toBe('Histogram'); // until its Chinese arrives
    resolve({ default: { title: '直方图' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(late('title')).toBe('直方图');
    expect(told).toBe(1);
    expect(localeSnapshot()).not.toBe(before); // so useLocale re-renders
    stop();
  });

  it('switches only once every catalog has the language, those registered while it loads too (a chunk that arrives meanwhile)', async () => {
    const gate = <T,>() => {
      let open: (v: T) => void = () => undefined;
      return { promise: new Promise<T>((r) => (open = r)), open: (v: T) => open(v) };
    };
    const first = gate<{ default: { title: string } }>();
    const home = createCatalog('test-switch-home', { title: 'Start' }, { 'zh-CN': () => first.promise });
    const switching = switchWhenLoaded('zh-CN');
    // The lessons' chunk arrives while the home catalog's Chinese is still on its way.
    const second = gate<{ default: { title: string } }>();
    const lessons = createCatalog('test-switch-lessons', { title: 'Threads and blocks' }, { 'zh-CN': () => second.promise });
    first.open({ default: { title: '开始' } });
    await new Promise((r) => setTimeout(r, 0));
    // Not yet: the lessons' title would show in English beside a Chinese page.
    expect(getLocale()).toBe('en');
    expect([home('title'), lessons('title')]).toEqual(['Start', 'Threads and blocks']);
    second.open({ default: { title: '线程与线程块' } });
    await switching;
    expect(getLocale()).toBe('zh-CN');
    expect([home('title'), lessons('title')]).toEqual(['开始', '线程与线程块']);
  });

  it('of two switches under way, applies the later one', async () => {
    const slow = new Promise<{ default: { word: string } }>((r) => setTimeout(() => r({ default: { word: '词' } }), 5));
    createCatalog('test-switch-twice', { word: 'word' }, { 'zh-CN': () => slow });
    const toChinese = switchWhenLoaded('zh-CN');
    await switchWhenLoaded('en');
    await toChinese;
    expect(getLocale()).toBe('en');
  });

  it('gives a table of sentences that reads each in the language of the moment, and refuses a field with no message', async () => {
    const m = createCatalog('test-getters', { 'd.title': 'Debugger', 'd.none': 'None' }, {
      'zh-CN': () => Promise.resolve({ default: { 'd.title': '调试器', 'd.none': '无' } }),
    });
    const text = withTexts({ kept: 1 }, textGetters(m, 'd.', ['title', 'none']));
    expect([text.title, text.none, text.kept]).toEqual(['Debugger', 'None', 1]);
    await loadLocale('zh-CN');
    setCurrentLocale('zh-CN');
    expect([text.title, text.none]).toEqual(['调试器', '无']);
    expect(() => textGetters(m, 'd.', ['title', 'tittle'])).toThrow(/“test-getters” has no “d.tittle”/);
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
