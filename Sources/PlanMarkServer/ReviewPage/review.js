// The review page put together: it makes the state and hands it to the parts (map, pins, popup, legend,
// live updates, edits), opens the drawing the address names, and follows the address (#/NAME, #/NAME/7).
// app.js loads this module once it has seen Leaflet loaded.
import { drawingPath, json } from './api.js';
import { markerZoom } from './coordinates.js';
import { byId } from './dom.js';
import { loadDrawings, markCurrentDrawing } from './drawings.js';
import { createEdits } from './edits.js';
import { showAddress } from './address.js';
import { setUpLayout } from './layout.js';
import { buildLegend, showStatus, showStatuses, updateLegend } from './legend.js';
import { emptyConditions, filterQuery, parseFilterQuery, passes } from './list-filter.js';
import { loadMarkers, startLive, stopLive } from './live.js';
import { centrePixel, createMap, toPixel } from './map.js';
import { createPins } from './markers.js';
import { createKeepOffline, setUpOffline } from './offline.js';
import { placeControl } from './place-control.js';
import { setUpDownloads } from './downloads.js';
import { isSpread, pinGroups, showPin } from './pin-groups.js';
import { L } from './leaflet-global.js';
import { failure, say } from './messages.js';
import { may } from './permissions.js';
import { popupContent } from './popup.js';
import { createPunchList } from './punch-list.js';
import { showRegions } from './regions.js';
import { drawingHash, parseHash } from './routes.js';
import { loadMe, showAccess } from './signed-in.js';
import { onTokenGiven, setUpTokenButton } from './signin.js';
import { createState, openDrawingState } from './state.js';
import { createSync } from './sync.js';
import { followTilesProgress } from './tiles-status.js';
import { createWaitingPins } from './waiting.js';

/**
 * Starts the page: legend, token button, who is signed in (GET /me, after the token dialog when the server asks),
 * drawing list, then the drawing the address names (or the first).
 */
export async function start() {
  const state = createState();
  // The drawing the address names is asked for at once, beside who is signed in and the list of drawings: reading it is
  // what starts a big sheet's first tiles on the server (docs/tiles.md), so the sheet shows a round trip or two sooner.
  const named = parseHash(location.hash);
  let early = named ? { name: named.name, answer: json(drawingPath(named.name)) } : null;
  early?.answer.catch(() => {});  // a failure is the drawing's opening's to report: it reads the drawing again
  const layout = setUpLayout(state);
  /** The legend's counts and the punch list, after the markers changed. */
  const refresh = () => {
    updateLegend(state);
    list.render();
  };
  // The parts call each other through these: the pins build popups whose buttons make edits, whose
  // answers change the pins.
  // Every write goes through the outbox: at once with a network, kept and sent later without one.
  let synced = false; // the service stored a comment or a photo (its answer is not the marker) since the markers were read
  const sync = createSync({
    answered(entry, outcome, answer) {
      // Answered: no longer shown on its marker as waiting (markers read from now on are the service's word on it).
      state.waiting = state.waiting.filter((waitingEntry) => waitingEntry.id !== entry.id);
      if (entry.kind === 'comment' || entry.kind === 'photo') synced = true;
      edits.answered(entry, outcome, answer);
    },
    waitingChanged(entries) {
      state.waiting = entries;
      waiting.show();
      // A comment or a photo changes its marker's version too: the markers are read again (the event stream may still be
      // reconnecting after the network came back), so the next edit is made on the version stored.
      if (synced && state.drawing) {
        synced = false;
        loadMarkers(state, applyMarkers).catch(() => {});
      }
    },
  });
  const edits = createEdits(state, sync, {
    changed(data) {
      pins.upsert(data);
      pins.applyFilter();
      refresh();
      state.lastText = null;
    },
    removed(number) {
      pins.remove(number);
      refresh();
      state.lastText = null;
    },
  });
  const waiting = createWaitingPins(state, sync);
  const keepOffline = createKeepOffline(state);
  const pins = createPins(state, {
    popupContent: (number) => popupContent(state, number, edits),
    dragEnded: (entry, from) => edits.move(entry, from),
  });
  const list = createPunchList(state, {
    changed() {
      pins.applyFilter();
      showAddress(state);
    },
    choose(number) {
      layout.close();
      focusMarker(number);
    },
  });
  const applyMarkers = (collection) => {
    // With the changes made here that wait to be sent shown on them.
    pins.apply(waiting.withWaitingChanges(collection));
    refresh();
  };
  /** One change of the open drawing's event stream (live.js). */
  const applyChange = (change) => {
    if (!state.drawing) return;
    state.lastText = null;
    if (change.kind === 'upsert' && change.marker) {
      pins.upsert(change.marker);
      pins.applyFilter();
      refresh();
    } else if (change.kind === 'remove') {
      pins.remove(change.number);
      refresh();
    } else if (change.kind === 'drawing-removed') {
      stopLive(state);
      say(`Drawing "${state.drawing.name}" was removed.`, true);
    } else if (change.kind === 'drawing-renamed') {
      // The drawing has another name now: open it under that name (the address follows).
      history.replaceState(null, '', drawingHash(change.drawing, null, filterQuery(state.visible, state.conditions)));
      openDrawing(change.drawing, state.openNumber, true);
      loadDrawings(state).catch(() => {});
    } else if (change.kind === 'drawing-regions' || change.kind === 'drawing-revised' || change.kind === 'drawing-calibrated') {
      // Its rooms, sheet or scale changed, and with them its markers' rooms: open it again.
      openDrawing(state.drawing.name, state.openNumber, true);
    }
  };

  /** Opens marker `number`'s popup, zoomed to it; when the filter hid it, its status is shown and the list's conditions cleared. */
  function focusMarker(number) {
    const entry = state.markers.get(number);
    if (!entry) { say(`Drawing "${state.drawing.name}" has no marker ${number}.`, true); return; }
    if (!passes(entry.data, state.visible, state.conditions)) {
      showStatus(state, entry.data.status);
      if (!passes(entry.data, state.visible, state.conditions)) {
        state.conditions = emptyConditions();
        list.showConditions();
        say(`The list's filter hid marker ${number}; it is cleared.`);
      }
      pins.applyFilter();
      list.render();
    }
    state.map.setView(entry.layer.getLatLng(), markerZoom(state.drawing, state.map.getMaxZoom()), { animate: false });
    // A pin in a group of overlapping pins is shown first (pin-groups.js).
    showPin(state.markerLayer, entry.layer, () => entry.layer.openPopup());
  }

  /** The marker number of a pin on the sheet, for a pin group's label. O(markers). */
  function numberOf(pin) {
    for (const [number, entry] of state.markers) if (entry.layer === pin) return number;
    return null;
  }

  /** The map's clicks: a click places a marker, unless it closes a popup or ends a drag, or placing is off. */
  function listenToClicks(map) {
    map.on('popupopen', () => { state.popupOpen = true; });
    map.on('popupclose', () => { state.popupOpen = false; });
    // A click that closes a popup, or folds a group of pins spread out, only does that.
    map.on('preclick', () => { state.skipClick = state.popupOpen || isSpread(state.markerLayer); });
    map.on('click', (event) => {
      if (state.skipClick) { state.skipClick = false; return; }
      // The click that ends a drag (the mouse released off the pin) places nothing.
      if (performance.now() - state.draggedAt < 300) return;
      if (!state.placing || !may(state.access, 'place-marker')) return;
      const { x, y } = toPixel(state, event.latlng);
      edits.place(x, y);
    });
  }

  /**
   * Opens drawing `name` (at marker `number` when given); a drawing already open only goes to the marker, unless
   * `again` (it changed: read it anew).
   */
  async function openDrawing(name, number, again = false) {
    if (!again && state.drawing && state.drawing.name === name) {
      if (number) focusMarker(number);
      return;
    }
    const generation = ++state.generation;
    stopLive(state);
    delete document.body.dataset.ready;
    let drawing;
    try {
      const first = early && early.name === name && !again ? early.answer : null;
      early = null;
      drawing = await (first ? first.catch(() => json(drawingPath(name))) : json(drawingPath(name)));
    } catch (error) {
      failure(`Cannot open drawing "${name}"`, error);
      return;
    }
    if (generation !== state.generation) return;
    if (state.map) state.map.remove();
    openDrawingState(state, drawing);
    followTilesProgress(state, drawing);
    showAccess(state);
    byId('drawing-title').textContent = `${drawing.name} (${drawing.width} × ${drawing.height} px, zoom ${drawing.zoom}, ${drawing.crs})`;
    markCurrentDrawing(state);
    waiting.reset();
    const map = createMap(state, 'map', (error) => failure('The drawing image did not load', error), () => keepOffline.describe());
    state.map = map;

    try {
      const regions = await json(drawingPath(name) + '/regions');
      if (generation !== state.generation) return;
      showRegions(state, regions);
    } catch (error) {
      failure('The rooms did not load', error);
    }

    state.placing = false;
    placeControl({ changed: (on) => { state.placing = on; } }).addTo(map);
    showAccess(state);
    state.markerLayer = pinGroups(map, { numberOf }).addTo(map);
    state.waitingLayer = L.layerGroup().addTo(map);
    waiting.show();
    listenToClicks(map);
    // The markers, then their changes as they happen (the event stream, or polling while it is down).
    await startLive(state, { apply: applyMarkers, change: applyChange });
    if (generation !== state.generation) return;
    if (!state.lastText) {
      try { await loadMarkers(state, applyMarkers); } catch (error) { failure('The markers did not load', error); }
      if (generation !== state.generation) return;
    }
    say(`Drawing "${drawing.name}": ${state.markers.size} markers.${may(state.access, 'place-marker') ? ' Press Place, then click the sheet to place one.' : ''}`);
    document.body.dataset.drawing = drawing.name;
    document.body.dataset.ready = 'true';
    keepOffline.describe();
    if (number) focusMarker(number);
  }

  /** Opens what the address names; with no drawing named, the first drawing. */
  function route() {
    const target = parseHash(location.hash);
    if (target) {
      applyFilterQuery(target.query);
      openDrawing(target.name, target.number);
    } else if (state.drawings.length > 0 && !state.drawing) {
      history.replaceState(null, '', drawingHash(state.drawings[0].name));
      openDrawing(state.drawings[0].name, null);
    }
  }

  /** Makes the filter the one `query` names (an address's), in the legend, the list and the pins. */
  function applyFilterQuery(query) {
    const { visible, conditions } = parseFilterQuery(query);
    state.visible.clear();
    for (const status of visible) state.visible.add(status);
    state.conditions = conditions;
    showStatuses(state);
    list.showConditions();
    if (state.markerLayer) pins.applyFilter();
  }

  buildLegend(state, () => {
    pins.applyFilter();
    list.render();
    showAddress(state);
    list.announce();
  });
  setUpTokenButton();
  setUpDownloads(state);
  byId('place-center').addEventListener('click', () => {
    if (!state.map || !may(state.access, 'place-marker')) return;
    const { x, y } = centrePixel(state);
    edits.place(x, y);
  });
  // Once the page's files (and, the first time, what it read before the worker took it) are kept: the sheet's size.
  setUpOffline().then(() => keepOffline.describe());
  sync.flush();
  // Who is signed in and the drawings, read side by side (a 401 asks for the token once for both).
  const listed = loadDrawings(state).then(() => null, (error) => error);
  await loadMe(state);
  showAccess(state);
  // Another token given later (one was refused) may be someone else's: read who it is again.
  onTokenGiven(async () => {
    await loadMe(state);
    showAccess(state);
    pins.accessChanged();
  });
  const listError = await listed;
  if (listError) {
    failure('Cannot list the drawings', listError);
    return;
  }
  window.addEventListener('hashchange', route);
  // A page left for another is kept by the browser for Back (the back/forward cache): its event stream would hold one of
  // the few connections a browser opens to a server, and enough kept pages stall every new one. The stream stops when
  // the page is left, and the drawing is read anew when it is shown again from that cache.
  window.addEventListener('pagehide', () => stopLive(state));
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && state.drawing) openDrawing(state.drawing.name, state.openNumber, true);
  });
  route();
}
