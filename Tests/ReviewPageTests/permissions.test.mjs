// What the page offers each role on a marker. The GET /me answers and every expected value are written out here
// by hand from the role table (docs/team.md), not computed.
import './vocabulary-fixture.mjs';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  accessTo, isTheirs, markerActions, may, signedInText, statusAction,
} from '../../Sources/PlanMarkServer/ReviewPage/permissions.js';

const SUBCONTRACTOR = {
  'read-drawings': 'always', 'read-markers': 'on-their-markers', 'place-marker': 'never', 'edit-marker': 'never',
  'advance-status': 'on-their-markers', 'verify-status': 'never', 'comment-or-attach': 'on-their-markers',
  'delete-marker': 'never', 'bulk-update': 'never', 'manage-drawings': 'never',
};
const INSPECTOR = {
  'read-drawings': 'always', 'read-markers': 'always', 'place-marker': 'always', 'edit-marker': 'always',
  'advance-status': 'always', 'verify-status': 'never', 'comment-or-attach': 'always',
  'delete-marker': 'never', 'bulk-update': 'never', 'manage-drawings': 'never',
};
const MANAGER = {
  'read-drawings': 'always', 'read-markers': 'always', 'place-marker': 'always', 'edit-marker': 'always',
  'advance-status': 'always', 'verify-status': 'always', 'comment-or-attach': 'always',
  'delete-marker': 'always', 'bulk-update': 'always', 'manage-drawings': 'never',
};
const VIEWER = {
  'read-drawings': 'always', 'read-markers': 'always', 'place-marker': 'never', 'edit-marker': 'never',
  'advance-status': 'never', 'verify-status': 'never', 'comment-or-attach': 'never',
  'delete-marker': 'never', 'bulk-update': 'never', 'manage-drawings': 'never',
};

const sam = {
  name: 'sam', email: 'sam@acme.example', company: 'Acme',
  projects: [{ name: 'Tower', role: 'subcontractor', permissions: SUBCONTRACTOR }, { name: 'Annex', role: 'viewer', permissions: VIEWER }],
};
const ana = { name: 'Ana', email: 'ana@example.com', company: null, projects: [{ name: 'Tower', role: 'inspector', permissions: INSPECTOR }] };
const max = { name: 'max', email: 'max@example.com', company: 'Site Co', projects: [{ name: 'Tower', role: 'manager', permissions: MANAGER }] };
const operator = { name: null, email: null, company: null, projects: [], operator: true };

const marker = (status, assignee = null) => ({ number: 1, status, assignee });

test('the header says NAME · ROLE in the drawing\'s project, "operator" for the operator, nothing when unknown', () => {
  assert.equal(signedInText(accessTo(sam, 'Tower')), 'sam · subcontractor');
  assert.equal(signedInText(accessTo(sam, 'Annex')), 'sam · viewer');
  assert.equal(signedInText(accessTo(ana, 'Tower')), 'Ana · inspector');
  assert.equal(signedInText(accessTo(ana, 'Annex')), 'Ana');
  assert.equal(signedInText(accessTo(operator, 'Tower')), 'operator');
  assert.equal(signedInText(accessTo(null, 'Tower')), '');
});

test('a status change is advance-status only on the way open -> in-progress -> ready', () => {
  assert.equal(statusAction('open', 'in-progress'), 'advance-status');
  assert.equal(statusAction('open', 'ready'), 'advance-status');
  assert.equal(statusAction('in-progress', 'ready'), 'advance-status');
  assert.equal(statusAction('in-progress', 'open'), 'verify-status');
  assert.equal(statusAction('ready', 'closed'), 'verify-status');
  assert.equal(statusAction('ready', 'open'), 'verify-status');
  assert.equal(statusAction('open', 'void'), 'verify-status');
  assert.equal(statusAction('open', 'closed'), 'verify-status');
  assert.equal(statusAction('closed', 'open'), 'verify-status');
  assert.equal(statusAction('void', 'open'), 'verify-status');
});

test('a marker is theirs when its assignee is their name or company, in any case', () => {
  const access = accessTo(sam, 'Tower');
  assert.equal(isTheirs(access, marker('open', 'Acme')), true);
  assert.equal(isTheirs(access, marker('open', 'ACME')), true);
  assert.equal(isTheirs(access, marker('open', 'Sam')), true);
  assert.equal(isTheirs(access, marker('open', 'Acme Ltd')), false);
  assert.equal(isTheirs(access, marker('open', 'Tiles Ltd')), false);
  assert.equal(isTheirs(access, marker('open', null)), false);
  // A user without a company: an unassigned marker is not theirs, nor is one assigned to "null".
  assert.equal(isTheirs(accessTo(ana, 'Tower'), marker('open', 'null')), false);
  assert.equal(isTheirs(accessTo(ana, 'Tower'), marker('open', 'ana')), true);
});

test('a subcontractor works on their own markers: start work and ready, no verify, edit or delete', () => {
  const access = accessTo(sam, 'Tower');
  assert.deepEqual(markerActions(access, marker('open', 'acme')), { statuses: ['in-progress', 'ready'], edit: false, remove: false, comment: true });
  assert.deepEqual(markerActions(access, marker('in-progress', 'Acme')), { statuses: ['ready'], edit: false, remove: false, comment: true });
  assert.deepEqual(markerActions(access, marker('ready', 'Acme')), { statuses: [], edit: false, remove: false, comment: true });
  assert.deepEqual(markerActions(access, marker('closed', 'Acme')), { statuses: [], edit: false, remove: false, comment: true });
  // Another's marker (the service does not list it to them; should one be shown, nothing is offered).
  assert.deepEqual(markerActions(access, marker('open', 'Tiles Ltd')), { statuses: [], edit: false, remove: false, comment: false });
  assert.equal(may(access, 'place-marker'), false);
  assert.equal(may(access, 'read-markers'), false);
  assert.equal(may(access, 'read-markers', marker('open', 'Acme')), true);
});

test('an inspector edits, places and moves work along, but neither verifies nor deletes', () => {
  const access = accessTo(ana, 'Tower');
  assert.deepEqual(markerActions(access, marker('open', 'Acme')), { statuses: ['in-progress', 'ready'], edit: true, remove: false, comment: true });
  assert.deepEqual(markerActions(access, marker('in-progress')), { statuses: ['ready'], edit: true, remove: false, comment: true });
  assert.deepEqual(markerActions(access, marker('ready')), { statuses: [], edit: true, remove: false, comment: true });
  assert.deepEqual(markerActions(access, marker('closed')), { statuses: [], edit: true, remove: false, comment: true });
  assert.equal(may(access, 'place-marker'), true);
});

test('a manager may do everything to a marker; a viewer nothing', () => {
  const manager = accessTo(max, 'Tower');
  assert.deepEqual(markerActions(manager, marker('open')), { statuses: ['in-progress', 'ready', 'closed', 'void'], edit: true, remove: true, comment: true });
  assert.deepEqual(markerActions(manager, marker('ready')), { statuses: ['closed', 'open', 'void'], edit: true, remove: true, comment: true });
  assert.deepEqual(markerActions(manager, marker('void')), { statuses: ['open'], edit: true, remove: true, comment: true });
  assert.equal(may(manager, 'manage-drawings'), false);
  const viewer = accessTo(sam, 'Annex');
  assert.deepEqual(markerActions(viewer, marker('open', 'Acme')), { statuses: [], edit: false, remove: false, comment: false });
  assert.equal(may(viewer, 'place-marker'), false);
});

test('the operator may do everything; so may an unknown user (the service decides); no role in the project, nothing', () => {
  for (const access of [accessTo(operator, 'Tower'), accessTo(null, 'Tower')]) {
    assert.deepEqual(markerActions(access, marker('ready')), { statuses: ['closed', 'open', 'void'], edit: true, remove: true, comment: true });
    assert.equal(may(access, 'place-marker'), true);
  }
  const stranger = accessTo(ana, 'Annex');
  assert.deepEqual(markerActions(stranger, marker('open', 'ana')), { statuses: [], edit: false, remove: false, comment: false });
  assert.equal(may(stranger, 'read-drawings'), false);
});

test('an action the answer does not name, or one named after an object property, is never', () => {
  const access = accessTo(ana, 'Tower');
  assert.equal(may(access, 'fly'), false);
  assert.equal(may(access, 'toString'), false);
  assert.equal(may(access, '__proto__'), false);
});
