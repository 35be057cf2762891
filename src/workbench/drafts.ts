/**
 * Where drafts of edited kernels are kept: `localStorage` while they fit, IndexedDB (the raw API,
 * no dependency) when they do not, and the person is told either way when a draft could not be
 * kept where it was. A draft that fits nowhere stays in the tab and the page says so; an older
 * draft never silently comes back in its place.
 */
import { ui } from '../i18n/ui.ts';

/** The part of `Storage` drafts use. */
export type DraftLocalStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** A tiny key–value store (IndexedDB in the browser). */
export interface DraftDatabase {
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export type DraftSaved =
  | { readonly where: 'none' }
  | { readonly where: 'local' }
  | { readonly where: 'indexeddb'; readonly reason: string }
  | { readonly where: 'tab-only'; readonly reason: string };

/** The marker beside a draft key saying its text is in IndexedDB. */
export const LOCATION_SUFFIX = '.location';

function isQuotaError(e: unknown): boolean {
  if (!(e instanceof Error) && !(typeof DOMException !== 'undefined' && e instanceof DOMException)) return false;
  const { name, code } = e as { name?: string; code?: number };
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || code === 22 || code === 1014;
}

const chars = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toLocaleString('en', { maximumFractionDigits: 1 })} M characters` : `${n.toLocaleString('en')} characters`;

export class DraftStore {
  constructor(
    private readonly local: DraftLocalStorage | undefined,
    private readonly db: DraftDatabase | undefined,
  ) {}

  /** True when the draft under `key` is in IndexedDB (so `load` must be awaited for it). */
  inDatabase(key: string): boolean {
    try {
      return this.local?.getItem(key + LOCATION_SUFFIX) === 'indexeddb';
    } catch {
      return false;
    }
  }

  /** The draft kept in localStorage, synchronously (undefined when none or kept elsewhere). */
  loadLocal(key: string): string | undefined {
    try {
      if (this.inDatabase(key)) return undefined;
      return this.local?.getItem(key) ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** The draft wherever it is kept. */
  async load(key: string): Promise<string | undefined> {
    if (!this.inDatabase(key)) return this.loadLocal(key);
    try {
      return await this.db?.get(key);
    } catch {
      return undefined;
    }
  }

  /** Forgets the draft everywhere. */
  async clear(key: string): Promise<void> {
    try {
      this.local?.removeItem(key);
      this.local?.removeItem(key + LOCATION_SUFFIX);
    } catch {
      // Private mode: nothing was kept.
    }
    try {
      await this.db?.delete(key);
    } catch {
      // Nothing to delete.
    }
  }

  /** Keeps `text` under `key`: localStorage if it fits, else IndexedDB, else says it could not. */
  async save(key: string, text: string): Promise<DraftSaved> {
    if (!this.local) return this.saveInDatabase(key, text, 'this browser gives the page no local storage');
    try {
      this.local.setItem(key, text);
      this.local.removeItem(key + LOCATION_SUFFIX);
      if (this.db) void this.db.delete(key).catch(() => undefined);
      return { where: 'local' };
    } catch (e) {
      // Whatever happens next, the older draft must not come back in this one's place.
      try {
        this.local.removeItem(key);
      } catch {
        // Nothing more to do.
      }
      const reason = isQuotaError(e)
        ? `the draft (${chars(text.length)}) is too big for this browser's local storage`
        : `local storage refused it (${e instanceof Error ? e.message : String(e)})`;
      return this.saveInDatabase(key, text, reason);
    }
  }

  private async saveInDatabase(key: string, text: string, reason: string): Promise<DraftSaved> {
    if (!this.db) return { where: 'tab-only', reason: `${reason}, and IndexedDB is not available` };
    try {
      await this.db.put(key, text);
      this.local?.setItem(key + LOCATION_SUFFIX, 'indexeddb');
      return { where: 'indexeddb', reason };
    } catch (e) {
      return { where: 'tab-only', reason: `${reason}, and IndexedDB refused it too (${e instanceof Error ? e.message : String(e)})` };
    }
  }
}

/** What a person reads about where their draft is, or undefined when there is nothing to say. */
export function draftNotice(saved: DraftSaved): string | undefined {
  if (saved.where === 'indexeddb') return ui('draft.indexeddb', { reason: saved.reason });
  if (saved.where === 'tab-only') return ui('draft.tabOnly', { reason: saved.reason });
  return undefined;
}

const DB_NAME = 'warpscope';
const STORE = 'drafts';

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

/** The browser's IndexedDB as a `DraftDatabase`, or undefined where there is none. */
export function browserDraftDatabase(): DraftDatabase | undefined {
  if (typeof indexedDB === 'undefined') return undefined;
  let opening: Promise<IDBDatabase> | undefined;
  const open = (): Promise<IDBDatabase> =>
    (opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open(DB_NAME, 1);
      r.onupgradeneeded = () => {
        if (!r.result.objectStoreNames.contains(STORE)) r.result.createObjectStore(STORE);
      };
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => {
        opening = undefined;
        reject(r.error ?? new Error('IndexedDB could not be opened'));
      };
      r.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    }));
  const tx = async <T>(mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const db = await open();
    const t = db.transaction(STORE, mode);
    const done = new Promise<void>((resolve, reject) => {
      t.oncomplete = () => resolve();
      t.onerror = () => reject(t.error ?? new Error('IndexedDB transaction failed'));
      t.onabort = () => reject(t.error ?? new Error('IndexedDB transaction aborted'));
    });
    const [result] = await Promise.all([request(work(t.objectStore(STORE))), done]);
    return result;
  };
  return {
    get: async (key) => {
      const v = await tx('readonly', (s) => s.get(key) as IDBRequest<unknown>);
      return typeof v === 'string' ? v : undefined;
    },
    put: async (key, value) => {
      await tx('readwrite', (s) => s.put(value, key));
    },
    delete: async (key) => {
      await tx('readwrite', (s) => s.delete(key));
    },
  };
}

/** Local storage when the page may use it (private modes and policies can forbid it). */
export function browserLocalStorage(): DraftLocalStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
