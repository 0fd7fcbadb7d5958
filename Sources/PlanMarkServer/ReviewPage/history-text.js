// A marker's history entries (GET .../markers/N/history) as the lines the popup lists, in words, and who wrote a
// comment when; times in the reader's own time zone.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/history-text.test.mjs runs it under node).

/** A field's value as the history shows it: `–` for none, JSON for a list or an object. */
export function valueText(value) {
  if (value === null || value === undefined) return '–';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A status or priority in words (`in-progress` -> `in progress`). */
function words(value) {
  return typeof value === 'string' ? value.replace(/-/g, ' ') : valueText(value);
}

/**
 * A time of the service (ISO 8601, UTC) in the reader's time zone (or `timeZone`, an IANA name), to the minute:
 * `2026-11-26 05:05`. Text that is not a time is shown as it is.
 */
export function timeText(iso, timeZone) {
  const date = new Date(String(iso ?? ''));
  if (Number.isNaN(date.getTime())) return String(iso ?? '');
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** The fields a change lists, in words: `status: open → in progress`, `note: – → crack`, `position: 900, 400 → 1000, 500`. */
function changeWords(entry) {
  const old = entry.old || {};
  const fresh = entry.new || {};
  const keys = Object.keys(fresh);
  const parts = [];
  if (keys.includes('x') || keys.includes('y')) {
    const at = (side) => (side.x === undefined && side.y === undefined ? '–' : `${Math.round(side.x)}, ${Math.round(side.y)}`);
    parts.push(`position: ${at(old)} → ${at(fresh)}`);
  }
  for (const key of keys) {
    if (key === 'x' || key === 'y') continue;
    if (key === 'reason') { if (fresh.reason) parts.push(`reason: ${fresh.reason}`); continue; }
    const show = key === 'status' || key === 'priority' ? words : valueText;
    parts.push(`${key}: ${show(old[key])} → ${show(fresh[key])}`);
  }
  return parts;
}

/** What a creation set, in words (not its uuid nor its rooms, nor the fields left empty). */
function creationWords(entry) {
  const fresh = entry.new || {};
  const parts = [];
  if (fresh.x !== undefined && fresh.y !== undefined) parts.push(`at ${Math.round(fresh.x)}, ${Math.round(fresh.y)}`);
  for (const [key, value] of Object.entries(fresh)) {
    if (value === null || value === undefined || ['uuid', 'rooms', 'x', 'y'].includes(key)) continue;
    parts.push(`${key} ${key === 'status' || key === 'priority' ? words(value) : valueText(value)}`);
  }
  return parts;
}

/**
 * One history entry as a line: when (the reader's time, to the minute), what, by whom, and in words what changed:
 * `2026-11-26 05:05 status by ana: status: open → in progress`.
 */
export function historyLine(entry, timeZone) {
  const changes = entry.action === 'created' ? creationWords(entry) : changeWords(entry);
  const when = timeText(entry.at, timeZone);
  return `${when} ${entry.action}${entry.author ? ' by ' + entry.author : ''}${changes.length ? ': ' + changes.join(', ') : ''}`;
}

/** The line above a comment (GET .../markers/N/comments): its author and when it was written. */
export function commentByline(comment, timeZone) {
  return `${comment.author || 'someone'}, ${timeText(comment.createdAt, timeZone)}`;
}
