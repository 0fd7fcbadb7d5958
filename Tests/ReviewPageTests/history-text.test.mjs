// A marker's history entries as the popup lists them; expected lines written out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commentByline, historyLine, timeText, valueText } from '../../Sources/PlanMarkServer/ReviewPage/history-text.js';

test('a creation lists what was set, not its uuid, its rooms nor the fields left empty', () => {
  const entry = {
    at: '2026-11-26T04:05:06.789Z', action: 'created', author: 'ana',
    new: { x: 900, y: 400, note: 'crack', uuid: '0e1c…', rooms: ['2.02'], due: null },
  };
  assert.equal(historyLine(entry), '2026-11-26 04:05:06Z created by ana: x 900, y 400, note crack');
});

test("a change lists each field's old and new value, – for none", () => {
  const entry = { at: '2026-11-26T04:05:07Z', action: 'status', old: { status: 'open', reason: null }, new: { status: 'closed', reason: 'done' } };
  assert.equal(historyLine(entry), '2026-11-26 04:05:07Z status: status open → closed, reason – → done');
  const moved = { at: '2026-11-26T04:05:08.5Z', action: 'moved', new: { x: 1000 } };
  assert.equal(historyLine(moved), '2026-11-26 04:05:08Z moved: x – → 1000');
  assert.equal(historyLine({ at: '2026-11-26T04:05:09Z', action: 'deleted' }), '2026-11-26 04:05:09Z deleted');
});

test('values: – for none, JSON for lists', () => {
  assert.equal(valueText(null), '–');
  assert.equal(valueText(undefined), '–');
  assert.equal(valueText(['2.02', '2.03']), '["2.02","2.03"]');
  assert.equal(valueText(0), '0');
  assert.equal(valueText(''), '');
});

test("a comment's line says who wrote it and when, to the second", () => {
  assert.equal(commentByline({ id: 3, author: 'sam', createdAt: '2026-11-26T04:05:06.789Z', text: 'done <b>now</b>' }), 'sam, 2026-11-26 04:05:06Z');
  assert.equal(commentByline({ id: 4, author: null, createdAt: '2026-11-26T04:05:07Z', text: 'x' }), 'someone, 2026-11-26 04:05:07Z');
  assert.equal(timeText('2026-01-02T03:04:05.1Z'), '2026-01-02 03:04:05Z');
});
