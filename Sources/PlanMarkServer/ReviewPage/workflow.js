// The punch-item workflow as the page shows it (docs/punch-items.md: the workflow): the statuses, their
// names, the changes the service allows, and the buttons and words the popup uses for them.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/workflow.test.mjs runs it under node).

/** The statuses, in the order the legend lists them. */
export const STATUSES = ['open', 'in-progress', 'ready', 'closed', 'void'];

/** The priorities, lowest first (the API's words). */
export const PRIORITIES = ['low', 'normal', 'high', 'critical'];

/** The name of each status as the page shows it. */
export const STATUS_NAMES = {
  open: 'Open', 'in-progress': 'In progress', ready: 'Ready for inspection', closed: 'Closed (resolved)', void: 'Void',
};

/**
 * The sign of each status besides its colour (colour is never the only one): a glyph the pins, the list's rows and the
 * legend show, so two statuses look different in black and white too. Empty, then half, then full: the work done;
 * a tick: resolved; a cross: void.
 */
export const STATUS_GLYPHS = {
  open: '○', 'in-progress': '◐', ready: '●', closed: '✓', void: '✕',
};

/** The sign of an overdue marker besides its colour, on its pin and in its row. */
export const OVERDUE_GLYPH = '!';

/** A status's glyph; `?` for a status the page does not know. */
export function statusGlyph(status) {
  return Object.prototype.hasOwnProperty.call(STATUS_GLYPHS, status) ? STATUS_GLYPHS[status] : '?';
}

/** A status in words (its name; the service's word for a status the page does not know). */
export function statusWords(status) {
  return Object.prototype.hasOwnProperty.call(STATUS_NAMES, status) ? STATUS_NAMES[status] : String(status);
}

/** Allowed next statuses; `ready -> open` is a rejection and needs a reason. */
export const TRANSITIONS = {
  open: ['in-progress', 'ready', 'closed', 'void'],
  'in-progress': ['open', 'ready', 'closed', 'void'],
  ready: ['closed', 'open', 'void'],
  closed: ['open'],
  void: ['open'],
};

/** The label of the button that moves a marker from `from` to `to`. */
export function actionLabel(from, to) {
  if (to === 'closed') return 'Resolve';
  if (to === 'open') return from === 'ready' ? 'Reject (reopen)' : 'Reopen';
  if (to === 'in-progress') return 'Start work';
  if (to === 'ready') return 'Ready for inspection';
  return 'Void';
}

/**
 * The workflow buttons of a marker with status `status`: one for each status it may move to, in the order
 * of TRANSITIONS, each with its label and its class (`status-TO`). None for a status the page does not know.
 */
export function workflowButtons(status) {
  const next = Object.prototype.hasOwnProperty.call(TRANSITIONS, status) ? TRANSITIONS[status] : [];
  return next.map((to) => ({ to, label: actionLabel(status, to), className: `status-${to}` }));
}

/** The label of the popup's reason field: a reason is needed only to reject a marker that is ready. */
export function reasonLabel(status) {
  return status === 'ready' ? 'Reason (needed to reject)' : 'Reason (optional)';
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
