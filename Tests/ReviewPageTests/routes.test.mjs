// The page's addresses #/NAME and #/NAME/7; expected values written out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drawingHash, parseHash } from '../../Sources/PlanMarkServer/ReviewPage/routes.js';

test('an address names a drawing, and maybe one of its markers', () => {
  assert.deepEqual(parseHash('#/plan'), { name: 'plan', number: null });
  assert.deepEqual(parseHash('#/Level%202/7'), { name: 'Level 2', number: 7 });
  assert.deepEqual(parseHash('#/a%2Fb/12'), { name: 'a/b', number: 12 });
});

test('other addresses name nothing', () => {
  for (const hash of ['', '#', '#/', '#/plan/', '#/plan/x', '#/plan/7/8', '#plan']) assert.equal(parseHash(hash), null, hash);
});

test('names are percent-encoded in the address', () => {
  assert.equal(drawingHash('Level 2'), '#/Level%202');
  assert.equal(drawingHash('Level 2', 7), '#/Level%202/7');
  assert.equal(drawingHash('a/b', null), '#/a%2Fb');
  assert.deepEqual(parseHash(drawingHash('a/b #1', 3)), { name: 'a/b #1', number: 3 });
});
