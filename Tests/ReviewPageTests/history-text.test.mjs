// A marker's history entries as the popup lists them, in words and in the reader's time zone; expected lines written
// out by hand (Berlin is UTC+1 in November, New York UTC-5).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commentByline, historyLine, timeText, valueText } from '../../Sources/PlanMarkServer/ReviewPage/history-text.js';

test('a creation lists what was set, not its uuid, its rooms nor the fields left empty', () => {
  const entry = {
    at: '2026-11-26T04:05:06.789Z', action: 'created', author: 'ana',
    new: { x: 900.4, y: 399.6, note: 'crack', status: 'in-progress', uuid: '0e1c…', rooms: ['2.02'], due: null },
  };
  assert.equal(historyLine(entry, 'Europe/Berlin'), '2026-11-26 05:05 created by ana: at 900, 400, note crack, status in progress');
});

test('a change says in words what each field was and is', () => {
  const entry = { at: '2026-11-26T04:05:07Z', action: 'status', old: { status: 'open', reason: null }, new: { status: 'in-progress', reason: null } };
  assert.equal(historyLine(entry, 'UTC'), '2026-11-26 04:05 status: status: open → in progress');
  const rejected = { at: '2026-11-26T04:05:07Z', action: 'status', author: 'mo', old: { status: 'ready' }, new: { status: 'open', reason: 'gap at the door' } };
  assert.equal(historyLine(rejected, 'UTC'), '2026-11-26 04:05 status by mo: status: ready → open, reason: gap at the door');
  const moved = { at: '2026-11-26T04:05:08.5Z', action: 'moved', old: { x: 900, y: 400 }, new: { x: 1000.2, y: 500 } };
  assert.equal(historyLine(moved, 'UTC'), '2026-11-26 04:05 moved: position: 900, 400 → 1000, 500');
  const edited = { at: '2026-11-26T04:05:09Z', action: 'edited', old: { note: null, priority: 'normal' }, new: { note: 'crack', priority: 'high' } };
  assert.equal(historyLine(edited, 'UTC'), '2026-11-26 04:05 edited: note: – → crack, priority: normal → high');
  assert.equal(historyLine({ at: '2026-11-26T04:05:09Z', action: 'deleted' }, 'UTC'), '2026-11-26 04:05 deleted');
});

test("times are the reader's, to the minute", () => {
  assert.equal(timeText('2026-11-26T04:05:06.789Z', 'Europe/Berlin'), '2026-11-26 05:05');
  assert.equal(timeText('2026-11-26T04:05:06Z', 'America/New_York'), '2026-11-25 23:05');
  assert.equal(timeText('2026-07-01T23:30:00Z', 'Europe/Berlin'), '2026-07-02 01:30'); // summer: UTC+2
  assert.equal(timeText('not a time', 'UTC'), 'not a time');
});

test('values: – for none, JSON for lists', () => {
  assert.equal(valueText(null), '–');
  assert.equal(valueText(undefined), '–');
  assert.equal(valueText(['2.02', '2.03']), '["2.02","2.03"]');
  assert.equal(valueText(0), '0');
  assert.equal(valueText(''), '');
});

test("a comment's line says who wrote it and when", () => {
  assert.equal(commentByline({ id: 3, author: 'sam', createdAt: '2026-11-26T04:05:06.789Z', text: 'done <b>now</b>' }, 'Europe/Berlin'), 'sam, 2026-11-26 05:05');
  assert.equal(commentByline({ id: 4, author: null, createdAt: '2026-11-26T04:05:07Z', text: 'x' }, 'UTC'), 'someone, 2026-11-26 04:05');
});
