// The page's writes through the outbox (outbox.js, kept in IndexedDB: outbox-db.js): each is sent at once when there
// is a network, else kept and sent, in order, when the connection returns (the browser's `online` event, the page's
// start, and a try every half minute while any waits). The header says how many wait ("3 waiting to sync"); the
// marker answers of writes sent later are put on the page as they come (`answered`).
import { request } from './api.js';
import { byId } from './dom.js';
import { createOutbox, memoryStorage, newEntry } from './outbox.js';
import { indexedDBStorage } from './outbox-db.js';

/** How often the page tries again while writes wait and no `online` event came (some networks never send one). */
const RETRY_MS = 30000;

/** Sends one write of the outbox: its body or bytes, its Idempotency-Key, its If-Match. */
async function send(entry) {
  const headers = { 'Idempotency-Key': entry.key };
  if (entry.ifMatch !== undefined) headers['If-Match'] = `"${entry.ifMatch}"`;
  if (entry.raw !== undefined) headers['Content-Type'] = entry.contentType || 'application/octet-stream';
  const response = await request(entry.path, { method: entry.method, body: entry.body, raw: entry.raw, headers });
  return { status: response.status, data: await response.json().catch(() => null) };
}

/** Says in the header how many writes wait (hidden when none). */
function showCount(count) {
  const status = byId('sync-status');
  status.hidden = count === 0;
  status.dataset.count = String(count);
  status.textContent = count === 1 ? '1 waiting to sync' : `${count} waiting to sync`;
}

/**
 * The page's sync: `submit(fields)` makes a write (outbox.js newEntry's fields) and resolves what came of it;
 * `answered(entry, outcome, answer)` is told of every write the service answered (sent at once or later);
 * `waitingChanged(entries)` of the writes waiting whenever they may have changed.
 */
export function createSync({ answered, waitingChanged }) {
  let timer = null;
  const ready = indexedDBStorage().then((storage) => createOutbox({
    storage: storage ?? memoryStorage(),
    send,
    answered,
    waitingChanged(entries) {
      showCount(entries.length);
      if (timer) clearTimeout(timer);
      timer = entries.length > 0 ? setTimeout(() => flush(), RETRY_MS) : null;
      waitingChanged(entries);
    },
  }));

  /** Sends what waits. */
  async function flush() { return (await ready).flush(); }

  window.addEventListener('online', () => { flush(); });

  return {
    /** Makes a write (fields of outbox.js's newEntry) and resolves `{ outcome, status, data }` or `{ outcome: 'waiting' }`. */
    async submit(fields) { return (await ready).submit(newEntry(fields)); },
    /** Changes a write that waits; false when it has been sent meanwhile. */
    async update(entry) { return (await ready).update(entry); },
    /** The writes waiting, in order. */
    async entries() { return (await ready).entries(); },
    flush,
  };
}
