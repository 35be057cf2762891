/**
 * Everything a person can point at lives in the URL. This module turns a location into a route
 * and back. It never throws: a malformed or hostile URL becomes the nearest sane route plus a list
 * of notices saying what was ignored. Values are only ever compared against known lists or parsed
 * as bounded integers, never evaluated or written into the page as HTML.
 */

import { labInfo, LAB_IDS, type LabId } from '../labs/catalog.ts';
import { formatParams, parseParams, type ParamValue } from './lab.ts';
import { parseLocale, type Locale } from '../i18n/locale.ts';
import { ui, type UiKey } from '../i18n/ui.ts';

export type { LabId } from '../labs/catalog.ts';

export type PresentationMode = 'normal' | 'projector';

export interface LabRoute {
  readonly kind: 'lab';
  readonly lab: LabId;
  readonly variant: string | undefined;
  readonly compare: string | undefined;
  /** The lab's parameters the address names, parsed by the lab's `ParamSpec` (the rest take defaults). */
  readonly params: Readonly<Partial<Record<string, ParamValue>>>;
  readonly step: number | undefined;
  readonly workgroup: number | undefined;
  readonly warp: number | undefined;
  readonly lane: number | undefined;
}

export interface LessonRoute {
  readonly kind: 'lesson';
  readonly lesson: string;
  /** 1-based step number as shown to people. */
  readonly step: number;
}

/** `/live` (the join form) and `/live/CODE` (a live class's room, for a student). */
export interface LiveRoute {
  readonly kind: 'live';
  readonly room: string | undefined;
}

export type Route = { readonly kind: 'home' } | { readonly kind: 'lessons' } | { readonly kind: 'program' } | LabRoute | LessonRoute | LiveRoute;

export interface Chrome {
  readonly mode: PresentationMode;
  readonly embed: boolean;
  readonly presenter: boolean;
  /** The language the address asks for (`?lang=`), kept in every link; absent: the remembered one. */
  readonly lang?: Locale;
}

export interface ParsedLocation {
  readonly route: Route;
  readonly chrome: Chrome;
  /** What was ignored and why, in words a person understands. */
  readonly notices: readonly string[];
}

const MAX_INT = 2 ** 31 - 1;
const SAFE_SEGMENT = /^[a-z0-9-]{1,40}$/;

/** Cuts a value for display in a notice, so a hostile URL cannot fill the screen. */
function shown(value: string): string {
  const clean = value.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

function intParam(
  params: URLSearchParams,
  name: string,
  label: UiKey,
  notices: string[],
  min = 0,
  max = MAX_INT,
): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d{1,10}$/.test(raw)) {
    notices.push(ui('url.notWhole', { label: ui(label), value: shown(raw) }));
    return undefined;
  }
  const value = Number(raw);
  if (value < min || value > max) {
    notices.push(ui('url.outOfRange', { label: ui(label), value, min, max }));
    return undefined;
  }
  return value;
}

function nameParam(params: URLSearchParams, name: string, label: UiKey, notices: string[]): string | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  if (!SAFE_SEGMENT.test(raw)) {
    notices.push(ui('url.unknownName', { label: ui(label), value: shown(raw) }));
    return undefined;
  }
  return raw;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Parses `pathname` and `search` into a route; unknown parts become notices. */
export function parseLocation(pathname: string, search: string): ParsedLocation {
  const notices: string[] = [];
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    params = new URLSearchParams();
    notices.push(ui('url.badQuery'));
  }
  const modeRaw = params.get('mode');
  let mode: PresentationMode = 'normal';
  if (modeRaw === 'projector') mode = 'projector';
  else if (modeRaw !== null && modeRaw !== '' && modeRaw !== 'normal') {
    notices.push(ui('url.badMode', { value: shown(modeRaw) }));
  }
  const embed = params.get('embed') === '1';
  const presenter = params.get('view') === 'presenter';
  const langRaw = params.get('lang');
  const lang = parseLocale(langRaw);
  if (langRaw !== null && langRaw !== '' && !lang) notices.push(ui('url.badLang', { value: shown(langRaw) }));
  const chrome: Chrome = lang ? { mode, embed, presenter, lang } : { mode, embed, presenter };

  const segments = pathname
    .split('/')
    .filter((s) => s.length > 0)
    .map(decodeSegment);
  if (segments.some((s) => s === undefined)) {
    notices.push(ui('url.badEscapes'));
    return { route: { kind: 'home' }, chrome, notices };
  }
  const [first, second, third, ...rest] = segments as string[];

  if (first === undefined) return { route: { kind: 'home' }, chrome, notices };

  if (first === 'lab') {
    const lab = LAB_IDS.find((l) => l === second);
    if (!lab || third !== undefined) {
      notices.push(
        second === undefined
          ? ui('url.noLabNamed')
          : ui('url.noLab', { value: shown(second) }),
      );
      return { route: { kind: 'home' }, chrome, notices };
    }
    const variant = nameParam(params, 'v', 'url.label.variant', notices);
    const compare = nameParam(params, 'cmp', 'url.label.compare', notices);
    const parsed = parseParams(labInfo(lab), (key) => params.get(key));
    notices.push(...parsed.notices);
    const route: LabRoute = {
      kind: 'lab',
      lab,
      variant,
      compare,
      params: parsed.params,
      step: intParam(params, 'step', 'url.label.step', notices),
      workgroup: intParam(params, 'g', 'url.label.workgroup', notices),
      warp: intParam(params, 'warp', 'url.label.warp', notices),
      lane: intParam(params, 'lane', 'url.label.lane', notices, 0, 1023),
    };
    return { route, chrome, notices };
  }

  if (first === 'lessons' && second === undefined) return { route: { kind: 'lessons' }, chrome, notices };

  if (first === 'lesson') {
    if (second === undefined || !SAFE_SEGMENT.test(second) || rest.length > 0) {
      notices.push(ui('url.badLesson'));
      return { route: { kind: 'lessons' }, chrome, notices };
    }
    let step = 1;
    if (third !== undefined) {
      if (/^\d{1,4}$/.test(third) && Number(third) >= 1) step = Number(third);
      else notices.push(ui('url.badStep', { value: shown(third) }));
    }
    return { route: { kind: 'lesson', lesson: second, step }, chrome, notices };
  }

  if (first === 'program' && second === undefined) return { route: { kind: 'program' }, chrome, notices };

  if (first === 'live' && third === undefined) {
    // A room code as typed or scanned: letters and digits; the page checks it against the alphabet.
    const room = second !== undefined && /^[A-Za-z0-9]{8}$/.test(second) ? second.toUpperCase() : undefined;
    if (second !== undefined && room === undefined) notices.push(ui('url.badRoom', { value: shown(second) }));
    return { route: { kind: 'live', room }, chrome, notices };
  }

  notices.push(ui('url.noPage', { value: shown(segments.join('/')) }));
  return { route: { kind: 'home' }, chrome, notices };
}

/** Builds the URL (path and query) for a route, leaving out what equals the defaults. */
export function formatLocation(route: Route, chrome: Chrome): string {
  const params = new URLSearchParams();
  let path = '/';
  if (route.kind === 'lab') {
    path = `/lab/${route.lab}`;
    const put = (k: string, v: string | number | undefined) => {
      if (v !== undefined) params.set(k, String(v));
    };
    put('v', route.variant);
    put('cmp', route.compare);
    for (const [key, value] of formatParams(labInfo(route.lab), route.params)) put(key, value);
    put('step', route.step);
    put('g', route.workgroup);
    put('warp', route.warp);
    put('lane', route.lane);
  } else if (route.kind === 'lesson') {
    path = `/lesson/${route.lesson}/${route.step}`;
  } else if (route.kind === 'lessons') {
    path = '/lessons';
  } else if (route.kind === 'program') {
    path = '/program';
  } else if (route.kind === 'live') {
    path = route.room ? `/live/${route.room}` : '/live';
  }
  if (chrome.mode === 'projector') params.set('mode', 'projector');
  if (chrome.embed) params.set('embed', '1');
  if (chrome.presenter) params.set('view', 'presenter');
  if (chrome.lang) params.set('lang', chrome.lang);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** A lab route with nothing chosen yet: the lab's defaults apply. */
export function labRoute(lab: LabId, patch: Partial<Omit<LabRoute, 'kind' | 'lab'>> = {}): LabRoute {
  return {
    kind: 'lab',
    lab,
    variant: undefined,
    compare: undefined,
    params: {},
    step: undefined,
    workgroup: undefined,
    warp: undefined,
    lane: undefined,
    ...patch,
  };
}
