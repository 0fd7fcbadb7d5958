// The punch list's filter: which markers pass (as GET /drawings/NAME/markers filters them), the rows' order, the
// menus' choices, and the filter in the address. Expected values worked out by hand from the markers below.
import './vocabulary-fixture.mjs';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { choices, emptyConditions, filterQuery, listCount, listCountWords, listRows, parseFilterQuery, passes } from '../../Sources/PlanMarkServer/ReviewPage/list-filter.js';
import { STATUSES } from '../../Sources/PlanMarkServer/ReviewPage/workflow.js';

const markers = [
  { number: 4, status: 'open', note: 'Grout missing', category: 'Tiling', assignee: 'Acme', priority: 'high', rooms: ['2.01'], overdue: true },
  { number: 1, status: 'ready', note: 'Paint scuff', category: 'Finishes', assignee: 'acme', priority: 'normal', rooms: ['2.01', '2.02'], overdue: false },
  { number: 7, status: 'closed', note: null, category: 'tiling', assignee: 'Tiles Ltd', priority: 'low', rooms: [], overdue: false },
  { number: 2, status: 'in-progress', note: 'Socket loose', priority: 'critical', rooms: ['2.02'], overdue: true },
];
const all = new Set(STATUSES);
const numbers = (rows) => rows.map((m) => m.number);
const with_ = (changes) => ({ ...emptyConditions(), ...changes });

test('with nothing set every marker passes, by number', () => {
  assert.deepEqual(numbers(listRows(markers, all, emptyConditions())), [1, 2, 4, 7]);
});

test('statuses hide what the legend hides', () => {
  assert.deepEqual(numbers(listRows(markers, new Set(['open', 'ready']), emptyConditions())), [1, 4]);
  assert.deepEqual(numbers(listRows(markers, new Set(), emptyConditions())), []);
});

test('assignee and category are compared without regard to case, and must be equal', () => {
  assert.deepEqual(numbers(listRows(markers, all, with_({ assignee: 'ACME' }))), [1, 4]);
  assert.deepEqual(numbers(listRows(markers, all, with_({ assignee: 'Acm' }))), []);
  assert.deepEqual(numbers(listRows(markers, all, with_({ category: 'Tiling' }))), [4, 7]);
});

test('priority, room and overdue', () => {
  assert.deepEqual(numbers(listRows(markers, all, with_({ priority: 'critical' }))), [2]);
  assert.deepEqual(numbers(listRows(markers, all, with_({ room: '2.02' }))), [1, 2]);
  assert.deepEqual(numbers(listRows(markers, all, with_({ overdue: true }))), [2, 4]);
  // A marker without rooms (the API's JSON always has them; an old answer might not) is in no room.
  assert.equal(passes({ number: 9, status: 'open' }, all, with_({ room: '2.01' })), false);
});

test('the search looks in the note, the category and the assignee, without regard to case', () => {
  assert.deepEqual(numbers(listRows(markers, all, with_({ q: 'TIL' }))), [4, 7]);   // category Tiling, tiling; Tiles Ltd
  assert.deepEqual(numbers(listRows(markers, all, with_({ q: 'scuff' }))), [1]);
  assert.deepEqual(numbers(listRows(markers, all, with_({ q: 'nowhere' }))), []);
});

test('every condition set must hold', () => {
  assert.deepEqual(numbers(listRows(markers, new Set(['open', 'ready']), with_({ assignee: 'acme', overdue: true }))), [4]);
});

test('the menus offer each value once, the first spelling met, sorted', () => {
  assert.deepEqual(choices(markers, 'assignee'), ['Acme', 'Tiles Ltd']);
  assert.deepEqual(choices(markers, 'category'), ['Finishes', 'Tiling']);
  assert.deepEqual(choices(markers, 'room'), ['2.01', '2.02']);
});

test('the address keeps only what differs from showing everything, in the API\'s own words', () => {
  assert.equal(filterQuery(all, emptyConditions()), '');
  assert.equal(filterQuery(new Set(['open', 'ready']), with_({ assignee: 'Tiles Ltd', overdue: true, q: 'a&b' })),
    'status=open,ready&assignee=Tiles%20Ltd&overdue=true&q=a%26b');
  assert.equal(filterQuery(new Set(), emptyConditions()), 'status=');
  // The API reads its query as RFC 3986 text, not as a form: a space is %20 and `+` a plus (QueryParameters.swift).
  assert.equal(filterQuery(all, with_({ q: 'C+D 5%' })), 'q=C%2BD%205%25');
  assert.equal(parseFilterQuery('q=C+D%205%25').conditions.q, 'C+D 5%');
  // A bad escape leaves its item out, the rest is read.
  assert.deepEqual(parseFilterQuery('q=%GG&assignee=Acme').conditions, with_({ assignee: 'Acme' }));
});

test('an address read back gives the same filter', () => {
  const visible = new Set(['in-progress', 'void']);
  const conditions = with_({ category: 'Tiling', priority: 'high', room: '2.01', q: 'grout' });
  const read = parseFilterQuery(filterQuery(visible, conditions));
  assert.deepEqual([...read.visible].sort(), ['in-progress', 'void']);
  assert.deepEqual(read.conditions, conditions);
  // Nothing in the address: everything shown; unknown keys and statuses are ignored.
  assert.deepEqual([...parseFilterQuery('').visible], STATUSES);
  const odd = parseFilterQuery('status=open,bogus&colour=red&overdue=yes');
  assert.deepEqual([...odd.visible], ['open']);
  assert.deepEqual(odd.conditions, emptyConditions());
});

test('the list\'s count: the total alone when every item is listed, else shown of total', () => {
  assert.equal(listCount(7, 7), '(7)');
  assert.equal(listCount(3, 7), '(3 of 7)');
  assert.equal(listCount(0, 0), '(0)');
});

test('the list\'s count in words, as the live region says it', () => {
  assert.equal(listCountWords(3, 7), 'Punch list: showing 3 of 7 items.');
  assert.equal(listCountWords(7, 7), 'Punch list: showing 7 of 7 items.');
  assert.equal(listCountWords(0, 1), 'Punch list: showing 0 of 1 item.');
});
