// The popup's details form and a 412 conflict; expected values worked out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conflictRows, detailChanges } from '../../Sources/PlanMarkServer/ReviewPage/conflict.js';

const marker = { number: 3, version: 4, category: 'Tiling', priority: 'normal', assignee: null, due: '2026-12-01', status: 'open' };

test('only the fields the reviewer changed go into the PATCH', () => {
  assert.deepEqual(detailChanges(marker, { category: 'Tiling', priority: 'normal', assignee: '', due: '2026-12-01' }), {});
  assert.deepEqual(detailChanges(marker, { category: ' Tiling ', priority: 'high', assignee: 'Acme', due: '2026-12-01' }),
    { priority: 'high', assignee: 'Acme' });
});

test('an emptied field clears it, except the priority, which goes back to normal', () => {
  assert.deepEqual(detailChanges(marker, { category: '', due: '' }), { category: null, due: null });
  assert.deepEqual(detailChanges({ ...marker, priority: 'high' }, { priority: '' }), { priority: 'normal' });
  // A field the form did not send is left alone.
  assert.deepEqual(detailChanges(marker, { assignee: 'Acme' }), { assignee: 'Acme' });
});

test("a conflict shows each changed field's value, the reviewer's and the stored one", () => {
  const stored = { ...marker, version: 5, priority: 'critical', assignee: 'Acme' };
  assert.deepEqual(conflictRows({ priority: 'high', assignee: 'Acme', category: null }, stored), [
    { field: 'priority', mine: 'high', theirs: 'critical', same: false },
    { field: 'assignee', mine: 'Acme', theirs: 'Acme', same: true },
    { field: 'category', mine: '(none)', theirs: 'Tiling', same: false },
  ]);
  // A status change: words, and its reason is not a field of the marker.
  assert.deepEqual(conflictRows({ status: 'in-progress', reason: null }, { ...stored, status: 'ready' }),
    [{ field: 'status', mine: 'in progress', theirs: 'ready', same: false }]);
});
