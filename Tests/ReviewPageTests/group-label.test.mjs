// A pin group's label; expected values written out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupLabel, NAMED_NUMBERS } from '../../Sources/PlanMarkServer/ReviewPage/group-label.js';

test("a group's label counts its markers and names them in ascending order", () => {
  assert.equal(groupLabel([6, 4, 5]), '3 markers: 4, 5, 6');
  assert.equal(groupLabel([12, 3]), '2 markers: 3, 12');
});

test('a large group names its first numbers and counts the rest', () => {
  assert.equal(NAMED_NUMBERS, 10);
  const numbers = Array.from({ length: 40 }, (_, i) => 40 - i);
  assert.equal(groupLabel(numbers), '40 markers: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 30 more');
  assert.equal(groupLabel(numbers.slice(30)), '10 markers: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10');
});
