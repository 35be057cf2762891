/**
 * A small ICU-style message formatter: `{name}` inserts a value, and
 * `{n, plural, one {# step} other {# steps}}` picks a branch by the locale's plural rules
 * (`=0` style exact matches first), with `#` standing for the number; `{n, number}` writes a
 * number as the locale does (digit grouping), and `{k, selectordinal, one {#st} two {#nd} …}`
 * picks by the ordinal rules (2nd, 3rd). Enough for the app's
 * catalogs; a message that does not parse is shown as written, so a typo never blanks the screen.
 */
export type MessageValues = Readonly<Record<string, string | number>>;

function findClose(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

// Intl objects cost far more to make than to use, and every step's narration formats plurals and
// numbers: one of each per locale (and rule type), made on first use.
const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();
function rulesFor(locale: string, type: Intl.PluralRuleType): Intl.PluralRules {
  const key = `${locale}|${type}`;
  let r = pluralRules.get(key);
  if (!r) pluralRules.set(key, (r = new Intl.PluralRules(locale, { type })));
  return r;
}
function numberFormatFor(locale: string): Intl.NumberFormat {
  let f = numberFormats.get(locale);
  if (!f) numberFormats.set(locale, (f = new Intl.NumberFormat(locale)));
  return f;
}

function plural(body: string, n: number, locale: string, values: MessageValues, type: Intl.PluralRuleType = 'cardinal'): string {
  const branches = new Map<string, string>();
  let i = 0;
  while (i < body.length) {
    const open = body.indexOf('{', i);
    if (open < 0) break;
    const key = body.slice(i, open).trim();
    const close = findClose(body, open);
    if (close < 0) break;
    branches.set(key, body.slice(open + 1, close));
    i = close + 1;
  }
  const chosen = branches.get(`=${n}`) ?? branches.get(rulesFor(locale, type).select(n)) ?? branches.get('other') ?? '';
  return format(chosen, values, locale).replace(/#/g, numberFormatFor(locale).format(n));
}

/** `template` with its placeholders filled from `values`. */
export function format(template: string, values: MessageValues = {}, locale = 'en'): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, open);
    const close = findClose(template, open);
    if (close < 0) {
      out += template.slice(open);
      break;
    }
    const inner = template.slice(open + 1, close);
    const [name = '', kind, ...rest] = inner.split(',');
    const value = values[name.trim()];
    if (kind?.trim() === 'plural' && typeof value === 'number') out += plural(rest.join(',').trim(), value, locale, values);
    else if (kind?.trim() === 'selectordinal' && typeof value === 'number') out += plural(rest.join(',').trim(), value, locale, values, 'ordinal');
    else if (kind?.trim() === 'number' && typeof value === 'number') out += numberFormatFor(locale).format(value);
    else out += value === undefined ? `{${inner}}` : String(value);
    i = close + 1;
  }
  return out;
}
