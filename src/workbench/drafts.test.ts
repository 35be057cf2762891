import { describe, expect, it } from 'vitest';
import { DraftStore, draftNotice, LOCATION_SUFFIX, type DraftDatabase, type DraftLocalStorage } from './drafts.ts';

/** localStorage with a quota in characters, throwing what browsers throw past it. */
function quotaStorage(limit: number): DraftLocalStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  const used = () => [...map].reduce((a, [k, v]) => a + k.length + v.length, 0);
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => {
      const before = map.get(k);
      map.delete(k);
      if (used() + k.length + v.length > limit) {
        if (before !== undefined) map.set(k, before);
        const e = new Error("Failed to execute 'setItem' on 'Storage': Setting the value exceeded the quota.");
        e.name = 'QuotaExceededError';
        throw e;
      }
      map.set(k, v);
    },
  };
}

function memoryDb(): DraftDatabase & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get: (k) => Promise.resolve(map.get(k)),
    put: (k, v) => {
      map.set(k, v);
      return Promise.resolve();
    },
    delete: (k) => {
      map.delete(k);
      return Promise.resolve();
    },
  };
}

const KEY = 'warpscope.vector-add.draft';

describe('drafts', () => {
  it('keeps a draft too big for local storage in IndexedDB, says so, and the older draft does not return', async () => {
    const local = quotaStorage(5_000_000);
    const db = memoryDb();
    const store = new DraftStore(local, db);
    expect(await store.save(KEY, 'older draft')).toEqual({ where: 'local' });
    const big = 'x'.repeat(6_000_000);
    const saved = await store.save(KEY, big);
    expect(saved.where).toBe('indexeddb');
    expect(draftNotice(saved)).toBe(
      "Your edit is kept in this browser's IndexedDB: the draft (6 M characters) is too big for this browser's local storage. It comes back after a reload.",
    );
    // After a reload: the big draft, not the older one.
    const reloaded = new DraftStore(local, db);
    expect(reloaded.loadLocal(KEY)).toBeUndefined();
    expect(reloaded.inDatabase(KEY)).toBe(true);
    expect(await reloaded.load(KEY)).toBe(big);
    // A later small draft goes back to local storage and the big one is dropped.
    expect(await reloaded.save(KEY, 'small again')).toEqual({ where: 'local' });
    expect(local.map.get(KEY + LOCATION_SUFFIX)).toBeUndefined();
    await Promise.resolve();
    expect(db.map.has(KEY)).toBe(false);
    expect(await reloaded.load(KEY)).toBe('small again');
  });

  it('says the edit lives only in the tab when no store takes it, and drops the older draft', async () => {
    const local = quotaStorage(1000);
    const store = new DraftStore(local, undefined);
    await store.save(KEY, 'older');
    const saved = await store.save(KEY, 'y'.repeat(2000));
    expect(saved.where).toBe('tab-only');
    expect(draftNotice(saved)).toMatch(/^Your edit could not be saved: the draft \(2,000 characters\) is too big .*, and IndexedDB is not available\. It stays only in this tab/);
    expect(store.loadLocal(KEY)).toBeUndefined();
  });

  it('clears a draft everywhere', async () => {
    const local = quotaStorage(100);
    const db = memoryDb();
    const store = new DraftStore(local, db);
    await store.save(KEY, 'z'.repeat(500));
    await store.clear(KEY);
    expect(local.map.size).toBe(0);
    expect(db.map.size).toBe(0);
    expect(await store.load(KEY)).toBeUndefined();
  });
});
