/**
 * Links that carry a draft in their fragment, so a teacher can hand a class a broken kernel:
 * `#draft=<variant>~<lz-string>`. The fragment never reaches a server. Loaded only where a link
 * is made (the editor's chunk) or opened (a lab page whose address has `#draft=`).
 */
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import { formatInteger } from '../i18n/numbers.ts';
import { ui } from '../i18n/ui.ts';

/** The longest fragment a share link may carry (browsers and chat tools cut long addresses). */
export const SHARE_LIMIT = 8_000;

/** Whether a fragment carries a draft (checked without loading the decompressor). */
export const carriesDraft = (hash: string): boolean => /^#?draft=/.test(hash);

export type ShareLink = { readonly ok: true; readonly url: string; readonly length: number } | { readonly ok: false; readonly message: string };

/** The fragment that carries a draft. */
export function draftFragment(variant: string, source: string): string {
  return `draft=${encodeURIComponent(variant)}~${compressToEncodedURIComponent(source)}`;
}

/** A link to `base` (the page's address without a fragment) opening `source` as the draft of `variant`, or why not. */
export function shareLink(base: string, variant: string, source: string): ShareLink {
  const fragment = draftFragment(variant, source);
  if (fragment.length > SHARE_LIMIT) {
    return {
      ok: false,
      message: ui('share.tooLong', { length: formatInteger(fragment.length), limit: formatInteger(SHARE_LIMIT) }),
    };
  }
  const url = `${base.split('#')[0]}#${fragment}`;
  return { ok: true, url, length: fragment.length };
}

export type SharedDraft = { readonly variant: string; readonly source: string } | { readonly error: string } | undefined;

/** Reads a draft from a fragment (`location.hash`); undefined when it carries none. */
export function readSharedDraft(hash: string): SharedDraft {
  const m = /^#?draft=([^~]*)~(.*)$/s.exec(hash);
  if (!m) return undefined;
  if (m[2]!.length > SHARE_LIMIT) return { error: ui('share.linkTooLong', { limit: formatInteger(SHARE_LIMIT) }) };
  let variant: string;
  try {
    variant = decodeURIComponent(m[1]!);
  } catch {
    return { error: ui('share.badVariant') };
  }
  const source = decompressFromEncodedURIComponent(m[2]!);
  if (!source) return { error: ui('share.damaged') };
  return { variant, source };
}
