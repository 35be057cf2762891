/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { m } from './messages.ts';
import { choiceField, described, intField, MAX_STEP_ELEMENTS, type ParamField, shown } from '../../workbench/lab.ts';
import { isMergeInput, MERGE_INPUTS } from './inputs.ts';

const LENGTHS = [8, 16, 24, 40, 64, 100, 256, 1000, 4096, 16384];

/** A length: A's may take what B leaves of the step-through's budget. */
function lengthField(key: 'm' | 'n', other?: 'm'): ParamField<number> {
  const label = (): string => m(key === 'm' ? 'param.m' : 'param.n');
  return intField({
    key,
    get label() {
      return label();
    },
    min: 1,
    max: 2 ** 27,
    choices: (_v, params) => [...new Set([...LENGTHS, Number(params[key] ?? LENGTHS[0])])].filter((x) => x >= 1).sort((x, y) => x - y),
    resolve(value, _v, params) {
      // A takes at most half of what the step-through traces; B what A leaves.
      const cap = other ? MAX_STEP_ELEMENTS - Number(params[other] ?? 0) : MAX_STEP_ELEMENTS / 2;
      return value <= cap
        ? { value }
        : { value: cap, notice: m('notice.length', { label: label(), n: value.toLocaleString('en'), cap: cap.toLocaleString('en') }) };
    },
  });
}

const inputField = choiceField({
  key: 'input',
  get label() {
    return m('param.input');
  },
  values: MERGE_INPUTS,
  fallback: 'random',
  parseError: () => m('parse.input'),
  notice: (name) => m('notice.input', { name, names: MERGE_INPUTS.join(', ') }),
  show: (v) => (isMergeInput(v) ? m(`input.${v}`) : v),
});

const typeField: ParamField<string> = {
  key: 'type',
  get label() {
    return m('param.type');
  },
  parse: (raw) => (/^[a-z0-9]{1,8}$/.test(raw) ? { value: raw } : { error: m('parse.type') }),
  choices: (variant) => variant.elementTypes,
  resolve: (value, variant) =>
    (variant.elementTypes as readonly string[]).includes(value) ? { value } : { value: 'i32', notice: m('notice.type', { variant: variant.title, types: variant.elementTypes.join(', '), type: shown(value) }) },
};

/** A's length first, so B's can take what is left of the step-through's budget. */
export const mergeSpec = { m: lengthField('m'), n: lengthField('n', 'm'), input: inputField, type: typeField };

export const mergeMeta = described(
  { id: 'merge', courseOrder: 7.5, params: mergeSpec, variantCount: 5 },
  () => m('merge.title'),
  () => m('merge.summary'),
);
