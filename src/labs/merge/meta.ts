/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { intField, MAX_STEP_ELEMENTS, shown, type ParamField } from '../lab.ts';
import { isMergeInput, MERGE_INPUT_NAMES, MERGE_INPUTS } from './inputs.ts';

const LENGTHS = [8, 16, 24, 40, 64, 100, 256, 1000, 4096, 16384];

/** A length: A's may take what B leaves of the step-through's budget. */
function lengthField(key: 'm' | 'n', label: string, other?: 'm'): ParamField<number> {
  return intField({
    key,
    label,
    min: 1,
    max: 2 ** 27,
    choices: (_v, params) =>
      [...new Set([...LENGTHS, Number(params[key] ?? LENGTHS[0])])]
        .filter((x) => x >= 1)
        .sort((x, y) => x - y),
    resolve(value, _v, params) {
      // A takes at most half of what the step-through traces; B what A leaves.
      const cap = other ? MAX_STEP_ELEMENTS - Number(params[other] ?? 0) : MAX_STEP_ELEMENTS / 2;
      return value <= cap
        ? { value }
        : {
            value: cap,
            notice: `Stepping through a ${label} of ${value.toLocaleString('en')} would trace too much; simulating ${cap.toLocaleString('en')}. The timings go to larger sizes.`,
          };
    },
  });
}

const inputField: ParamField<string> = {
  key: 'input',
  label: 'input',
  parse: (raw) => (/^[a-z-]{1,20}$/.test(raw) ? { value: raw } : { error: 'not an input kind' }),
  choices: () => MERGE_INPUTS,
  resolve: (value) =>
    isMergeInput(value)
      ? { value }
      : {
          value: 'random',
          notice: `The merge lab has no input “${shown(value)}”; use ${MERGE_INPUTS.join(', ')}. Showing random sorted keys.`,
        },
  show: (v) => (isMergeInput(v) ? MERGE_INPUT_NAMES[v] : v),
};

const typeField: ParamField<string> = {
  key: 'type',
  label: 'element type',
  parse: (raw) => (/^[a-z0-9]{1,8}$/.test(raw) ? { value: raw } : { error: 'not an element type' }),
  choices: (variant) => variant.elementTypes,
  resolve: (value, variant) =>
    (variant.elementTypes as readonly string[]).includes(value)
      ? { value }
      : {
          value: 'i32',
          notice: `${variant.title} runs on ${variant.elementTypes.join(', ')}, not ${shown(value)}; using i32.`,
        },
};

/** A's length first, so B's can take what is left of the step-through's budget. */
export const mergeSpec = {
  m: lengthField('m', 'length m of A'),
  n: lengthField('n', 'length n of B', 'm'),
  input: inputField,
  type: typeField,
};

export const mergeMeta = {
  id: 'merge',
  courseOrder: 7.5,
  title: 'Parallel merge (co-rank)',
  summary:
    'Merge two sorted arrays with every invocation finding its own share by a binary search on the merge path’s cross-diagonal: per invocation in global memory, per tile in workgroup memory, and two versions aimed at memory bandwidth: a partition pass with coalesced tiles, and tiles streamed with the next one’s loads in flight.',
  params: mergeSpec,
  variantCount: 4,
} as const;
