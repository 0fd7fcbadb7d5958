// A pin's popup: the marker's fields, its note to edit, its workflow buttons, delete (pressed twice), its
// comments and its history; only the controls the signed-in user's role may use on this marker (permissions.js).
// Everything a user typed goes in as text, never as HTML.
import { drawingPath, json } from './api.js';
import { commentsSection } from './comments.js';
import { photosSection } from './photos.js';
import { button, element } from './dom.js';
import { DETAILS, conflictRows, detailChanges } from './conflict.js';
import { historyLine, timeText } from './history-text.js';
import { say } from './messages.js';
import { markerActions } from './permissions.js';
import { popupHeadingId } from './popup-focus.js';
import { PRIORITIES, STATUS_NAMES, reasonLabel, statusChange, workflowButtons } from './workflow.js';

/**
 * The popup of marker `number` of the open drawing. `edits.patch(number, body, done)` and
 * `edits.remove(number)` change it through the service (edits.js).
 */
export function popupContent(state, number, edits) {
  const entry = state.markers.get(number);
  const box = element('div', undefined, 'popup');
  if (!entry) { box.append(element('p', `Marker ${number} is gone.`)); return box; }
  const m = entry.data;
  box.dataset.number = String(number);
  box.append(heading(m));
  const offered = markerActions(state.access, m);
  const dl = element('dl');
  const row = (name, value) => { if (value !== null && value !== undefined && value !== '') dl.append(element('dt', name), element('dd', String(value))); };
  row('Rooms', m.rooms && m.rooms.length ? m.rooms.join(', ') : 'none');
  if (!offered.edit) row('Note', m.note); // otherwise the note is in its field below, once
  row('Author', m.author);
  row('Category', m.category);
  row('Priority', m.priority);
  row('Assignee', m.assignee);
  row('Due', m.due);
  row('Position', `${Math.round(m.x)}, ${Math.round(m.y)} px`);
  row('Created', timeText(m.createdAt));
  box.append(dl);

  const conflict = state.conflicts.get(number);
  if (conflict) box.append(conflictBox(state, number, conflict, edits));

  if (offered.edit) {
    const noteId = `note-${number}`;
    const noteLabel = element('label', 'Note');
    noteLabel.htmlFor = noteId;
    const note = element('textarea');
    note.id = noteId;
    note.rows = 2;
    note.value = m.note ?? '';
    note.defaultValue = m.note ?? ''; // what the service has: a popup rebuilt under the reader keeps only what they typed
    const saveNote = button('Save note', () => {
      const text = note.value.trim();
      edits.patch(number, { note: text === '' ? null : text }, () => `Marker ${number}: note saved.`);
    }, 'save-note');
    const noteButtons = element('div', undefined, 'buttons');
    noteButtons.append(saveNote);
    box.append(noteLabel, note, noteButtons, detailsForm(m, edits));
  }

  const moves = workflowButtons(m.status).filter(({ to }) => offered.statuses.includes(to));
  if (moves.length > 0) {
    const reasonId = `reason-${number}`;
    const reasonField = element('label', reasonLabel(m.status));
    reasonField.htmlFor = reasonId;
    const reason = element('input');
    reason.type = 'text';
    reason.id = reasonId;
    const actions = element('div', undefined, 'buttons status-actions');
    actions.setAttribute('role', 'group');
    actions.setAttribute('aria-label', `Change the status of marker ${number}`);
    for (const { to, label, className } of moves) {
      const b = button(label, () => {
        edits.patch(number, statusChange(to, reason.value), () => `Marker ${number} is now ${STATUS_NAMES[to].toLowerCase()}.`);
      }, className);
      b.dataset.to = to;
      actions.append(b);
    }
    box.append(reasonField, reason, actions);
  }

  if (offered.remove) {
    const danger = element('div', undefined, 'buttons');
    const del = button('Delete marker', () => {
      if (del.dataset.confirm === 'yes') { edits.remove(number); return; }
      del.dataset.confirm = 'yes';
      del.textContent = `Really delete marker ${number}?`;
      say(`Press the button again to delete marker ${number}.`);
    }, 'delete');
    danger.append(del);
    box.append(danger);
  }

  box.append(photosSection(state, number, offered.comment, edits));
  box.append(commentsSection(state, number, offered.comment, edits));

  box.append(element('h4', 'History'));
  const list = element('ol', undefined, 'history');
  box.append(list);
  const fill = (entries) => {
    list.replaceChildren(...entries.map((h) => element('li', historyLine(h))));
    list.dataset.loaded = 'true';
  };
  const cached = state.history.get(number);
  if (cached) {
    fill(cached);
  } else {
    // Filled in place when it arrives (the popup is not rebuilt under the reader's pointer).
    list.append(element('li', 'loading…'));
    json(`${drawingPath(state.drawing.name)}/markers/${number}/history`).then((answer) => {
      state.history.set(number, answer.history);
      fill(answer.history);
    }, () => { list.replaceChildren(element('li', 'history unavailable')); });
  }
  return box;
}

/**
 * The popup's heading: the marker's number and status in words (and overdue); the focus moves to it when the popup
 * opens (popup-focus.js), so a screen reader says which marker it is first.
 */
function heading(m) {
  const h = element('h3', `Marker ${m.number}: ${STATUS_NAMES[m.status]}${m.overdue ? ' (overdue)' : ''}`);
  h.id = popupHeadingId(m.number);
  h.tabIndex = -1;
  return h;
}

/**
 * The form that edits a marker's category, priority, assignee and due date; "Save details" sends what was changed
 * (conflict.js detailChanges). Each field's default is the stored value, so a popup rebuilt under the reader keeps
 * only what they typed.
 */
function detailsForm(m, edits) {
  const box = element('fieldset', undefined, 'details');
  box.append(element('legend', 'Details'));
  const fields = {};
  for (const { field, label } of DETAILS) {
    const id = `${field}-${m.number}`;
    const title = element('label', label);
    title.htmlFor = id;
    let input;
    if (field === 'priority') {
      input = element('select');
      for (const priority of PRIORITIES) {
        const option = element('option', priority);
        option.value = priority;
        option.defaultSelected = priority === (m.priority ?? 'normal');
        input.append(option);
      }
    } else {
      input = element('input');
      input.type = field === 'due' ? 'date' : 'text';
      input.defaultValue = m[field] ?? '';
      input.value = m[field] ?? '';
      if (field !== 'due') input.maxLength = 100;
    }
    input.id = id;
    fields[field] = input;
    box.append(title, input);
  }
  const save = button('Save details', () => {
    const typed = Object.fromEntries(Object.entries(fields).map(([field, input]) => [field, input.value]));
    const body = detailChanges(m, typed);
    if (Object.keys(body).length === 0) { say(`Marker ${m.number}: nothing changed.`); return; }
    edits.patch(m.number, body, () => `Marker ${m.number}: details saved.`);
  }, 'save-details');
  const buttons = element('div', undefined, 'buttons');
  buttons.append(save);
  box.append(buttons);
  return box;
}

/**
 * The conflict of marker `number`: the reviewer's change refused with 412 because someone changed the marker
 * meanwhile. Each field of the change, theirs beside the stored value; "Keep mine" makes the same change again on the
 * version now shown, "Take theirs" drops it (the popup then shows the stored values only).
 */
function conflictBox(state, number, conflict, edits) {
  const entry = state.markers.get(number);
  const box = element('div', undefined, 'conflict');
  box.setAttribute('role', 'alert');
  box.append(element('p', 'Someone changed this marker after you opened it; nothing of yours was stored.'));
  const table = element('table');
  const head = element('tr');
  head.append(element('th', 'Field'), element('th', 'Yours'), element('th', 'Stored now'));
  for (const th of head.children) th.scope = 'col';
  table.append(head);
  for (const { field, mine, theirs } of conflictRows(conflict.body, entry.data)) {
    const tr = element('tr');
    tr.dataset.field = field;
    tr.append(element('td', field), element('td', mine), element('td', theirs));
    table.append(tr);
  }
  const keep = button('Keep mine', () => edits.patch(number, conflict.body, conflict.done), 'keep-mine');
  const take = button('Take theirs', () => {
    state.conflicts.delete(number);
    say(`Marker ${number}: the stored values are kept.`);
    // Built afresh, not rebuilt keeping what was typed: the fields show the stored values.
    entry.layer.getPopup()?.update();
    // The pressed button is gone with the box: the focus stays in the popup, on its heading.
    document.getElementById(popupHeadingId(number))?.focus({ preventScroll: true });
  }, 'take-theirs');
  const buttons = element('div', undefined, 'buttons');
  buttons.setAttribute('role', 'group');
  buttons.setAttribute('aria-label', 'Settle the conflict');
  buttons.append(keep, take);
  box.append(table, buttons);
  return box;
}
