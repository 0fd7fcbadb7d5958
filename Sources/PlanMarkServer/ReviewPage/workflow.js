// The punch-item statuses and the changes the service allows (docs/punch-items.md: the workflow), with button labels.
export const STATUSES = ['open', 'in-progress', 'ready', 'closed', 'void'];

export const STATUS_NAMES = {
  open: 'Open', 'in-progress': 'In progress', ready: 'Ready for inspection', closed: 'Closed (resolved)', void: 'Void',
};

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

/** Words for a refusal code of the service. */
export function reasonText(code, message) {
  switch (code) {
    case 'outside-allowed-area': return 'outside the allowed area';
    case 'outside-drawing': return 'off the drawing';
    case 'invalid-coordinate': return 'not a valid position';
    default: return message || code;
  }
}
