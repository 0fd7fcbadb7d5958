// A marker's history entries (GET .../markers/N/history) as the lines the popup lists, and who wrote a comment when.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/history-text.test.mjs runs it under node).

/** A field's value as the history shows it: `–` for none, JSON for a list or an object. */
export function valueText(value) {
  if (value === null || value === undefined) return '–';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A time of the service (ISO 8601, UTC) as the popup shows it: to the second, a space before the time. */
export function timeText(iso) {
  return String(iso ?? '').replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/**
 * One history entry as a line: when (to the second, UTC), what, by whom, and the fields. A creation lists
 * what was set (not its uuid nor its rooms); a change each field's old and new value.
 */
export function historyLine(entry) {
  const fresh = entry.new || {};
  const changes = entry.action === 'created'
    ? Object.entries(fresh).filter(([key, value]) => value !== null && key !== 'uuid' && key !== 'rooms')
      .map(([key, value]) => `${key} ${valueText(value)}`)
    : Object.keys(fresh).map((key) => `${key} ${valueText(entry.old ? entry.old[key] : undefined)} → ${valueText(fresh[key])}`);
  const when = timeText(entry.at);
  return `${when} ${entry.action}${entry.author ? ' by ' + entry.author : ''}${changes.length ? ': ' + changes.join(', ') : ''}`;
}

/** The line above a comment (GET .../markers/N/comments): its author and when it was written. */
export function commentByline(comment) {
  return `${comment.author || 'someone'}, ${timeText(comment.createdAt)}`;
}
