// The punch list's filter, which the pins follow too: the statuses shown (the legend) and the conditions of
// the markers API's own query (GET /drawings/NAME/markers?assignee=&category=&priority=&room=&overdue=&q=,
// MarkerFilter.matches), its rows, the choices of its menus, and the filter as the address's query, so a link
// reproduces the view.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/list-filter.test.mjs runs it under node).
import { STATUSES } from './workflow.js';

/** The conditions of the query, each unset: every marker passes. */
export function emptyConditions() {
  return { assignee: '', category: '', priority: '', room: '', overdue: false, q: '' };
}

/** The query's keys, in the order the address writes them. */
const KEYS = ['assignee', 'category', 'priority', 'room', 'overdue', 'q'];

/**
 * Whether `marker` (the service's JSON) passes: its status is shown and every condition set holds, as the API's
 * filter decides. Assignee and category: equal without regard to case; priority: equal; room: one of the marker's
 * rooms; overdue: the service's `overdue`; q: found, without regard to case, in the note, the category or the
 * assignee.
 * - Complexity: O(length of the marker's text fields and rooms).
 */
export function passes(marker, visible, conditions) {
  if (!visible.has(marker.status)) return false;
  const same = (a, b) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
  if (conditions.assignee && !same(marker.assignee, conditions.assignee)) return false;
  if (conditions.category && !same(marker.category, conditions.category)) return false;
  if (conditions.priority && marker.priority !== conditions.priority) return false;
  if (conditions.room && !(marker.rooms || []).includes(conditions.room)) return false;
  if (conditions.overdue && marker.overdue !== true) return false;
  if (conditions.q) {
    const needle = conditions.q.toLowerCase();
    const found = [marker.note, marker.category, marker.assignee].some((text) => typeof text === 'string' && text.toLowerCase().includes(needle));
    if (!found) return false;
  }
  return true;
}

/** The markers that pass, by number. - Complexity: O(n log n) for n markers. */
export function listRows(markers, visible, conditions) {
  return [...markers].filter((marker) => passes(marker, visible, conditions)).sort((a, b) => a.number - b.number);
}

/** The list's count beside its heading: `(7)` when every marker is listed, else `(3 of 7)`. */
export function listCount(shown, total) {
  return shown === total ? `(${total})` : `(${shown} of ${total})`;
}

/** The list's count in words, as the live region says it after the reader changed the filter. */
export function listCountWords(shown, total) {
  return `Punch list: showing ${shown} of ${total} ${total === 1 ? 'item' : 'items'}.`;
}

/**
 * The values a menu offers for `field` (`assignee`, `category` or `room`): each value the drawing's markers have,
 * once without regard to case (the first spelling met), sorted. - Complexity: O(n log n).
 */
export function choices(markers, field) {
  const seen = new Map();
  for (const marker of markers) {
    const values = field === 'room' ? marker.rooms || [] : [marker[field]];
    for (const value of values) {
      if (typeof value !== 'string' || value === '') continue;
      const key = field === 'room' ? value : value.toLowerCase();
      if (!seen.has(key)) seen.set(key, value);
    }
  }
  return [...seen.values()].sort((a, b) => a.localeCompare(b));
}

/**
 * The filter as a query (`status=open,ready&assignee=Acme&q=tile`): only what differs from showing everything. Its
 * keys and values are the markers API's own, so the same text filters GET /drawings/NAME/markers.
 */
export function filterQuery(visible, conditions) {
  const pairs = [];
  if (STATUSES.some((status) => !visible.has(status))) pairs.push(['status', STATUSES.filter((status) => visible.has(status)).join(',')]);
  for (const key of KEYS) {
    const value = conditions[key];
    if (key === 'overdue') { if (value) pairs.push(['overdue', 'true']); } else if (value) pairs.push([key, value]);
  }
  // Percent-escapes as the API reads its query (RFC 3986: a space is %20, and `+` a plus, as it is not a form);
  // commas stay commas, as the API splits lists on them after decoding.
  return pairs.map(([key, value]) => `${key}=${encodeURIComponent(value).replace(/%2C/g, ',')}`).join('&');
}

/** The parameters of query text as the API reads them: each percent-escape decoded once, `+` a plus; a bad escape skips its item. */
function queryParameters(query) {
  const params = new Map();
  for (const item of String(query ?? '').replace(/^\?/, '').split('&')) {
    if (!item) continue;
    const equals = item.indexOf('=');
    try {
      const key = decodeURIComponent(equals < 0 ? item : item.slice(0, equals));
      params.set(key, equals < 0 ? '' : decodeURIComponent(item.slice(equals + 1)));
    } catch (error) {
      // A bad escape (`%`, `%GG`): the API refuses it; the page leaves that item out.
    }
  }
  return params;
}

/**
 * The filter a query names (`filterQuery`'s form): the statuses shown (every one when the query has none; unknown
 * names are left out) and the conditions (unknown keys are ignored).
 */
export function parseFilterQuery(query) {
  const params = queryParameters(query);
  const visible = new Set(STATUSES);
  if (params.has('status')) {
    const named = new Set(params.get('status').split(','));
    for (const status of STATUSES) if (!named.has(status)) visible.delete(status);
  }
  const conditions = emptyConditions();
  for (const key of KEYS) {
    if (!params.has(key)) continue;
    conditions[key] = key === 'overdue' ? params.get(key) === 'true' : params.get(key);
  }
  return { visible, conditions };
}

