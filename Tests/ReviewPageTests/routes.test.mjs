// The page's addresses #/NAME and #/NAME/7, with the list's filter after `?`; expected values written out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drawingHash, parseHash } from '../../Sources/PlanMarkServer/ReviewPage/routes.js';

test('an address names a drawing, and maybe one of its markers', () => {
  assert.deepEqual(parseHash('#/plan'), { name: 'plan', number: null, query: '' });
  assert.deepEqual(parseHash('#/Level%202/7'), { name: 'Level 2', number: 7, query: '' });
  assert.deepEqual(parseHash('#/a%2Fb/12'), { name: 'a/b', number: 12, query: '' });
  assert.deepEqual(parseHash('#/plan?assignee=Acme&q=tile'), { name: 'plan', number: null, query: 'assignee=Acme&q=tile' });
  assert.deepEqual(parseHash('#/plan/3?status=open'), { name: 'plan', number: 3, query: 'status=open' });
});

test('other addresses name nothing', () => {
  for (const hash of ['', '#', '#/', '#/plan/', '#/plan/x', '#/plan/7/8', '#plan', '#/?q=a', '#/plan/x?q=a']) assert.equal(parseHash(hash), null, hash);
});

test('names are percent-encoded in the address', () => {
  assert.equal(drawingHash('Level 2'), '#/Level%202');
  assert.equal(drawingHash('Level 2', 7), '#/Level%202/7');
  assert.equal(drawingHash('a/b', null), '#/a%2Fb');
  assert.deepEqual(parseHash(drawingHash('a/b #1', 3)), { name: 'a/b #1', number: 3, query: '' });
  // A name with a question mark stays a name: it is encoded, so the filter's `?` is the only one.
  assert.equal(drawingHash('Why?', null, 'q=x'), '#/Why%3F?q=x');
  assert.deepEqual(parseHash(drawingHash('Why?', 2, 'q=x')), { name: 'Why?', number: 2, query: 'q=x' });
});
