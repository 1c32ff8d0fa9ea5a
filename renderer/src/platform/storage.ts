/**
 * The web build's persistence: IndexedDB, one database, three object stores — picked creatures (their
 * bytes, so a saved project finds them again after a reload), saved projects, and small settings (recent
 * files, autosave). Behind a tiny key-value interface so the web platform is tested with the in-memory
 * version, which is also the fallback where IndexedDB is unavailable (some private-browsing modes).
 */
export type StoreName = 'creatures' | 'projects' | 'settings';

export interface KeyValueStore {
  get<T>(store: StoreName, key: string): Promise<T | undefined>;
  put(store: StoreName, key: string, value: unknown): Promise<void>;
  delete(store: StoreName, key: string): Promise<void>;
  keys(store: StoreName): Promise<string[]>;
}

const STORES: readonly StoreName[] = ['creatures', 'projects', 'settings'];

export function createMemoryStore(): KeyValueStore {
  const data = new Map<StoreName, Map<string, unknown>>(STORES.map((s) => [s, new Map()]));
  // structuredClone: callers must not be able to mutate what is "stored", as with IndexedDB.
  return {
    get: async <T>(store: StoreName, key: string) => structuredClone(data.get(store)!.get(key)) as T | undefined,
    put: async (store, key, value) => void data.get(store)!.set(key, structuredClone(value)),
    delete: async (store, key) => void data.get(store)!.delete(key),
    keys: async (store) => [...data.get(store)!.keys()],
  };
}

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

export function openIndexedDbStore(name = 'marionette', factory: IDBFactory = indexedDB): KeyValueStore {
  let opened: Promise<IDBDatabase> | null = null;
  const db = (): Promise<IDBDatabase> => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(name, 1);
      request.onupgradeneeded = () => {
        for (const store of STORES) if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(new Error(`Browser storage (IndexedDB) cannot be opened: ${request.error?.message ?? 'unknown error'}`));
      request.onblocked = () => reject(new Error('Browser storage (IndexedDB) is blocked by another Marionette tab; close it and retry.'));
    });
    return opened;
  };
  const run = async <T>(store: StoreName, mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const transaction = (await db()).transaction(store, mode);
    // A write is durable only when its transaction completes, not when the request succeeds.
    const done = new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB write failed'));
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB write aborted (is browser storage full?)'));
    });
    done.catch(() => undefined); // a failed request rejects below; do not also report the abort as unhandled
    const result = await promised(work(transaction.objectStore(store)));
    await done;
    return result;
  };
  return {
    get: <T>(store: StoreName, key: string) => run(store, 'readonly', (s) => s.get(key) as IDBRequest<T | undefined>),
    put: async (store, key, value) => void (await run(store, 'readwrite', (s) => s.put(value, key))),
    delete: async (store, key) => void (await run(store, 'readwrite', (s) => s.delete(key))),
    keys: async (store) => (await run(store, 'readonly', (s) => s.getAllKeys())).map(String),
  };
}
