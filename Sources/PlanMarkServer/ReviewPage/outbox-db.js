// The outbox's storage in IndexedDB (database "planmark", object store "outbox", ids in the order the writes were
// made), so writes made without a network outlive a reload, a closed tab and a phone that runs out of battery.
// The storage interface is outbox.js's: all, add, put, delete. A photo's bytes are kept as the Blob itself.

const DATABASE = 'planmark';
const STORE = 'outbox';

/** The answer of an IndexedDB request as a promise. */
function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Opens the database, making the object store the first time. */
function open() {
  const request = indexedDB.open(DATABASE, 1);
  request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id', autoIncrement: true });
  return done(request);
}

/** The outbox's storage in IndexedDB; null where the browser has none (then outbox.js's memoryStorage serves). */
export async function indexedDBStorage() {
  if (typeof indexedDB === 'undefined') return null;
  let db;
  try { db = await open(); } catch (error) { return null; }
  /** Runs `work(store)` in one transaction and resolves its result once the transaction has committed. */
  function transaction(mode, work) {
    const tx = db.transaction(STORE, mode);
    const result = work(tx.objectStore(STORE));
    return new Promise((resolve, reject) => {
      tx.oncomplete = () => Promise.resolve(result).then(resolve, reject);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }
  return {
    all: () => transaction('readonly', (store) => done(store.getAll())),
    add(entry) {
      const fields = { ...entry };
      delete fields.id; // a new entry gets its id from the store
      return transaction('readwrite', (store) => done(store.add(fields)));
    },
    put: (entry) => transaction('readwrite', (store) => {
      // Only an entry still waiting is changed (one sent meanwhile is not written back).
      const request = store.getKey(entry.id);
      return new Promise((resolve) => {
        request.onsuccess = () => {
          if (request.result === undefined) { resolve(false); return; }
          store.put(entry);
          resolve(true);
        };
        request.onerror = () => resolve(false);
      });
    }),
    delete: (id) => transaction('readwrite', (store) => done(store.delete(id))),
  };
}
