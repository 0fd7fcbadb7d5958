// The punch-item workflow as the page shows it: the statuses, their names and signs, the changes the service allows and
// the words of the buttons that make them, all read from the service's vocabulary (GET /vocabulary, made from the
// service's own definition, MarkerStatus.swift) once, before the page starts: the page keeps no copy of its own.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/workflow.test.mjs runs it under node).

/** The statuses, in the order the legend lists them. */
export let STATUSES = [];

/** The priorities, lowest first (the API's words). */
export let PRIORITIES = [];

/** The name of each status as the page shows it. */
export let STATUS_NAMES = {};

/**
 * The sign of each status besides its colour (colour is never the only one): a glyph the pins, the list's rows and the
 * legend show, so two statuses look different in black and white too.
 */
export let STATUS_GLYPHS = {};

/** The sign of an overdue marker besides its colour, on its pin and in its row. */
export let OVERDUE_GLYPH = '';

/** Allowed next statuses, in the order of their buttons. */
export let TRANSITIONS = {};

/** The statuses of markers that still need work (the others are closed one way or another). */
export let ACTIVE_STATUSES = [];

/** The changes by `from` and `to`: `{ action, needsReason, advances }`. */
let CHANGES = {};

/**
 * Takes the service's vocabulary (GET /vocabulary): `{ statuses: [{ name, title, glyph, colour, ink, active, next:
 * [{ to, action, needsReason, advances }] }], priorities, overdue: { glyph, colour } }`.
 */
export function setVocabulary(vocabulary) {
  STATUSES = vocabulary.statuses.map((status) => status.name);
  PRIORITIES = [...vocabulary.priorities];
  STATUS_NAMES = Object.fromEntries(vocabulary.statuses.map((status) => [status.name, status.title]));
  STATUS_GLYPHS = Object.fromEntries(vocabulary.statuses.map((status) => [status.name, status.glyph]));
  OVERDUE_GLYPH = vocabulary.overdue.glyph;
  ACTIVE_STATUSES = vocabulary.statuses.filter((status) => status.active).map((status) => status.name);
  TRANSITIONS = Object.fromEntries(vocabulary.statuses.map((status) => [status.name, status.next.map((next) => next.to)]));
  CHANGES = Object.fromEntries(vocabulary.statuses.map((status) => [status.name, Object.fromEntries(status.next.map((next) => [next.to, next]))]));
}

/** Whether `key` is an own key of `table` (not one of an object's built-in properties, such as `toString`). */
function has(table, key) {
  return Object.prototype.hasOwnProperty.call(table, key);
}

/** A status's glyph; `?` for a status the page does not know. */
export function statusGlyph(status) {
  return has(STATUS_GLYPHS, status) ? STATUS_GLYPHS[status] : '?';
}

/** A status in words (its name; the service's word for a status the page does not know). */
export function statusWords(status) {
  return has(STATUS_NAMES, status) ? STATUS_NAMES[status] : String(status);
}

/** The change from `from` to `to` the workflow allows, or undefined. */
export function change(from, to) {
  return has(CHANGES, from) && has(CHANGES[from], to) ? CHANGES[from][to] : undefined;
}

/** The label of the button that moves a marker from `from` to `to` (the status's name for a change not allowed). */
export function actionLabel(from, to) {
  return change(from, to)?.action ?? statusWords(to);
}

/**
 * The workflow buttons of a marker with status `status`: one for each status it may move to, in the order
 * of TRANSITIONS, each with its label and its class (`status-TO`). None for a status the page does not know.
 */
export function workflowButtons(status) {
  const next = has(TRANSITIONS, status) ? TRANSITIONS[status] : [];
  return next.map((to) => ({ to, label: actionLabel(status, to), className: `status-${to}` }));
}

/** The label of the popup's reason field: a reason is needed only for a change that rejects the work. */
export function reasonLabel(status) {
  const rejects = (TRANSITIONS[status] ?? []).some((to) => change(status, to)?.needsReason);
  return has(TRANSITIONS, status) && rejects ? 'Reason (needed to reject)' : 'Reason (optional)';
}

/** The PATCH body that moves a marker to `to`, with the reason when one was typed (spaces around it dropped). */
export function statusChange(to, reason) {
  const body = { status: to };
  const text = (reason || '').trim();
  if (text) body.reason = text;
  return body;
}

/** Words for a refusal code of the service. */
export function reasonText(code, message) {
  switch (code) {
    case 'outside-allowed-area': return 'outside the allowed area';
    case 'outside-drawing': return 'off the drawing';
    case 'invalid-coordinate': return 'not a valid position';
    default: return message || code;
  }
}
