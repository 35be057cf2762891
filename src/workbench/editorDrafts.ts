/**
 * Drafts of lab kernels: one per lab and variant, kept across reloads (localStorage while small,
 * IndexedDB beyond, through `DraftStore`). Links that carry a draft are `shareLink.ts`.
 */
import { browserDraftDatabase, browserLocalStorage, DraftStore, draftNotice } from './drafts.ts';

export const draftKey = (lab: string, variant: string): string => `warpscope.draft.${lab}.${variant}`;

let store: DraftStore | undefined;
function drafts(): DraftStore {
  store ??= new DraftStore(browserLocalStorage(), browserDraftDatabase());
  return store;
}

/** The drafts kept for a lab's variants that localStorage holds (read synchronously, before the first simulation). */
export function loadLabDrafts(lab: string, variants: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of variants) {
    const text = drafts().loadLocal(draftKey(lab, v));
    if (text !== undefined) out[v] = text;
  }
  return out;
}

/** Drafts kept in IndexedDB (too big for localStorage), which arrive later. */
export async function loadBigDrafts(lab: string, variants: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const v of variants) {
    if (!drafts().inDatabase(draftKey(lab, v))) continue;
    const text = await drafts().load(draftKey(lab, v));
    if (text !== undefined) out[v] = text;
  }
  return out;
}

/** Keeps or forgets a draft; resolves to a sentence when it could not go where drafts usually go. */
export async function keepDraft(lab: string, variant: string, source: string | undefined): Promise<string | undefined> {
  const key = draftKey(lab, variant);
  if (source === undefined) {
    await drafts().clear(key);
    return undefined;
  }
  return draftNotice(await drafts().save(key, source));
}
