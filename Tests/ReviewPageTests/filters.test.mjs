// The status filter, the legend's counts, a drawing's open and resolved counts, and the regions split;
// expected values counted by hand.
import './vocabulary-fixture.mjs';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  countByStatus, countsText, filterChanges, openAndResolved, roomLabel, setShown, splitRegions,
} from '../../Sources/PlanMarkServer/ReviewPage/filters.js';

test('markers are counted by status, every status listed', () => {
  const markers = [{ status: 'open' }, { status: 'ready' }, { status: 'open' }, { status: 'void' }];
  assert.deepEqual(countByStatus(markers), { open: 2, 'in-progress': 0, ready: 1, closed: 0, void: 1 });
  assert.deepEqual(countByStatus([]), { open: 0, 'in-progress': 0, ready: 0, closed: 0, void: 0 });
});

test('open is open, in progress and ready; resolved is closed and void', () => {
  assert.deepEqual(openAndResolved({ open: 2, 'in-progress': 3, ready: 4, closed: 5, void: 6 }), { open: 9, resolved: 11 });
  // GET /summary leaves out the statuses no marker has.
  assert.deepEqual(openAndResolved({ ready: 1, void: 2 }), { open: 1, resolved: 2 });
  assert.deepEqual(openAndResolved({}), { open: 0, resolved: 0 });
  assert.equal(countsText({ open: 1, 'in-progress': 1, closed: 1 }), '2 open · 1 resolved');
});

test('the filter adds the shown pins that are off the map and removes the hidden ones on it', () => {
  const entries = [
    { data: { status: 'open' }, layer: 'a' },     // shown, off the map: added
    { data: { status: 'open' }, layer: 'b' },     // shown, on the map: stays
    { data: { status: 'closed' }, layer: 'c' },   // hidden, on the map: removed
    { data: { status: 'closed' }, layer: 'd' },   // hidden, off the map: stays off
    { data: { status: 'ready' }, layer: 'e' },    // shown, off the map: added
  ];
  const onMap = new Set(['b', 'c']);
  const visible = new Set(['open', 'ready']);
  const shows = (shown) => (data) => shown.has(data.status);
  assert.deepEqual(filterChanges(entries, shows(visible), (layer) => onMap.has(layer)), { add: ['a', 'e'], remove: ['c'] });
  assert.deepEqual(filterChanges(entries, shows(new Set()), (layer) => onMap.has(layer)), { add: [], remove: ['b', 'c'] });
});

test('a checkbox shows and hides its status', () => {
  const visible = new Set(['open', 'closed']);
  setShown(visible, 'closed', false);
  assert.deepEqual([...visible], ['open']);
  setShown(visible, 'closed', true);
  setShown(visible, 'closed', true);
  assert.deepEqual([...visible].sort(), ['closed', 'open']);
});

test('regions split into the allowed areas and the rooms', () => {
  const feature = (id, properties) => ({ type: 'Feature', id, properties, geometry: null });
  const regions = {
    type: 'FeatureCollection',
    features: [feature('A1', { kind: 'allowed' }), feature('2.02', { kind: 'room', name: 'Office' }), feature('2.03', null),
      feature('2.04', {})],
  };
  const { allowed, rooms } = splitRegions(regions);
  assert.deepEqual(allowed.features.map((f) => f.id), ['A1']);
  assert.deepEqual(rooms.features.map((f) => f.id), ['2.02', '2.03', '2.04']);
  assert.equal(allowed.type, 'FeatureCollection');
  assert.equal(rooms.type, 'FeatureCollection');
});

test("a room's label is its id, then its name when it has one", () => {
  assert.equal(roomLabel({ id: '2.02', properties: { name: 'Office' } }), '2.02 Office');
  assert.equal(roomLabel({ id: '2.03', properties: {} }), '2.03');
  assert.equal(roomLabel({ id: 7, properties: null }), '7');
});
