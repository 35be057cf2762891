import { useEffect, useRef } from 'react';

/** Everything the keyboard can do, named once. */
export type ActionId =
  | 'help'
  | 'play'
  | 'stepForward'
  | 'stepBack'
  | 'statementForward'
  | 'statementBack'
  | 'barrierForward'
  | 'barrierBack'
  | 'nextDivergence'
  | 'nextConflict'
  | 'first'
  | 'last'
  | 'slower'
  | 'faster'
  | 'compare'
  | 'projector'
  | 'blank'
  | 'fullscreen'
  | 'focusStage'
  | 'levelForward'
  | 'levelBack'
  | 'nextLessonStep'
  | 'prevLessonStep';

export interface Shortcut {
  /** `KeyboardEvent.key` values that trigger it. */
  readonly keys: readonly string[];
  /** How the key is shown in the help overlay. */
  readonly display: string;
  readonly action: ActionId;
  readonly label: string;
  readonly group: 'Timeline' | 'View' | 'Lessons & projector';
}

/** The one list of shortcuts: bound by `useShortcuts`, shown by the help overlay. */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: [' ', 'k'], display: 'Space / K', action: 'play', label: 'Play or pause the timeline', group: 'Timeline' },
  { keys: ['.', 'l'], display: '. / L', action: 'stepForward', label: 'Next warp instruction', group: 'Timeline' },
  { keys: [',', 'j'], display: ', / J', action: 'stepBack', label: 'Previous warp instruction', group: 'Timeline' },
  { keys: ['s'], display: 'S', action: 'statementForward', label: 'Next statement (source line changes)', group: 'Timeline' },
  { keys: ['S'], display: 'Shift+S', action: 'statementBack', label: 'Previous statement', group: 'Timeline' },
  { keys: [']'], display: ']', action: 'barrierForward', label: 'Next barrier', group: 'Timeline' },
  { keys: ['['], display: '[', action: 'barrierBack', label: 'Previous barrier', group: 'Timeline' },
  { keys: ['d'], display: 'D', action: 'nextDivergence', label: 'Jump to the next divergent branch', group: 'Timeline' },
  { keys: ['c'], display: 'C', action: 'nextConflict', label: 'Jump to the next bank conflict', group: 'Timeline' },
  { keys: ['Home'], display: 'Home', action: 'first', label: 'First step', group: 'Timeline' },
  { keys: ['End'], display: 'End', action: 'last', label: 'Last step', group: 'Timeline' },
  { keys: ['-'], display: '−', action: 'slower', label: 'Play slower', group: 'Timeline' },
  { keys: ['+', '='], display: '+', action: 'faster', label: 'Play faster', group: 'Timeline' },
  { keys: ['n'], display: 'N', action: 'levelForward', label: 'Next tree level', group: 'Timeline' },
  { keys: ['N'], display: 'Shift+N', action: 'levelBack', label: 'Previous tree level', group: 'Timeline' },
  { keys: ['z', 'Z'], display: 'Z', action: 'focusStage', label: 'Stage full screen (focus) on or off', group: 'View' },
  { keys: ['m'], display: 'M', action: 'compare', label: 'Compare two variants side by side', group: 'View' },
  { keys: ['?'], display: '?', action: 'help', label: 'Show or hide this help', group: 'View' },
  { keys: ['p', 'P'], display: 'P', action: 'projector', label: 'Projector mode on or off', group: 'Lessons & projector' },
  { keys: ['PageDown', 'ArrowRight', ' '], display: 'PageDown / → / Space', action: 'nextLessonStep', label: 'Next lesson step (clicker)', group: 'Lessons & projector' },
  { keys: ['PageUp', 'ArrowLeft'], display: 'PageUp / ←', action: 'prevLessonStep', label: 'Previous lesson step (clicker)', group: 'Lessons & projector' },
  { keys: ['b', 'B'], display: 'B', action: 'blank', label: 'Blank the screen (projector)', group: 'Lessons & projector' },
  { keys: ['f', 'F'], display: 'F', action: 'fullscreen', label: 'Fullscreen on or off', group: 'Lessons & projector' },
];

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset'].includes(type);
  }
  return false;
}

export type ShortcutHandlers = Partial<Record<ActionId, () => void>>;

/** How many mounted components handle each action: the help overlay lists only live shortcuts. */
const live = new Map<ActionId, number>();

/** The shortcuts something on the page handles right now, in the list's order. */
export function liveShortcuts(): Shortcut[] {
  return SHORTCUTS.filter((s) => (live.get(s.action) ?? 0) > 0);
}

/**
 * Binds the shortcuts whose actions the caller handles. Keys are ignored while typing in an
 * editor or field, and when a modifier (Ctrl, Alt, Meta) is held, so browser shortcuts still work.
 * Space on a focused button or range keeps its own meaning.
 */
export function useShortcuts(handlers: ShortcutHandlers): void {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  const actions = (Object.keys(handlers) as ActionId[]).sort().join(',');
  useEffect(() => {
    const ids = actions.split(',').filter((a): a is ActionId => a.length > 0);
    for (const id of ids) live.set(id, (live.get(id) ?? 0) + 1);
    return () => {
      for (const id of ids) live.set(id, (live.get(id) ?? 1) - 1);
    };
  }, [actions]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.altKey || e.metaKey || e.defaultPrevented) return;
      if (isTyping(e.target)) return;
      if (e.key === ' ' && e.target instanceof HTMLElement && ['BUTTON', 'A'].includes(e.target.tagName)) return;
      // The first shortcut for this key that this component handles: Space plays in a lab and
      // steps the lesson (the clicker) inside a lesson, where the lab leaves Play to its button.
      const shortcut = SHORTCUTS.find((s) => s.keys.includes(e.key) && ref.current[s.action] !== undefined);
      if (!shortcut) return;
      const handler = ref.current[shortcut.action]!;
      e.preventDefault();
      handler();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
