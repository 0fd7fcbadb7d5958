// The review page's state: one object, made by createState() when the page starts and handed to the
// modules that need it (nothing global). Every field is declared here and the object is sealed, so a
// field that is not declared cannot be set: in a module (strict code) that is a TypeError.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/state.test.mjs runs it under node).
import { STATUSES } from './workflow.js';
import { imageZoom } from './coordinates.js';
import { emptyConditions } from './list-filter.js';
import { accessTo } from './permissions.js';

/** A fresh state: no drawing open, every status shown. */
export function createState() {
  return Object.seal({
    drawings: [],              // the drawing list (GET /drawings)
    drawing: null,             // the open drawing's JSON
    me: null,                  // who is signed in (GET /me), null until known
    access: null,              // what they may do on the open drawing (permissions.js accessTo), null when unknown
    imageZoom: 0,              // the map zoom at which map pixels are image pixels (coordinates.js)
    map: null,                 // the open drawing's Leaflet map
    markerLayer: null,         // the Leaflet layer group holding the pins
    waitingLayer: null,        // the Leaflet layer group holding the new markers waiting to sync (waiting.js)
    waiting: [],               // the writes waiting in the outbox, in order (sync.js)
    markers: new Map(),        // number -> { data, layer }
    history: new Map(),        // number -> history entries (the popup's cache)
    visible: new Set(STATUSES), // the statuses the filter shows
    conditions: emptyConditions(), // the punch list's other conditions (list-filter.js), which the pins follow too
    panelOpen: false,          // whether the panel is open as a drawer (narrow screens: layout.js)
    etag: null,                // the markers' ETag last read (If-None-Match of the next poll)
    lastText: null,            // the markers' JSON text last applied
    poll: null,                // the timer of the next poll (while the event stream is down)
    live: null,                // the AbortController of the open drawing's event stream (live.js)
    comments: new Map(),       // number -> comments (the popup's cache)
    conflicts: new Map(),      // number -> { body, done }: an edit the service refused with 412, shown in the popup (edits.js)
    generation: 0,             // bumps when another drawing opens, so late answers for the old one are dropped
    openNumber: null,          // the marker whose popup is open
    popupOpen: false,          // whether any popup is open
    skipClick: false,          // the next click on the map only closes a popup
    placing: false,            // a click or tap on the sheet places a marker (the map's Place button: place-control.js)
    dragging: null,            // the marker being dragged
    draggedAt: -Infinity,      // when the last drag ended (performance.now())
  });
}

/**
 * Makes `drawing` the open drawing: its zoom, what the signed-in user may do in its project, and no markers, history, comments,
 * ETag or open popup of the drawing before.
 */
export function openDrawingState(state, drawing) {
  state.drawing = drawing;
  state.access = accessTo(state.me, drawing.project);
  state.imageZoom = imageZoom(drawing);
  state.markers = new Map();
  state.history = new Map();
  state.comments = new Map();
  state.conflicts = new Map();
  state.etag = null;
  state.lastText = null;
  state.openNumber = null;
  state.popupOpen = false;
  state.skipClick = false;
  state.dragging = null;
}
