// A marker's details as the popup edits them (category, priority, assignee, due date), what an edit changes, and a
// conflict: the service answered 412 (someone changed the marker since the page read it), so the reviewer sees their
// values beside the stored ones and keeps theirs or takes the other.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/conflict.test.mjs runs it under node).

/** The details the popup's form edits, in its order, with their words. */
export const DETAILS = [
  { field: 'category', label: 'Category' },
  { field: 'priority', label: 'Priority' },
  { field: 'assignee', label: 'Assignee' },
  { field: 'due', label: 'Due date' },
];

/** A field's typed text as the API takes it: trimmed, and `null` (cleared) when empty; priority is never cleared. */
function apiValue(field, text) {
  const value = String(text ?? '').trim();
  if (value === '') return field === 'priority' ? 'normal' : null;
  return value;
}

/**
 * The PATCH body of what the reviewer typed (`typed`: field -> text) that differs from `marker`: only the fields they
 * changed, so a change someone else made to another field is kept. Empty when nothing differs.
 */
export function detailChanges(marker, typed) {
  const body = {};
  for (const { field } of DETAILS) {
    if (!(field in typed)) continue;
    const value = apiValue(field, typed[field]);
    if (value !== (marker[field] ?? null)) body[field] = value;
  }
  return body;
}

/** A value as the conflict shows it. */
function shown(field, value) {
  if (value === null || value === undefined || value === '') return '(none)';
  return field === 'status' ? String(value).replace(/-/g, ' ') : String(value);
}

/**
 * The rows of a conflict: for each field of the reviewer's change (`body`), their value and the stored marker's
 * (`stored`, the 412's `marker`); `same` when the stored value is theirs already.
 */
export function conflictRows(body, stored) {
  return Object.keys(body).filter((field) => field !== 'reason').map((field) => {
    const mine = body[field];
    const theirs = stored[field] ?? null;
    return { field, mine: shown(field, mine), theirs: shown(field, theirs), same: mine === theirs };
  });
}
