// The outbox: writes kept in order, sent one at a time, answered once; a fake service (its own store of uuids and
// Idempotency-Keys, as docs/http-api.md describes the real one) that can be taken off the network. Expected values
// worked out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOutbox, memoryStorage, newEntry, outcomeOf, shownChange } from '../../Sources/PlanMarkServer/ReviewPage/outbox.js';

/** A service: markers by uuid, answers by Idempotency-Key; `online` false makes every send fail as fetch does. */
function fakeService() {
  const service = { online: true, busy: false, markers: new Map(), answers: new Map(), sent: [], version: new Map([[1, 1]]), next: 2 };
  service.send = async (entry) => {
    if (!service.online) throw new TypeError('Failed to fetch');
    if (service.busy) return { status: 503, data: null };
    service.sent.push(entry.key);
    if (service.answers.has(entry.key)) return service.answers.get(entry.key);
    let answer;
    if (entry.kind === 'place') {
      const kept = service.markers.get(entry.body.uuid);
      if (kept) answer = { status: 200, data: kept };
      else {
        const marker = { number: service.next++, uuid: entry.body.uuid, ...entry.body };
        service.markers.set(entry.body.uuid, marker);
        answer = { status: 201, data: marker };
      }
    } else if (entry.kind === 'edit') {
      if (entry.ifMatch !== service.version.get(entry.number)) answer = { status: 412, data: { marker: { number: entry.number } } };
      else {
        service.version.set(entry.number, entry.ifMatch + 1);
        answer = { status: 200, data: { number: entry.number, ...entry.body } };
      }
    } else {
      answer = { status: 422, data: { error: { code: 'outside-allowed-area' } } };
    }
    service.answers.set(entry.key, answer);
    return answer;
  };
  return service;
}

/** An outbox over memory and `service`, recording what it was told. */
function outboxOf(service, storage = memoryStorage()) {
  const told = { answered: [], waiting: [] };
  const outbox = createOutbox({
    storage, send: service.send,
    answered: (entry, outcome) => told.answered.push([entry.kind, outcome]),
    waitingChanged: (entries) => told.waiting.push(entries.length),
  });
  return { outbox, told, storage };
}

let uuids = 0;
const nextUUID = () => `00000000-0000-4000-8000-${String(++uuids).padStart(12, '0')}`;
const place = (x, y) => newEntry({ kind: 'place', method: 'POST', path: '/drawings/plan/markers', body: { x, y }, drawing: 'plan' }, nextUUID);

test('an answer status says what became of a write', () => {
  assert.deepEqual([200, 201, 204, 412, 400, 409, 422, 408, 429, 500, 503].map(outcomeOf),
    ['stored', 'stored', 'stored', 'conflict', 'refused', 'refused', 'refused', 'retry', 'retry', 'retry', 'retry']);
});

test('a new marker gets its uuid and a key of its own; an edit only a key', () => {
  const a = place(1, 2);
  const edit = newEntry({ kind: 'edit', method: 'PATCH', path: '/drawings/plan/markers/1', body: { note: 'x' }, number: 1 }, nextUUID);
  assert.equal(a.uuid, a.body.uuid);
  assert.notEqual(a.key, a.uuid);
  assert.equal(edit.uuid, undefined);
  assert.deepEqual(edit.body, { note: 'x' });
  // A uuid given is kept.
  assert.equal(newEntry({ kind: 'place', body: { x: 0, y: 0, uuid: 'given' } }, nextUUID).uuid, 'given');
});

test('with a network a write is answered at once and leaves the outbox', async () => {
  const service = fakeService();
  const { outbox, told } = outboxOf(service);
  const result = await outbox.submit(place(10, 20));
  assert.equal(result.outcome, 'stored');
  assert.equal(result.status, 201);
  assert.equal(result.data.number, 2);
  assert.deepEqual(await outbox.entries(), []);
  assert.deepEqual(told.answered, [['place', 'stored']]);
});

test('without a network writes wait in order and go, once each, in that order when it returns', async () => {
  const service = fakeService();
  const { outbox, told } = outboxOf(service);
  service.online = false;
  const results = [];
  for (const [x, y] of [[1, 1], [2, 2], [3, 3]]) results.push(await outbox.submit(place(x, y)));
  results.push(await outbox.submit(newEntry({ kind: 'edit', body: { note: 'n' }, number: 1, ifMatch: 1 }, nextUUID)));
  assert.deepEqual(results.map((r) => r.outcome), ['waiting', 'waiting', 'waiting', 'waiting']);
  assert.equal(told.waiting.at(-1), 4);
  const waiting = await outbox.entries();
  assert.deepEqual(waiting.map((e) => e.kind), ['place', 'place', 'place', 'edit']);
  service.online = true;
  await outbox.flush();
  assert.deepEqual(await outbox.entries(), []);
  assert.equal(told.waiting.at(-1), 0);
  // In the order made, each once.
  assert.deepEqual(service.sent, waiting.map((e) => e.key));
  assert.deepEqual([...service.markers.values()].map((m) => [m.number, m.x]), [[2, 1], [3, 2], [4, 3]]);
  assert.deepEqual(told.answered, [['place', 'stored'], ['place', 'stored'], ['place', 'stored'], ['edit', 'stored']]);
});

test('a write sent again (the answer was lost, or another tab sent it) changes nothing', async () => {
  const service = fakeService();
  const storage = memoryStorage();
  const entry = place(5, 5);
  // Two tabs over one storage both send what waits.
  await storage.add(entry);
  const one = outboxOf(service, storage);
  const two = outboxOf(service, storage);
  await Promise.all([one.outbox.flush(), two.outbox.flush()]);
  assert.equal(service.markers.size, 1);
  // The same write once more gives the first answer again.
  const again = await service.send(entry);
  assert.equal(again.data.number, 2);
  assert.equal(service.markers.size, 1);
});

test('a write the service refuses leaves; one it cannot take now (5xx) waits with those after it', async () => {
  const service = fakeService();
  const { outbox, told } = outboxOf(service);
  const refused = await outbox.submit(newEntry({ kind: 'move', body: { x: -1, y: 0 }, number: 1 }, nextUUID));
  assert.equal(refused.outcome, 'refused');
  assert.equal(refused.data.error.code, 'outside-allowed-area');
  service.busy = true;
  assert.equal((await outbox.submit(place(1, 1))).outcome, 'waiting');
  assert.equal((await outbox.submit(place(2, 2))).outcome, 'waiting');
  service.busy = false;
  await outbox.flush();
  assert.deepEqual(told.answered, [['move', 'refused'], ['place', 'stored'], ['place', 'stored']]);
});

test('an edit made on a version someone changed meanwhile comes back as a conflict, and leaves the outbox', async () => {
  const service = fakeService();
  const { outbox, told } = outboxOf(service);
  service.online = false;
  assert.equal((await outbox.submit(newEntry({ kind: 'edit', body: { note: 'mine' }, number: 1, ifMatch: 1 }, nextUUID))).outcome, 'waiting');
  service.version.set(1, 2); // another client's edit
  service.online = true;
  await outbox.flush();
  assert.deepEqual(told.answered, [['edit', 'conflict']]);
  assert.deepEqual(await outbox.entries(), []);
  // Made again on the version now stored ("Keep mine"), it is stored.
  assert.equal((await outbox.submit(newEntry({ kind: 'edit', body: { note: 'mine' }, number: 1, ifMatch: 2 }, nextUUID))).outcome, 'stored');
});

test('a waiting write can be changed until it is sent, not after', async () => {
  const service = fakeService();
  const { outbox } = outboxOf(service);
  service.online = false;
  await outbox.submit(place(7, 7));
  const [entry] = await outbox.entries();
  assert.equal(await outbox.update({ ...entry, body: { ...entry.body, note: 'typed later' } }), true);
  service.online = true;
  await outbox.flush();
  assert.equal([...service.markers.values()][0].note, 'typed later');
  assert.equal(await outbox.update(entry), false);
});

test("a waiting edit shows its fields on the marker, not a status change's reason", () => {
  assert.deepEqual(shownChange({ status: 'open', reason: 'not done' }), { status: 'open' });
  assert.deepEqual(shownChange({ note: null }), { note: null });
});
