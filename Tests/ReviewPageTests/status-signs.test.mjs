// Colour is never the only sign of a status: each status has its own glyph and its words, and overdue its mark.
// Expected values written out by hand (the glyphs the docs describe: empty, half, full, tick, cross).
import './vocabulary-fixture.mjs';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OVERDUE_GLYPH, STATUSES, STATUS_GLYPHS, statusGlyph, statusWords } from '../../Sources/PlanMarkServer/ReviewPage/workflow.js';

test('each status has a glyph, and no two statuses share one', () => {
  assert.deepEqual(STATUSES.map(statusGlyph), ['○', '◐', '●', '✓', '✕']);
  assert.equal(new Set(STATUSES.map(statusGlyph)).size, STATUSES.length);
  assert.deepEqual(Object.keys(STATUS_GLYPHS).sort(), [...STATUSES].sort());
});

test('a status the page does not know gets a question mark, not another status\'s glyph', () => {
  assert.equal(statusGlyph('archived'), '?');
  assert.equal(statusGlyph('constructor'), '?');
});

test('the overdue mark is none of the statuses\' glyphs', () => {
  assert.equal(OVERDUE_GLYPH, '!');
  assert.ok(!STATUSES.map(statusGlyph).includes(OVERDUE_GLYPH));
});

test('a status in words: its name, or the service\'s word for one the page does not know', () => {
  assert.deepEqual(STATUSES.map(statusWords), ['Open', 'In progress', 'Ready for inspection', 'Closed', 'Void']);
  assert.equal(statusWords('archived'), 'archived');
  assert.equal(statusWords('toString'), 'toString');
});
