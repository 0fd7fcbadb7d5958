// The legend: a checkbox a status (its colour and glyph, name and count) that shows or hides its pins, the overdue
// mark, and the number of markers.
import { byId, element } from './dom.js';
import { showDrawingCounts } from './drawings.js';
import { countByStatus, setShown } from './filters.js';
import { OVERDUE_GLYPH, STATUSES, STATUS_NAMES, statusGlyph } from './workflow.js';

/** Builds the legend; `changed()` is called when a checkbox changes which statuses are shown. */
export function buildLegend(state, changed) {
  const box = byId('filters');
  for (const status of STATUSES) {
    const label = element('label', undefined, 'check');
    const input = element('input');
    input.type = 'checkbox';
    input.checked = true;
    input.dataset.status = status;
    input.addEventListener('change', () => {
      setShown(state.visible, status, input.checked);
      changed();
    });
    // The pins' colour and glyph; the name beside it says it in words.
    const swatch = element('span', statusGlyph(status), `swatch swatch-${status}`);
    swatch.setAttribute('aria-hidden', 'true');
    const text = element('span', STATUS_NAMES[status]);
    const count = element('span', undefined, 'muted count');
    count.dataset.status = status;
    label.append(input, swatch, text, count);
    box.append(label);
  }
  box.after(overdueKey());
}

/** The legend's line for the overdue mark on a pin (its ring and its glyph). */
function overdueKey() {
  const key = element('p', undefined, 'legend-overdue');
  const mark = element('span', OVERDUE_GLYPH, 'overdue-mark');
  mark.setAttribute('aria-hidden', 'true');
  key.append(mark, element('span', 'on a pin or a row: overdue (past its due date, not resolved)'));
  return key;
}

/** Counts the open drawing's markers by status in the legend and in the drawing list. */
export function updateLegend(state) {
  const counts = countByStatus([...state.markers.values()].map((entry) => entry.data));
  for (const span of byId('filters').querySelectorAll('.count')) span.textContent = `(${counts[span.dataset.status]})`;
  byId('marker-total').textContent = `(${state.markers.size})`;
  if (state.drawing) showDrawingCounts(state.drawing.name, counts);
}

/** Ticks the checkboxes of the statuses `state.visible` shows, and only those (after the address set them). */
export function showStatuses(state) {
  for (const box of byId('filters').querySelectorAll('input[data-status]')) box.checked = state.visible.has(box.dataset.status);
}

/** Shows `status` in the filter (ticks its checkbox). */
export function showStatus(state, status) {
  setShown(state.visible, status, true);
  const box = byId('filters').querySelector(`input[data-status="${status}"]`);
  if (box) box.checked = true;
}
