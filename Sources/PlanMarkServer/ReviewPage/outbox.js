// The outbox: the page's writes (markers placed, edited, moved, deleted; comments; photos), kept on the device until
// the service has answered them, and sent one at a time in the order they were made. A write made without a network
// waits there ("waiting to sync") and goes when the connection returns, after every write made before it.
// Nothing is stored twice: a new marker carries its `uuid` and every other write an `Idempotency-Key`, so sending
// one again (the answer was lost, or two tabs sent it) only gives the first answer again (docs/http-api.md).
// Plain logic over a storage and a send function the caller gives (outbox-db.js: IndexedDB; send: api.js), so
// Tests/ReviewPageTests/outbox.test.mjs runs it under node with its own.
//
// An entry: { id (the storage's, in order), key (Idempotency-Key), method, path, body (JSON) or raw (a Blob) with
// contentType, ifMatch, drawing, kind ('place' | 'edit' | 'move' | 'delete' | 'comment' | 'photo'), number (the
// marker's, none for a marker placed here), uuid (a placed marker's) }.

/** What an answer's status means for its write: kept, refused for good, a conflict to show, or to be sent again later. */
export function outcomeOf(status) {
  if (status >= 200 && status < 300) return 'stored';
  if (status === 412) return 'conflict';
  // The service is down or busy, or asks for time: the write waits and goes again.
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'refused';
}

/** What a waiting edit shows on its marker until it is sent: its fields, without the reason that goes with a status. */
export function shownChange(body) {
  const shown = { ...body };
  delete shown.reason;
  return shown;
}

/** A new entry: `fields` with its own Idempotency-Key (and its own uuid when it places a marker). */
export function newEntry(fields, randomUUID = () => crypto.randomUUID()) {
  const entry = { ...fields, key: randomUUID() };
  if (fields.kind === 'place') entry.body = { ...fields.body, uuid: fields.body?.uuid ?? randomUUID() };
  if (entry.kind === 'place') entry.uuid = entry.body.uuid;
  return entry;
}

/**
 * The outbox over `storage` ({ all(): entries by id, add(entry): its id, put(entry): whether it was still there,
 * delete(id) }) and `send(entry)` (resolves `{ status, data }`, rejects when there is no network). `answered(entry,
 * outcome, answer)` is told of every write the service answered (outcome: outcomeOf's); `waitingChanged(entries)` of
 * the writes waiting, in order, whenever they may have changed.
 */
export function createOutbox({ storage, send, answered = () => {}, waitingChanged = () => {} }) {
  /** id -> resolve(result) of the submit() still waiting for its write's answer. */
  const waiting = new Map();
  let running = Promise.resolve();

  async function count() { waitingChanged(await storage.all()); }

  /**
   * Sends the waiting writes in order until one finds no network or is to be sent again later; the ones answered
   * leave the outbox.
   * - Complexity: O(n) sends for n waiting writes (one at a time: each may depend on the one before).
   */
  async function sendAll() {
    const all = await storage.all();
    let sent = 0;
    for (const entry of all) {
      let answer;
      try {
        answer = await send(entry);
      } catch (error) {
        break; // no network: everything waits, in order
      }
      const outcome = outcomeOf(answer.status);
      if (outcome === 'retry') break;
      await storage.delete(entry.id);
      sent += 1;
      answered(entry, outcome, answer);
      settle(entry.id, { outcome, ...answer });
    }
    for (const entry of all.slice(sent)) settle(entry.id, { outcome: 'waiting' });
    await count();
  }

  /** Gives the submit() of write `id`, if one waits, its result. */
  function settle(id, result) {
    waiting.get(id)?.(result);
    waiting.delete(id);
  }

  /** Sends what waits (once at a time: a call during a sending runs after it). */
  function flush() {
    running = running.then(sendAll, sendAll);
    return running;
  }

  /**
   * Keeps `entry` and sends it after the writes before it. Resolves `{ outcome, status, data }` once the service has
   * answered it, or `{ outcome: 'waiting' }` when it has to wait for the network (it stays kept, and goes later).
   */
  async function submit(entry) {
    const id = await storage.add(entry);
    const result = new Promise((resolve) => waiting.set(id, resolve));
    flush();
    return result;
  }

  /** Changes a waiting write (a marker placed here, edited before it was sent); false when it has been sent already. */
  async function update(entry) {
    const kept = await storage.put(entry);
    await count();
    return kept;
  }

  /** The writes waiting, in order. */
  function entries() { return storage.all(); }

  return { submit, flush, update, entries, count };
}

/** A storage in memory (tests, and a browser without IndexedDB: then what waits is lost with the tab). */
export function memoryStorage() {
  const kept = new Map();
  let next = 1;
  return {
    async all() { return [...kept.values()].sort((a, b) => a.id - b.id).map((entry) => ({ ...entry })); },
    async add(entry) { const id = next++; kept.set(id, { ...entry, id }); return id; },
    async put(entry) { if (!kept.has(entry.id)) return false; kept.set(entry.id, { ...entry }); return true; },
    async delete(id) { kept.delete(id); },
  };
}
