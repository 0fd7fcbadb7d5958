// The page's state object: every field declared, nothing else settable, and what opening a drawing resets.
import './vocabulary-fixture.mjs';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createState, openDrawingState } from '../../Sources/PlanMarkServer/ReviewPage/state.js';

test('a field that is not declared cannot be set (a TypeError in a module)', () => {
  const state = createState();
  assert.throws(() => { state.popupOpn = true; }, TypeError);
  assert.equal(Object.hasOwn(state, 'popupOpn'), false);
  assert.throws(() => { delete state.drawing; }, TypeError);
});

test('a fresh state has no drawing and shows every status', () => {
  const state = createState();
  assert.equal(state.drawing, null);
  assert.deepEqual([...state.visible], ['open', 'in-progress', 'ready', 'closed', 'void']);
  assert.equal(state.markers.size, 0);
  assert.equal(state.generation, 0);
  assert.notEqual(createState().markers, state.markers, 'two states share no map');
});

test("opening a drawing sets its image zoom and drops the last drawing's markers, history, ETag and popup", () => {
  const state = createState();
  state.markers.set(1, {});
  state.history.set(1, []);
  state.comments.set(1, []);
  state.etag = '"abc"';
  state.lastText = '{}';
  state.openNumber = 1;
  state.dragging = 1;
  state.generation = 4;
  state.visible.delete('closed');
  openDrawingState(state, { name: 'flat', zoom: 0, crs: 'flutter' });
  assert.equal(state.drawing.name, 'flat');
  assert.equal(state.imageZoom, 8);  // flutter zoom 0 is Leaflet zoom 0 + 8
  assert.equal(state.markers.size, 0);
  assert.equal(state.history.size, 0);
  assert.equal(state.comments.size, 0);
  assert.equal(state.etag, null);
  assert.equal(state.lastText, null);
  assert.equal(state.openNumber, null);
  assert.equal(state.dragging, null);
  assert.equal(state.generation, 4, 'the generation is bumped by whoever opens, before the drawing arrives');
  assert.deepEqual([...state.visible].sort(), ['in-progress', 'open', 'ready', 'void'], 'the filter stays as the reviewer set it');
  openDrawingState(state, { name: 'plan', zoom: 8, crs: 'leaflet' });
  assert.equal(state.imageZoom, 8);
});

test("opening a drawing takes the signed-in user's role in the drawing's project", () => {
  const state = createState();
  assert.equal(state.access, null, 'nothing is known before GET /me');
  openDrawingState(state, { name: 'plan', zoom: 8, crs: 'leaflet', project: 'Tower' });
  assert.equal(state.access, null, 'still unknown: the page offers everything and the service decides');
  state.me = {
    name: 'sam', email: 'sam@acme.example', company: 'Acme',
    projects: [{ name: 'Annex', role: 'viewer', permissions: { 'edit-marker': 'never' } },
      { name: 'Tower', role: 'subcontractor', permissions: { 'edit-marker': 'never', 'advance-status': 'on-their-markers' } }],
  };
  openDrawingState(state, { name: 'plan', zoom: 8, crs: 'leaflet', project: 'Tower' });
  assert.equal(state.access.role, 'subcontractor');
  assert.equal(state.access.company, 'Acme');
  openDrawingState(state, { name: 'annex', zoom: 8, crs: 'leaflet', project: 'Annex' });
  assert.equal(state.access.role, 'viewer');
});
