// A marker's history entries (GET .../markers/N/history) as the lines the popup lists.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/history-text.test.mjs runs it under node).

/** A field's value as the history shows it: `–` for none, JSON for a list or an object. */
export function valueText(value) {
  if (value === null || value === undefined) return '–';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
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
  const when = entry.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  return `${when} ${entry.action}${entry.author ? ' by ' + entry.author : ''}${changes.length ? ': ' + changes.join(', ') : ''}`;
}
