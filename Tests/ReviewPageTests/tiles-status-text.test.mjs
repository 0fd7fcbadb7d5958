// The tiles status's words for a pyramid's progress (`tiles.progress`, 0...1 to the hundredth); expected texts written
// out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tilesStatusText } from '../../Sources/PlanMarkServer/ReviewPage/tiles-status-text.js';

test('a pyramid under way says how far, in whole percent rounded down', () => {
  assert.equal(tilesStatusText(0.4), 'Preparing sharp tiles… 40\u00a0%');
  assert.equal(tilesStatusText(0.07), 'Preparing sharp tiles… 7\u00a0%');
  assert.equal(tilesStatusText(0.999), 'Preparing sharp tiles… 99\u00a0%');
  assert.equal(tilesStatusText(0), 'Preparing sharp tiles… 0\u00a0%');
});

test('a pyramid made, or no figure, hides the status', () => {
  assert.equal(tilesStatusText(1), '');
  assert.equal(tilesStatusText(1.5), '');
  assert.equal(tilesStatusText(undefined), '');
  assert.equal(tilesStatusText(null), '');
  assert.equal(tilesStatusText(Number.NaN), '');
  assert.equal(tilesStatusText('0.4'), '');
});

test('the first reading of 0 says nothing (a small sheet is made by its first tile request); one above 0 does', () => {
  assert.equal(tilesStatusText(0, 1), '');
  assert.equal(tilesStatusText(0.25, 1), 'Preparing sharp tiles… 25\u00a0%');
  assert.equal(tilesStatusText(0, 2), 'Preparing sharp tiles… 0\u00a0%');
  assert.equal(tilesStatusText(1, 1), '');
});
