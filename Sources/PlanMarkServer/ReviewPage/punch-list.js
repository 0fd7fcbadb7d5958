// The punch list beside the sheet: the drawing's items that pass the filter (number and status, title, assignee,
// due date, overdue), by number, with a search and menus for assignee, category, priority, room and "overdue only";
// the pins show the same items (list-filter.js). A row opens its pin's popup with the sheet centred on it.
import { button, byId, element } from './dom.js';
import { choices, listCount, listCountWords, listRows } from './list-filter.js';
import { sayWhenQuiet } from './messages.js';
import { OVERDUE_GLYPH, PRIORITIES, statusGlyph, statusWords } from './workflow.js';

/** A menu's options: "Any" (the empty value), then `values`; `current` stays offered when no marker has it now. */
function fillMenu(select, values, current) {
  const offered = current && !values.includes(current) ? [current, ...values] : values;
  // Unchanged, the menu is left as it is (a reader may have it open while a live change arrives).
  const now = [...select.options].map((option) => option.value);
  if (now.length === offered.length + 1 && offered.every((value, index) => now[index + 1] === value)) {
    select.value = current;
    return;
  }
  const options = [element('option', 'Any')];
  options[0].value = '';
  for (const value of offered) {
    const option = element('option', value);
    option.value = value;
    options.push(option);
  }
  select.replaceChildren(...options);
  select.value = current;
}

/** A status's or overdue's glyph, shown but not read out (the row's label says it in words). */
function glyph(text) {
  const sign = element('span', text, 'glyph');
  sign.setAttribute('aria-hidden', 'true');
  return sign;
}

/** A row of the list: a button that reads as the item (colour is never the only sign of its status). */
function row(marker, choose) {
  const item = element('li');
  const title = marker.note ? marker.note.split('\n')[0] : '(no note)';
  const b = button('', () => choose(marker.number), 'row');
  b.dataset.number = String(marker.number);
  const badge = element('span', undefined, `badge pin-${marker.status}`);
  badge.append(glyph(statusGlyph(marker.status)), String(marker.number));
  const meta = [statusWords(marker.status)];
  if (marker.assignee) meta.push(marker.assignee);
  if (marker.due) meta.push(`due ${marker.due}`);
  const words = element('span', undefined, 'row-words');
  words.append(element('span', title, 'row-title'), element('span', meta.join(' · '), 'row-meta'));
  if (marker.overdue) {
    const late = element('span', undefined, 'row-overdue');
    late.append(glyph(OVERDUE_GLYPH), 'overdue');
    words.append(late);
  }
  b.append(badge, words);
  b.setAttribute('aria-label', `Marker ${marker.number}: ${title}; ${meta.join(', ')}${marker.overdue ? ', overdue' : ''}`);
  item.append(b);
  return item;
}

/**
 * The list of the open drawing (`state.markers`). `changed()` is told when the reader changed the filter (the pins and
 * the address follow); `choose(number)` when they chose a row.
 */
export function createPunchList(state, { changed, choose }) {
  const search = byId('list-search');
  const menus = { assignee: byId('filter-assignee'), category: byId('filter-category'), priority: byId('filter-priority'), room: byId('filter-room') };
  const overdue = byId('filter-overdue');
  let shown = { rows: 0, total: 0 };
  search.addEventListener('input', () => { state.conditions.q = search.value.trim(); changed(); render(); announce(); });
  for (const [key, select] of Object.entries(menus)) {
    select.addEventListener('change', () => { state.conditions[key] = select.value; changed(); render(); announce(); });
  }
  overdue.addEventListener('change', () => { state.conditions.overdue = overdue.checked; changed(); render(); announce(); });

  /** Lists the items that pass, and offers in the menus the values the drawing's items have. */
  function render() {
    const markers = [...state.markers.values()].map((entry) => entry.data);
    for (const key of ['assignee', 'category', 'room']) fillMenu(menus[key], choices(markers, key), state.conditions[key]);
    fillMenu(menus.priority, PRIORITIES, state.conditions.priority);
    const rows = listRows(markers, state.visible, state.conditions);
    // A row that has the focus keeps it: the list is built anew whenever a marker changes (live, or the reader's own
    // save), and the focus would otherwise fall to the page's body under the reader's keyboard.
    const list = byId('punch-list');
    const focused = list.contains(document.activeElement) ? document.activeElement.dataset.number : undefined;
    list.replaceChildren(...rows.map((marker) => row(marker, choose)));
    if (focused !== undefined) list.querySelector(`.row[data-number="${focused}"]`)?.focus({ preventScroll: true });
    byId('list-count').textContent = listCount(rows.length, markers.length);
    shown = { rows: rows.length, total: markers.length };
  }

  /**
   * Says how many items the list shows, once the reader paused (after they changed the filter; a change that arrived
   * live is not said: it would talk over them).
   */
  function announce() {
    sayWhenQuiet(listCountWords(shown.rows, shown.total));
  }

  /** Shows the filter's conditions in the controls (after the address set them). */
  function showConditions() {
    search.value = state.conditions.q;
    overdue.checked = state.conditions.overdue;
    render();
  }

  return { render, showConditions, announce };
}
