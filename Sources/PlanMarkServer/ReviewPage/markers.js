// The pins: one Leaflet marker a punch item, numbered, coloured by status and marked with its status's glyph (an
// overdue one with its glyph too: colour is never the only sign), focusable (Enter or Space opens it), draggable when the signed-in user may edit it, with its popup; shown or hidden by the punch list's filter.
// Each pin's element carries data-number, data-status, and data-x, data-y: the image pixel where the page
// shows it (it follows a drag), for scripts and the browser test.
import { L } from './leaflet-global.js';
import { filterChanges } from './filters.js';
import { passes } from './list-filter.js';
import { toLatLng, toPixel } from './map.js';
import { may } from './permissions.js';
import { holdToDrag, touchFirst } from './hold-to-drag.js';
import { addressOf } from './address.js';
import { followPopupFocus, popupHeadingId } from './popup-focus.js';
import { OVERDUE_GLYPH, statusGlyph, statusWords } from './workflow.js';

/** A pin's icon: its number in a circle of its status's colour, wider for numbers of three digits or more. */
function pinIcon(data) {
  const width = 24 + 7 * Math.max(0, String(data.number).length - 2);
  return L.divIcon({
    className: `pin pin-${data.status}${data.overdue ? ' pin-overdue' : ''}`,
    html: String(data.number), iconSize: [width, 24], iconAnchor: [width / 2, 12], popupAnchor: [0, -12],
  });
}

/** Writes where the page shows the pin (image pixels) on its element. */
function showPosition(state, entry) {
  const el = entry.layer.getElement();
  if (!el) return;
  const { x, y } = toPixel(state, entry.layer.getLatLng());
  el.dataset.x = String(x);
  el.dataset.y = String(y);
}

/** Labels the pin's element: its number and status, as a button for assistive technology. */
function labelPin(state, entry) {
  const el = entry.layer.getElement();
  if (!el) return;
  el.dataset.number = String(entry.data.number);
  el.dataset.status = entry.data.status;
  el.setAttribute('role', 'button');
  el.setAttribute('aria-label', `Marker ${entry.data.number}, ${statusWords(entry.data.status)}${entry.data.overdue ? ', overdue' : ''}`);
  // The glyphs the stylesheet shows on the pin (.pin::after, .pin-overdue::before), from workflow.js's table.
  el.dataset.glyph = statusGlyph(entry.data.status);
  if (entry.data.overdue) el.dataset.overdue = OVERDUE_GLYPH; else delete el.dataset.overdue;
  showPosition(state, entry);
}

/** Lets the pin be dragged only when the signed-in user may edit the marker (move it). */
function allowDrag(state, entry) {
  // On a touch screen a pin moves by a long press (hold-to-drag.js), not by Leaflet's dragging, which starts at once.
  const draggable = may(state.access, 'edit-marker', entry.data) && !touchFirst();
  entry.layer.options.draggable = draggable; // for a pin not on the map yet: Leaflet reads it when it adds the pin
  if (entry.layer.dragging) {
    if (draggable) entry.layer.dragging.enable();
    else entry.layer.dragging.disable();
  }
}

/**
 * Builds the open popup of `entry` again (its marker changed), keeping what the reader typed in it (a field whose
 * value is not the one it was built with) and where the focus was.
 */
function rebuildPopup(entry) {
  const popup = entry.layer.getPopup();
  if (!popup) return;
  const before = popup.getElement();
  const typed = new Map();
  for (const field of before?.querySelectorAll('textarea[id], input[id], select[id]') ?? []) {
    const initial = field.tagName === 'SELECT' ? [...field.options].find((option) => option.defaultSelected)?.value : field.defaultValue;
    if (field.value !== initial) typed.set(field.id, field.value);
  }
  const inside = !!before?.contains(document.activeElement);
  const focused = inside && document.activeElement.id ? document.activeElement.id : null;
  popup.update();
  const after = popup.getElement();
  if (!after) return;
  for (const [id, value] of typed) {
    const field = after.querySelector(`#${CSS.escape(id)}`);
    if (field) field.value = value;
  }
  // The focused control may be gone (a status button after the status changed): the popup's heading takes the focus.
  if (inside) {
    const target = (focused && after.querySelector(`#${CSS.escape(focused)}`)) || after.querySelector(`#${popupHeadingId(entry.data.number)}`);
    target?.focus({ preventScroll: true });
  }
}

/**
 * The pins of the open drawing (`state.markers`, on `state.markerLayer`). `popupContent(number)` builds a
 * pin's popup; `dragEnded(entry, from)` is told when a pin was dropped (`from`: the latLng it left).
 */
export function createPins(state, { popupContent, dragEnded }) {
  function add(data) {
    const layer = L.marker(toLatLng(state, data.x, data.y), {
      icon: pinIcon(data), draggable: may(state.access, 'edit-marker', data) && !touchFirst(), keyboard: true, riseOnHover: true, title: `Marker ${data.number}`,
    });
    const entry = { data, layer };
    let listened = null; // the element listened to (Leaflet keeps a pin's element when it adds the pin again: once is enough)
    layer.on('add', () => {
      labelPin(state, entry);
      if (listened === layer.getElement()) return;
      listened = layer.getElement();
      // Enter or Space on a focused pin opens it, and the focus moves into its popup (popup-focus.js).
      listened.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter' && event.key !== ' ') return;
        event.preventDefault();
        entry.layer.openPopup();
      });
      // A long press lifts it on a touch screen.
      holdToDrag(state.map, layer, {
        allowed: () => may(state.access, 'edit-marker', entry.data),
        lifted: () => { state.dragging = entry.data.number; layer.closePopup(); },
        dropped: (from) => { state.draggedAt = performance.now(); dragEnded(entry, from); },
      });
    });
    layer.on('move', () => showPosition(state, entry));
    followPopupFocus(layer, () => entry.data.number);
    layer.bindPopup(() => popupContent(entry.data.number), { minWidth: 240, maxWidth: 340, maxHeight: 320, autoPanPadding: [30, 30] });
    layer.on('popupopen', () => {
      state.openNumber = entry.data.number;
      history.replaceState(null, '', addressOf(state, entry.data.number));
    });
    layer.on('popupclose', () => {
      if (state.openNumber === entry.data.number) state.openNumber = null;
      if (state.drawing) history.replaceState(null, '', addressOf(state, null));
    });
    let from = null;
    layer.on('dragstart', () => { from = layer.getLatLng(); state.dragging = entry.data.number; layer.closePopup(); });
    layer.on('dragend', () => { state.draggedAt = performance.now(); dragEnded(entry, from); });
    state.markers.set(data.number, entry);
    if (passes(data, state.visible, state.conditions)) state.markerLayer.addLayer(layer);
    return entry;
  }

  /** Takes a pin off the page. */
  function remove(number) {
    const entry = state.markers.get(number);
    if (!entry) return;
    entry.layer.closePopup();
    state.markerLayer.removeLayer(entry.layer);
    state.markers.delete(number);
    state.history.delete(number);
    state.comments.delete(number);
  }

  /**
   * Puts a marker object of the service (pixel x, y) on the map, new or changed; one older than the marker shown
   * (a lower `version`: an event that arrives after the answer to the page's own edit) changes nothing. A marker whose
   * position is not a pair of finite numbers (a store written before positions were checked can hold one) has no
   * place on the sheet: it gets no pin, and every other marker is shown as usual.
   */
  function upsert(data) {
    const entry = state.markers.get(data.number);
    if (entry && data.version < entry.data.version) return entry;
    if (!Number.isFinite(data.x) || !Number.isFinite(data.y)) { remove(data.number); return null; }
    if (!entry) return add(data);
    const before = entry.data;
    entry.data = data;
    if (state.dragging !== data.number && (before.x !== data.x || before.y !== data.y)) entry.layer.setLatLng(toLatLng(state, data.x, data.y));
    if (before.status !== data.status || before.overdue !== data.overdue) {
      entry.layer.setIcon(pinIcon(data));
      labelPin(state, entry);
    }
    if (JSON.stringify(before) !== JSON.stringify(data)) {
      allowDrag(state, entry);
      state.history.delete(data.number);
      if (state.openNumber === data.number) rebuildPopup(entry);
    }
    return entry;
  }

  /** Shows the pins the filter shows (the punch list's: list-filter.js), and hides the others. */
  function applyFilter() {
    const shows = (data) => passes(data, state.visible, state.conditions);
    const { add: shown, remove: hidden } = filterChanges(state.markers.values(), shows, (layer) => state.markerLayer.hasLayer(layer));
    for (const layer of shown) state.markerLayer.addLayer(layer);
    for (const layer of hidden) state.markerLayer.removeLayer(layer);
  }

  /** Makes the pins those of a GeoJSON FeatureCollection of the service: new and changed ones put, missing ones removed. */
  function apply(collection) {
    const seen = new Set();
    for (const feature of collection.features) {
      seen.add(feature.properties.number);
      upsert(feature.properties);
    }
    for (const number of [...state.markers.keys()]) if (!seen.has(number)) remove(number);
    applyFilter();
  }

  /** Follows a change of who is signed in: each pin's dragging and the open popup's buttons. */
  function accessChanged() {
    for (const entry of state.markers.values()) allowDrag(state, entry);
    if (state.openNumber !== null) state.markers.get(state.openNumber)?.layer.getPopup()?.update();
  }

  return { upsert, remove, applyFilter, apply, accessChanged };
}
