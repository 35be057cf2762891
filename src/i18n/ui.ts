/**
 * The app shell's catalog: the header, the language switch, notices about the address, the start
 * page's device and vector-add panels, shortcuts, the panels shared by every lab (metrics,
 * timings, warps, memory, code) and error boxes. The workbench's own sentences are in messages.ts
 * and the editor's in views/editor/strings.ts; labs and lessons keep theirs in their folders.
 */
import { createCatalog } from './catalog.ts';
import type { MessageValues } from './format.ts';

const en = {
  // The address (url.ts): what was ignored, and why.
  'url.notWhole': 'Ignored {label} “{value}”: expected a whole number.',
  'url.outOfRange': 'Ignored {label} {value}: it must lie between {min} and {max}.',
  'url.unknownName': 'Ignored {label} “{value}”: not a name Warpscope knows.',
  'url.badQuery': 'The query string could not be read and was ignored.',
  'url.badMode': 'Ignored mode “{value}”: use mode=projector or leave it out.',
  'url.badLang': 'Ignored language “{value}”: use lang=en or lang=zh-CN.',
  'url.badEscapes': 'The address has broken escapes; showing the start page.',
  'url.noLabNamed': 'No lab named in the address; showing the start page.',
  'url.noLab': 'There is no lab “{value}”; showing the start page.',
  'url.badLesson': 'That lesson address is malformed; showing the lesson index.',
  'url.badStep': 'Ignored step “{value}”: starting at step 1.',
  'url.noPage': 'There is no page “/{value}”; showing the start page.',
  'url.label.variant': 'variant',
  'url.label.compare': 'comparison variant',
  'url.label.step': 'step',
  'url.label.workgroup': 'workgroup',
  'url.label.warp': 'warp',
  'url.label.lane': 'lane',
  // The shell (App.tsx, Notices.tsx).
  'app.skip': 'Skip to content',
  'app.nav': 'Lessons and labs',
  'app.lessons': 'Lessons',
  'app.shortcuts': '? Shortcuts',
  'app.language': 'Language',
  'app.thisPage': 'this page',
  'app.blanked': 'Screen blanked. Press B or click to show it again.',
  'app.titleLab': '{lab} — Warpscope',
  'app.titleLab.fallback': 'Lab',
  'app.titleLessons': 'Lessons — Warpscope',
  'notices.title': 'Parts of the address were not understood',
  'notices.dismiss': 'Dismiss',
} as const;

export type UiKey = keyof typeof en;

const catalog = createCatalog('ui', en, { 'zh-CN': () => import('./ui.zh-CN.ts') });

/** The shell's message `key` in the current locale, with its placeholders filled. */
export function ui(key: UiKey, values?: MessageValues): string {
  return catalog(key, values);
}
