// The workflow buttons a marker's popup shows, by the marker's status; expected values from the table in
// docs/punch-items.md (the workflow) and the labels the page has always used, written out by hand.
import './vocabulary-fixture.mjs';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STATUSES, actionLabel, reasonLabel, reasonText, statusChange, workflowButtons } from '../../Sources/PlanMarkServer/ReviewPage/workflow.js';

const buttons = (status) => workflowButtons(status).map(({ to, label, className }) => [to, label, className]);

test('an open marker can start work, be ready for inspection, be resolved or be voided', () => {
  assert.deepEqual(buttons('open'), [
    ['in-progress', 'Start work', 'status-in-progress'], ['ready', 'Ready for inspection', 'status-ready'],
    ['closed', 'Resolve', 'status-closed'], ['void', 'Void', 'status-void'],
  ]);
});

test('a marker in progress can be reopened, be ready, be resolved or be voided', () => {
  assert.deepEqual(buttons('in-progress'), [
    ['open', 'Reopen', 'status-open'], ['ready', 'Ready for inspection', 'status-ready'],
    ['closed', 'Resolve', 'status-closed'], ['void', 'Void', 'status-void'],
  ]);
});

test('a ready marker is resolved, rejected (reopened) or voided', () => {
  assert.deepEqual(buttons('ready'), [
    ['closed', 'Resolve', 'status-closed'], ['open', 'Reject (reopen)', 'status-open'], ['void', 'Void', 'status-void'],
  ]);
});

test('a closed or void marker can only be reopened', () => {
  assert.deepEqual(buttons('closed'), [['open', 'Reopen', 'status-open']]);
  assert.deepEqual(buttons('void'), [['open', 'Reopen', 'status-open']]);
});

test('no button moves a marker to the status it has', () => {
  for (const status of STATUSES) assert.ok(!workflowButtons(status).some((b) => b.to === status), status);
});

test('a status the page does not know gets no buttons (nor one named after an object property)', () => {
  assert.deepEqual(workflowButtons('resolved'), []);
  assert.deepEqual(workflowButtons('toString'), []);
  assert.deepEqual(workflowButtons(undefined), []);
});

test('only rejecting a ready marker needs a reason', () => {
  assert.equal(reasonLabel('ready'), 'Reason (needed to reject)');
  for (const status of ['open', 'in-progress', 'closed', 'void']) assert.equal(reasonLabel(status), 'Reason (optional)');
});

test('a status change sends the reason only when one was typed, without the spaces around it', () => {
  assert.deepEqual(statusChange('closed', ''), { status: 'closed' });
  assert.deepEqual(statusChange('closed', '   '), { status: 'closed' });
  assert.deepEqual(statusChange('open', undefined), { status: 'open' });
  assert.deepEqual(statusChange('open', '  paint still wet '), { status: 'open', reason: 'paint still wet' });
});

test('the labels of the changes', () => {
  assert.equal(actionLabel('closed', 'open'), 'Reopen');
  assert.equal(actionLabel('ready', 'open'), 'Reject (reopen)');
});

test("the service's refusal codes in words, and its message for any other", () => {
  assert.equal(reasonText('outside-allowed-area', 'x'), 'outside the allowed area');
  assert.equal(reasonText('outside-drawing', 'x'), 'off the drawing');
  assert.equal(reasonText('invalid-coordinate', 'x'), 'not a valid position');
  assert.equal(reasonText('not-found', 'drawing "A" has no marker 9'), 'drawing "A" has no marker 9');
  assert.equal(reasonText('http-500', ''), 'http-500');
});

test('the buttons follow the vocabulary the service answers: a status added there is offered with no change here', async () => {
  const { vocabulary } = await import('./vocabulary-fixture.mjs');
  const { setVocabulary } = await import('../../Sources/PlanMarkServer/ReviewPage/workflow.js');
  const added = structuredClone(vocabulary);
  added.statuses.push({ name: 'on-hold', title: 'On hold', glyph: '‖', colour: '#886600', ink: '#FFFFFF', active: true,
    next: [{ to: 'open', action: 'Resume', needsReason: false, advances: false }] });
  added.statuses[0].next.push({ to: 'on-hold', action: 'Put on hold', needsReason: true, advances: false });
  try {
    setVocabulary(added);
    assert.deepEqual(buttons('open').at(-1), ['on-hold', 'Put on hold', 'status-on-hold']);
    assert.deepEqual(buttons('on-hold'), [['open', 'Resume', 'status-open']]);
    assert.equal(reasonLabel('open'), 'Reason (needed to reject)');
    assert.ok(STATUSES.includes('on-hold'));
  } finally {
    setVocabulary(vocabulary);
  }
  assert.ok(!STATUSES.includes('on-hold'));
  assert.equal(reasonLabel('open'), 'Reason (optional)');
});
