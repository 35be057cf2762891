/**
 * The texts of the shared lab machinery (lab.ts): the common parameters' labels and the notices
 * the address and the resolvers give. Each lab folder has its own catalog beside its code.
 */
import { createCatalog } from '../i18n/catalog.ts';

const en = {
  'param.workgroupSize': 'workgroup size',
  'param.elementType': 'element type',
  'param.n': 'size n',
  'parse.wholeNumber': 'expected a whole number',
  'parse.range': 'it must lie between {min} and {max}',
  'parse.name': 'not a name Warpscope knows',
  'notice.workgroupSize': '{variant} is written for workgroups of {sizes}; using {size}.',
  'notice.deviceLimit': 'This GPU runs at most {max} invocations in a workgroup, and {label} {value} needs {need}; using {use}.',
  'notice.deviceNone': 'This GPU runs at most {max} invocations in a workgroup, and no {label} this variant offers fits; the kernel cannot run here. Pick another variant.',
  'control.overDevice': '{value} (needs {need} invocations; this GPU runs at most {max})',
  'notice.elementType': '{variant} does not run on {type}; using {use}.',
  'notice.stepLimit': 'Stepping through {n} elements would trace too much; simulating {max}. The timings below go to larger sizes.',
  'notice.ignored': 'Ignored {label} “{text}”: {error}.',
  'notice.noVariant': 'This lab has no variant “{id}”; showing {title}.',
  'check.length': 'the output has {got} elements where {want} were expected',
  'check.element': 'element {i} is {got} where the CPU reference has {want}',
} as const;

export const m = createCatalog('labs', en, { 'zh-CN': () => import('./labMessages.zh-CN.ts') });
export type LabsMessages = typeof en;
