import { describe, expect, it } from 'vitest';
import { chooseLocale } from './language.ts';
import { formatLocation, parseLocation } from './url.ts';

describe('choosing the language', () => {
  it.each([
    ['the address first', '?lang=zh-CN', 'en', ['en-US'], 'zh-CN'],
    ['the address in any usual spelling', '?lang=zh-Hans', null, [], 'zh-CN'],
    ['then the remembered choice', '', 'zh-CN', ['en-US'], 'zh-CN'],
    ['then the browser’s languages, in order', '', null, ['fr-FR', 'zh-CN', 'en'], 'zh-CN'],
    ['an unknown language in the address is passed over', '?lang=xx', null, ['en-GB'], 'en'],
    ['English when nothing else is known', '', null, ['de'], 'en'],
  ] as const)('%s', (_name, search, remembered, browser, expected) => {
    expect(chooseLocale(search, remembered, browser)).toBe(expected);
  });
});

describe('?lang= in the address', () => {
  it('is kept in every link built from the chrome', () => {
    const p = parseLocation('/lesson/reduction/3', '?lang=zh-CN&mode=projector');
    expect(p.notices).toEqual([]);
    expect(p.chrome).toEqual({ mode: 'projector', embed: false, presenter: false, lang: 'zh-CN' });
    expect(formatLocation({ kind: 'lessons' }, p.chrome)).toBe('/lessons?mode=projector&lang=zh-CN');
  });

  it('says so when it names a language the app does not speak, and leaves it out', () => {
    const p = parseLocation('/', '?lang=klingon');
    expect(p.chrome).toEqual({ mode: 'normal', embed: false, presenter: false });
    expect(p.notices).toEqual(['Ignored language “klingon”: use lang=en or lang=zh-CN.']);
  });
});
