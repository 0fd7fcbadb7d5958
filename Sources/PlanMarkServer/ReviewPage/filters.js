// Which markers the page shows and how it counts them: the status filter, the legend's counts, a
// drawing's open and resolved counts, and the split of a drawing's regions into rooms and allowed areas.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/filters.test.mjs runs it under node).
import { ACTIVE_STATUSES, STATUSES } from './workflow.js';

/** The markers of each status: every status of STATUSES, 0 when none has it (a status the page does not know is counted too). */
export function countByStatus(markers) {
  const counts = Object.fromEntries(STATUSES.map((status) => [status, 0]));
  for (const marker of markers) counts[marker.status] = (counts[marker.status] || 0) + 1;
  return counts;
}

/**
 * Open and resolved counts from counts by status (the legend's, or `byStatus` of GET /drawings/NAME/summary,
 * which leaves out statuses no marker has): open is every status that still needs work (the vocabulary's `active`:
 * open, in progress and ready); resolved is the others (closed and void).
 */
export function openAndResolved(counts) {
  const n = (status) => counts[status] || 0;
  const open = ACTIVE_STATUSES.reduce((sum, status) => sum + n(status), 0);
  const resolved = STATUSES.filter((status) => !ACTIVE_STATUSES.includes(status)).reduce((sum, status) => sum + n(status), 0);
  return { open, resolved };
}

/** The drawing list's counts line: `3 open · 1 resolved`. */
export function countsText(counts) {
  const { open, resolved } = openAndResolved(counts);
  return `${open} open · ${resolved} resolved`;
}

/** Shows or hides a status in the filter (a Set of the statuses shown). */
export function setShown(visible, status, shown) {
  if (shown) visible.add(status); else visible.delete(status);
}

/**
 * What the filter changes on the map: of the `entries` (each `{ data, layer }`), the layers to add (`shows(data)`
 * and they are not on the map) and the layers to remove (hidden, and on the map). `onMap(layer)` says whether a
 * layer is on the map.
 */
export function filterChanges(entries, shows, onMap) {
  const add = [];
  const remove = [];
  for (const { data, layer } of entries) {
    const show = shows(data);
    if (show && !onMap(layer)) add.push(layer);
    if (!show && onMap(layer)) remove.push(layer);
  }
  return { add, remove };
}

/**
 * A drawing's regions (a GeoJSON FeatureCollection from GET /drawings/NAME/regions) as two collections:
 * the allowed areas (`properties.kind` is `allowed`) and the rooms (every other feature).
 */
export function splitRegions(regions) {
  const allowed = (feature) => feature.properties !== null && feature.properties !== undefined && feature.properties.kind === 'allowed';
  return {
    allowed: { type: 'FeatureCollection', features: regions.features.filter(allowed) },
    rooms: { type: 'FeatureCollection', features: regions.features.filter((feature) => !allowed(feature)) },
  };
}

/** A room's label: its id, then its name when it has one (`2.02 Office`). */
export function roomLabel(feature) {
  const name = feature.properties ? feature.properties.name : undefined;
  return name ? `${feature.id} ${name}` : String(feature.id);
}
