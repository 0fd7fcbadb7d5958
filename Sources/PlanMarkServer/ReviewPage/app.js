// The PlanMark review page: drawing list, the tiled sheet with rooms and the allowed area, numbered pins
// by status, placing, editing, moving and resolving markers, live updates by conditional polling.
import { ApiError, askToken, blobURL, currentToken, drawingPath, json, request } from './api.js';
import { drawingTileLayer } from './tiles.js';
import { STATUSES, STATUS_NAMES, TRANSITIONS, actionLabel, reasonText } from './workflow.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;

const state = {
  drawings: [],
  drawing: null,       // the open drawing's JSON
  map: null,
  offset: 0,           // 0 for leaflet drawings, 8 for flutter ones (CrsSimple scales by 256 * 2^z)
  zoom: 0,             // the Leaflet zoom at which map pixels are image pixels: the drawing's zoom + offset
  markers: new Map(),  // number -> { data, layer }
  markerLayer: null,
  visible: new Set(STATUSES),
  etag: null,
  lastText: null,
  poll: null,
  generation: 0,       // bumps when another drawing opens, so late answers for the old one are dropped
  openNumber: null,    // the marker whose popup is open
  skipClick: false,
  dragging: null,
  history: new Map(),  // number -> history entries (the popup's cache)
};

// ---- Messages (an aria-live region) ----
function say(text, error = false) {
  const box = $('messages');
  box.textContent = text;
  box.classList.toggle('error', error);
}

function failure(prefix, error) {
  if (error instanceof ApiError) say(`${prefix}: ${reasonText(error.code, error.message)}`, true);
  else say(`${prefix}: ${error.message || error}`, true);
}

// ---- Pixels <-> map latLng ----
/** The map latLng of image pixel (x, y). */
function toLatLng(x, y) { return state.map.unproject(window.L.point(x, y), state.zoom); }
/** The image pixel of a map latLng. */
function toPixel(latLng) { const p = state.map.project(latLng, state.zoom); return { x: p.x, y: p.y }; }

// ---- Drawing list ----
async function loadDrawings() {
  const list = await json('/drawings');
  state.drawings = list.drawings;
  const ul = $('drawings');
  ul.replaceChildren();
  if (state.drawings.length === 0) {
    const li = document.createElement('li');
    li.textContent = 'No drawings in this store yet (planmark drawing add).';
    ul.append(li);
  }
  for (const d of state.drawings) {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.name = d.name;
    const title = document.createElement('span');
    title.textContent = d.name;
    const meta = document.createElement('span');
    meta.className = 'meta';
    meta.textContent = `${d.width} × ${d.height} px`;
    const counts = document.createElement('span');
    counts.className = 'meta counts';
    counts.textContent = `${d.markers} markers`;
    button.append(title, meta, counts);
    button.addEventListener('click', () => { location.hash = '#/' + encodeURIComponent(d.name); });
    li.append(button);
    ul.append(li);
    refreshCounts(d.name);
  }
  markCurrentDrawing();
}

/** Open and resolved counts of a drawing from /summary (open: open, in progress, ready; resolved: closed, void). */
async function refreshCounts(name) {
  try {
    const summary = await json(drawingPath(name) + '/summary');
    const s = summary.byStatus;
    const open = (s.open || 0) + (s['in-progress'] || 0) + (s.ready || 0);
    const resolved = (s.closed || 0) + (s.void || 0);
    const button = [...$('drawings').querySelectorAll('button')].find((b) => b.dataset.name === name);
    if (button) button.querySelector('.counts').textContent = `${open} open · ${resolved} resolved`;
  } catch (error) { /* the list still works without counts */ }
}

function markCurrentDrawing() {
  for (const button of $('drawings').querySelectorAll('button')) {
    button.setAttribute('aria-current', String(state.drawing !== null && button.dataset.name === state.drawing.name));
  }
}

// ---- Legend and filter ----
function buildLegend() {
  const box = $('filters');
  for (const status of STATUSES) {
    const label = document.createElement('label');
    label.className = 'check';
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = true;
    input.dataset.status = status;
    input.addEventListener('change', () => {
      if (input.checked) state.visible.add(status); else state.visible.delete(status);
      applyFilter();
    });
    const swatch = document.createElement('span');
    swatch.className = `swatch swatch-${status}`;
    const text = document.createElement('span');
    text.textContent = STATUS_NAMES[status];
    const count = document.createElement('span');
    count.className = 'muted count';
    count.dataset.status = status;
    label.append(input, swatch, text, count);
    box.append(label);
  }
}

function updateLegend() {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  for (const { data } of state.markers.values()) counts[data.status] = (counts[data.status] || 0) + 1;
  for (const span of $('filters').querySelectorAll('.count')) span.textContent = `(${counts[span.dataset.status]})`;
  $('marker-total').textContent = `(${state.markers.size})`;
  if (state.drawing) {
    const open = counts.open + counts['in-progress'] + counts.ready;
    const button = [...$('drawings').querySelectorAll('button')].find((b) => b.dataset.name === state.drawing.name);
    if (button) button.querySelector('.counts').textContent = `${open} open · ${counts.closed + counts.void} resolved`;
  }
}

function applyFilter() {
  for (const { data, layer } of state.markers.values()) {
    const show = state.visible.has(data.status);
    if (show && !state.markerLayer.hasLayer(layer)) state.markerLayer.addLayer(layer);
    if (!show && state.markerLayer.hasLayer(layer)) state.markerLayer.removeLayer(layer);
  }
}

// ---- Markers ----
function pinIcon(data) {
  const width = 24 + 7 * Math.max(0, String(data.number).length - 2);
  return window.L.divIcon({
    className: `pin pin-${data.status}${data.overdue ? ' pin-overdue' : ''}`,
    html: String(data.number), iconSize: [width, 24], iconAnchor: [width / 2, 12], popupAnchor: [0, -12],
  });
}

function labelPin(entry) {
  const el = entry.layer.getElement();
  if (!el) return;
  el.dataset.number = String(entry.data.number);
  el.dataset.status = entry.data.status;
  el.setAttribute('role', 'button');
  el.setAttribute('aria-label', `Marker ${entry.data.number}, ${STATUS_NAMES[entry.data.status]}`);
}

function addMarker(data) {
  const L = window.L;
  const layer = L.marker(toLatLng(data.x, data.y), {
    icon: pinIcon(data), draggable: true, keyboard: true, riseOnHover: true, title: `Marker ${data.number}`,
  });
  const entry = { data, layer };
  layer.on('add', () => {
    labelPin(entry);
    // Enter or Space on a focused pin opens it, and the focus moves into its popup.
    entry.layer.getElement()?.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      entry.layer.openPopup();
      entry.layer.getPopup()?.getElement()?.querySelector('button, textarea, input')?.focus();
    });
  });
  layer.bindPopup(() => popupContent(entry.data.number), { minWidth: 240, maxWidth: 340, maxHeight: 320, autoPanPadding: [30, 30] });
  layer.on('popupopen', () => {
    state.openNumber = entry.data.number;
    history.replaceState(null, '', `#/${encodeURIComponent(state.drawing.name)}/${entry.data.number}`);
  });
  layer.on('popupclose', () => {
    if (state.openNumber === entry.data.number) state.openNumber = null;
    if (state.drawing) history.replaceState(null, '', `#/${encodeURIComponent(state.drawing.name)}`);
  });
  let from = null;
  layer.on('dragstart', () => { from = layer.getLatLng(); state.dragging = entry.data.number; layer.closePopup(); });
  layer.on('dragend', () => { state.draggedAt = performance.now(); moveMarker(entry, from); });
  state.markers.set(data.number, entry);
  if (state.visible.has(data.status)) state.markerLayer.addLayer(layer);
  return entry;
}

/**
 * Puts a marker object of the service (pixel x, y) on the map, new or changed. A marker whose position is not a
 * pair of finite numbers (a store written before positions were checked can hold one) has no place on the sheet:
 * it gets no pin, and every other marker is shown as usual.
 */
function upsert(data) {
  if (!Number.isFinite(data.x) || !Number.isFinite(data.y)) { removeMarker(data.number); return null; }
  const entry = state.markers.get(data.number);
  if (!entry) return addMarker(data);
  const before = entry.data;
  entry.data = data;
  if (state.dragging !== data.number && (before.x !== data.x || before.y !== data.y)) entry.layer.setLatLng(toLatLng(data.x, data.y));
  if (before.status !== data.status || before.overdue !== data.overdue) {
    entry.layer.setIcon(pinIcon(data));
    labelPin(entry);
  }
  if (JSON.stringify(before) !== JSON.stringify(data)) {
    state.history.delete(data.number);
    if (state.openNumber === data.number) entry.layer.getPopup()?.update();
  }
  return entry;
}

function removeMarker(number) {
  const entry = state.markers.get(number);
  if (!entry) return;
  entry.layer.closePopup();
  state.markerLayer.removeLayer(entry.layer);
  state.markers.delete(number);
  state.history.delete(number);
}

/** Replaces the markers with a GeoJSON FeatureCollection of the service. */
function applyMarkers(collection) {
  const seen = new Set();
  for (const feature of collection.features) {
    seen.add(feature.properties.number);
    upsert(feature.properties);
  }
  for (const number of [...state.markers.keys()]) if (!seen.has(number)) removeMarker(number);
  applyFilter();
  updateLegend();
}

/** GET .../markers with If-None-Match: 304 when nothing changed (no body, nothing to do). */
async function loadMarkers() {
  if (!state.drawing) return;
  const generation = state.generation;
  const headers = state.etag ? { 'If-None-Match': state.etag } : {};
  const response = await request(drawingPath(state.drawing.name) + '/markers', { headers });
  if (generation !== state.generation || response.status === 304) return;
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    throw new ApiError(response.status, data?.error?.code, data?.error?.message ?? response.statusText);
  }
  state.etag = response.headers.get('ETag');
  const text = await response.text();
  if (text === state.lastText) return;
  state.lastText = text;
  applyMarkers(JSON.parse(text));
}

function startPolling() {
  stopPolling();
  const generation = state.generation;
  const tick = async () => {
    if (generation !== state.generation) return;
    try { if (!document.hidden) await loadMarkers(); } catch (error) { /* the next poll tries again */ }
    if (generation === state.generation) state.poll = setTimeout(tick, POLL_MS);
  };
  state.poll = setTimeout(tick, POLL_MS);
}

function stopPolling() { if (state.poll) clearTimeout(state.poll); state.poll = null; }

/** After a change the page made: its answer is shown at once; the next poll brings everything else. */
function changed(data) {
  upsert(data);
  applyFilter();
  updateLegend();
  state.lastText = null;
}

async function placeMarker(x, y) {
  const note = $('new-note').value.trim();
  const body = { x, y };
  if (note) body.note = note;
  const response = await request(drawingPath(state.drawing.name) + '/markers', { method: 'POST', body });
  const data = await response.json().catch(() => null);
  if (response.status === 201 || response.status === 200) {
    $('new-note').value = '';
    changed(data);
    const rooms = data.rooms && data.rooms.length ? ` in room ${data.rooms.join(', ')}` : '';
    say(`Marker ${data.number} placed at (${Math.round(x)}, ${Math.round(y)})${rooms}.`);
  } else {
    const code = data?.error?.code;
    say(`Not placed: ${reasonText(code, data?.error?.message ?? response.statusText)}. Nothing was stored.`, true);
  }
}

async function moveMarker(entry, from) {
  const number = entry.data.number;
  const { x, y } = toPixel(entry.layer.getLatLng());
  try {
    const data = await json(`${drawingPath(state.drawing.name)}/markers/${number}`, { method: 'PATCH', body: { x, y } });
    state.dragging = null;
    changed(data);
    say(`Marker ${number} moved to (${Math.round(x)}, ${Math.round(y)}).`);
  } catch (error) {
    state.dragging = null;
    entry.layer.setLatLng(from);
    failure(`Marker ${number} not moved, it is back where it was`, error);
  }
}

async function patchMarker(number, body, done) {
  try {
    const data = await json(`${drawingPath(state.drawing.name)}/markers/${number}`, { method: 'PATCH', body });
    changed(data);
    say(done(data));
  } catch (error) {
    failure(`Marker ${number} not changed`, error);
  }
}

async function deleteMarker(number) {
  try {
    await json(`${drawingPath(state.drawing.name)}/markers/${number}`, { method: 'DELETE' });
    removeMarker(number);
    updateLegend();
    state.lastText = null;
    say(`Marker ${number} deleted.`);
  } catch (error) {
    failure(`Marker ${number} not deleted`, error);
  }
}

// ---- The popup ----
function element(tag, text, className) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  if (className) el.className = className;
  return el;
}

function button(text, onClick, className) {
  const b = element('button', text, className);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

function popupContent(number) {
  const entry = state.markers.get(number);
  const box = element('div', undefined, 'popup');
  if (!entry) { box.append(element('p', `Marker ${number} is gone.`)); return box; }
  const m = entry.data;
  box.dataset.number = String(number);
  box.append(element('h3', `Marker ${m.number}: ${STATUS_NAMES[m.status]}${m.overdue ? ' (overdue)' : ''}`));
  const dl = element('dl');
  const row = (name, value) => { if (value !== null && value !== undefined && value !== '') dl.append(element('dt', name), element('dd', String(value))); };
  row('Rooms', m.rooms && m.rooms.length ? m.rooms.join(', ') : 'none');
  row('Note', m.note);
  row('Author', m.author);
  row('Category', m.category);
  row('Priority', m.priority);
  row('Assignee', m.assignee);
  row('Due', m.due);
  row('Position', `${Math.round(m.x)}, ${Math.round(m.y)} px`);
  row('Created', m.createdAt);
  box.append(dl);

  const noteId = `note-${number}`;
  const noteLabel = element('label', 'Note');
  noteLabel.htmlFor = noteId;
  const note = element('textarea');
  note.id = noteId;
  note.rows = 2;
  note.value = m.note ?? '';
  const saveNote = button('Save note', () => {
    const text = note.value.trim();
    patchMarker(number, { note: text === '' ? null : text }, () => `Marker ${number}: note saved.`);
  }, 'save-note');
  box.append(noteLabel, note, element('div', undefined, 'buttons'));
  box.lastChild.append(saveNote);

  const reasonId = `reason-${number}`;
  const reasonLabel = element('label', m.status === 'ready' ? 'Reason (needed to reject)' : 'Reason (optional)');
  reasonLabel.htmlFor = reasonId;
  const reason = element('input');
  reason.type = 'text';
  reason.id = reasonId;
  const actions = element('div', undefined, 'buttons status-actions');
  for (const to of TRANSITIONS[m.status] || []) {
    const b = button(actionLabel(m.status, to), () => {
      const body = { status: to };
      if (reason.value.trim()) body.reason = reason.value.trim();
      patchMarker(number, body, () => `Marker ${number} is now ${STATUS_NAMES[to].toLowerCase()}.`);
    }, `status-${to}`);
    b.dataset.to = to;
    actions.append(b);
  }
  box.append(reasonLabel, reason, actions);

  const danger = element('div', undefined, 'buttons');
  const del = button('Delete marker', () => {
    if (del.dataset.confirm === 'yes') { deleteMarker(number); return; }
    del.dataset.confirm = 'yes';
    del.textContent = `Really delete marker ${number}?`;
    say(`Press the button again to delete marker ${number}.`);
  }, 'delete');
  danger.append(del);
  box.append(danger);

  box.append(element('h4', 'History'));
  const list = element('ol', undefined, 'history');
  box.append(list);
  const fill = (entries) => {
    list.replaceChildren();
    const show = (v) => (v === null || v === undefined ? '–' : typeof v === 'object' ? JSON.stringify(v) : String(v));
    for (const h of entries) {
      // A creation lists what was set; a change each field's old and new value.
      const changes = h.action === 'created'
        ? Object.entries(h.new || {}).filter(([k, v]) => v !== null && k !== 'uuid' && k !== 'rooms').map(([k, v]) => `${k} ${show(v)}`)
        : Object.keys(h.new || {}).map((k) => `${k} ${show(h.old?.[k])} → ${show(h.new[k])}`);
      const when = h.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
      list.append(element('li', `${when} ${h.action}${h.author ? ' by ' + h.author : ''}${changes.length ? ': ' + changes.join(', ') : ''}`));
    }
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

function focusMarker(number) {
  const entry = state.markers.get(number);
  if (!entry) { say(`Drawing "${state.drawing.name}" has no marker ${number}.`, true); return; }
  if (!state.visible.has(entry.data.status)) {
    state.visible.add(entry.data.status);
    const box = $('filters').querySelector(`input[data-status="${entry.data.status}"]`);
    if (box) box.checked = true;
    applyFilter();
  }
  state.map.setView(entry.layer.getLatLng(), Math.min(state.map.getMaxZoom(), Math.floor(state.zoom) - 1), { animate: false });
  entry.layer.openPopup();
}

// ---- Opening a drawing ----
async function openDrawing(name, number) {
  if (state.drawing && state.drawing.name === name) {
    if (number) focusMarker(number);
    return;
  }
  const generation = ++state.generation;
  stopPolling();
  delete document.body.dataset.ready;
  let drawing;
  try {
    drawing = await json(drawingPath(name));
  } catch (error) {
    failure(`Cannot open drawing "${name}"`, error);
    return;
  }
  if (generation !== state.generation) return;
  const L = window.L;
  if (state.map) state.map.remove();
  state.markers = new Map();
  state.history = new Map();
  state.etag = null;
  state.lastText = null;
  state.openNumber = null;
  state.drawing = drawing;
  state.offset = drawing.crs === 'flutter' ? 8 : 0;
  state.zoom = drawing.zoom + state.offset;
  $('drawing-title').textContent = `${drawing.name} (${drawing.width} × ${drawing.height} px, zoom ${drawing.zoom}, ${drawing.crs})`;
  markCurrentDrawing();

  const fit = state.zoom - Math.log2(Math.max(drawing.width, drawing.height) / 256);
  const map = L.map('map', {
    crs: L.CRS.Simple, minZoom: Math.floor(fit) - 1, maxZoom: Math.floor(state.zoom) + 2, attributionControl: false,
    zoomSnap: 0.25, zoomDelta: 1, keyboard: true,
  });
  state.map = map;
  const bounds = L.latLngBounds(toLatLng(0, drawing.height), toLatLng(drawing.width, 0));
  map.fitBounds(bounds);
  map.setMaxBounds(bounds.pad(1));

  if (drawing.tiles) {
    drawingTileLayer(drawing.tiles, bounds, state.offset, map).addTo(map);
  } else {
    // A server without tiles: the whole image as one overlay.
    blobURL(drawingPath(name) + '/image').then((url) => {
      if (generation === state.generation) L.imageOverlay(url, bounds, { className: 'sheet-image' }).addTo(map).bringToBack();
    }, (error) => failure('The drawing image did not load', error));
  }

  try {
    const regions = await json(drawingPath(name) + '/regions');
    if (generation !== state.generation) return;
    const allowed = { type: 'FeatureCollection', features: regions.features.filter((f) => f.properties?.kind === 'allowed') };
    const rooms = { type: 'FeatureCollection', features: regions.features.filter((f) => f.properties?.kind !== 'allowed') };
    L.geoJSON(allowed, {
      coordsToLatLng: (c) => toLatLng(c[0], c[1]), interactive: false,
      style: () => ({ color: '#059669', weight: 2, dashArray: '8 5', fill: false }),
    }).addTo(map);
    L.geoJSON(rooms, {
      coordsToLatLng: (c) => toLatLng(c[0], c[1]),
      style: () => ({ color: '#2563eb', weight: 1.5, fillColor: '#2563eb', fillOpacity: 0.05 }),
      onEachFeature: (feature, layer) => {
        // A text node, not HTML: Leaflet would put a string tooltip in as markup.
        const label = element('span', feature.properties?.name ? `${feature.id} ${feature.properties.name}` : String(feature.id));
        layer.bindTooltip(label, { sticky: true, className: 'room-label' });
      },
    }).addTo(map);
  } catch (error) {
    failure('The rooms did not load', error);
  }

  state.markerLayer = L.layerGroup().addTo(map);
  map.on('popupopen', () => { state.popupOpen = true; });
  map.on('popupclose', () => { state.popupOpen = false; });
  // A click that closes a popup only closes it.
  map.on('preclick', () => { state.skipClick = !!state.popupOpen; });
  map.on('click', (event) => {
    if (state.skipClick) { state.skipClick = false; return; }
    // The click that ends a drag (the mouse released off the pin) places nothing.
    if (performance.now() - (state.draggedAt ?? -1e9) < 300) return;
    if (!$('place-mode').checked) return;
    const { x, y } = toPixel(event.latlng);
    placeMarker(x, y);
  });
  try {
    await loadMarkers();
  } catch (error) {
    failure('The markers did not load', error);
  }
  if (generation !== state.generation) return;
  startPolling();
  say(`Drawing "${drawing.name}": ${state.markers.size} markers. Click the sheet to place one.`);
  document.body.dataset.drawing = drawing.name;
  document.body.dataset.ready = 'true';
  if (number) focusMarker(number);
}

// ---- Deep links: #/NAME or #/NAME/7 ----
function route() {
  const match = /^#\/([^/]+)(?:\/(\d+))?$/.exec(location.hash);
  if (match) {
    openDrawing(decodeURIComponent(match[1]), match[2] ? Number(match[2]) : null);
  } else if (state.drawings.length > 0 && !state.drawing) {
    history.replaceState(null, '', '#/' + encodeURIComponent(state.drawings[0].name));
    openDrawing(state.drawings[0].name, null);
  }
}

// ---- Test and script hooks ----
window.planmarkPage = {
  /** The map container point (CSS pixels) of image pixel (x, y). */
  containerPoint(x, y) { const p = state.map.latLngToContainerPoint(toLatLng(x, y)); return [p.x, p.y]; },
  /** Where the page shows marker `number`, in image pixels (null when it has none). */
  markerPixel(number) { const e = state.markers.get(number); return e ? toPixel(e.layer.getLatLng()) : null; },
  /** Image pixels per CSS pixel at the current map zoom. */
  imagePixelsPerScreenPixel() { return Math.pow(2, state.zoom - state.map.getZoom()); },
  get map() { return state.map; },
};

async function start() {
  if (typeof window.L === 'undefined') {
    const notice = element('p', "Leaflet's files are not served, so the sheet cannot be shown. Install Debian's libjs-leaflet "
      + '(apt-get install libjs-leaflet) or start the server with --leaflet-dir pointing at a folder with leaflet.js and leaflet.css.', 'notice');
    $('map').replaceChildren(notice);
    say('Leaflet is missing on the server.', true);
    return;
  }
  buildLegend();
  $('token-button').hidden = !currentToken();
  $('token-button').addEventListener('click', () => askToken('Give another token').then(() => location.reload()));
  $('place-center').addEventListener('click', () => {
    if (!state.map) return;
    const { x, y } = toPixel(state.map.getCenter());
    placeMarker(x, y);
  });
  try {
    await loadDrawings();
  } catch (error) {
    failure('Cannot list the drawings', error);
    return;
  }
  window.addEventListener('hashchange', route);
  route();
}

start();
