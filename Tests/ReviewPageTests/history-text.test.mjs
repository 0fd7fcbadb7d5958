// A marker's history entries as the popup lists them; expected lines written out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { historyLine, valueText } from '../../Sources/PlanMarkServer/ReviewPage/history-text.js';

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
