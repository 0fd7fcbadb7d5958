// What waits in the outbox, shown on the sheet: a marker placed without a network is a pin marked "+" (it has no
// number until the service gives it one), whose popup edits its note before it is sent; a marker edited, moved or
// deleted without a network shows that change until it is sent. Each new pin's element carries data-uuid.
import { L } from './leaflet-global.js';
import { drawingPath } from './api.js';
import { button, element } from './dom.js';
import { toLatLng } from './map.js';
import { say } from './messages.js';
import { shownChange } from './outbox.js';

/** The pins of markers placed here and waiting to sync, on `state.waitingLayer`; `sync` is the page's outbox. */
export function createWaitingPins(state, sync) {
  /** uuid -> Leaflet marker. */
  const pins = new Map();

  /** The popup of a waiting new marker: where it is, and its note to change before it is sent. */
  function popup(entry) {
    const box = element('div', undefined, 'popup waiting-popup');
    box.dataset.uuid = entry.uuid;
    box.append(element('h3', 'New marker, waiting to sync'),
      element('p', `Placed on this device at (${Math.round(entry.body.x)}, ${Math.round(entry.body.y)}); it gets its number when it reaches the service.`));
    const id = `waiting-note-${entry.uuid}`;
    const label = element('label', 'Note');
    label.htmlFor = id;
    const note = element('textarea');
    note.id = id;
    note.rows = 2;
    note.value = entry.body.note ?? '';
    const save = button('Save note', async () => {
      const text = note.value.trim();
      const changed = { ...entry, body: { ...entry.body } };
      if (text) changed.body.note = text;
      else delete changed.body.note;
      if (await sync.update(changed)) {
        entry.body = changed.body;
        say('The note is kept: it goes with the new marker when it syncs.');
      } else {
        say('That marker has synced meanwhile: change its note in its own popup.', true);
      }
    }, 'save-waiting-note');
    const buttons = element('div', undefined, 'buttons');
    buttons.append(save);
    box.append(label, note, buttons);
    return box;
  }

  /** A pin for a waiting new marker. */
  function pin(entry) {
    const layer = L.marker(toLatLng(state, entry.body.x, entry.body.y), {
      icon: L.divIcon({ className: 'pin pin-waiting', html: '+', iconSize: [24, 24], iconAnchor: [12, 12], popupAnchor: [0, -12] }),
      keyboard: true, title: 'New marker, waiting to sync',
    });
    layer.on('add', () => {
      const el = layer.getElement();
      el.dataset.uuid = entry.uuid;
      el.setAttribute('role', 'button');
      el.setAttribute('aria-label', `New marker waiting to sync, at ${Math.round(entry.body.x)}, ${Math.round(entry.body.y)}`);
    });
    layer.bindPopup(() => popup(entry), { minWidth: 220, maxWidth: 320 });
    return layer;
  }

  /**
   * Shows the new markers of the open drawing that wait (`state.waiting`, the outbox's entries): new ones added, sent
   * ones taken away, the others left as they are (an open popup stays open).
   * - Complexity: O(n) for n writes waiting.
   */
  function show() {
    if (!state.drawing || !state.waitingLayer) return;
    const path = drawingPath(state.drawing.name) + '/markers';
    const now = new Map(state.waiting.filter((entry) => entry.kind === 'place' && entry.path === path).map((entry) => [entry.uuid, entry]));
    for (const [uuid, layer] of pins) {
      if (!now.has(uuid)) { state.waitingLayer.removeLayer(layer); pins.delete(uuid); }
    }
    for (const [uuid, entry] of now) {
      if (!pins.has(uuid)) { const layer = pin(entry); pins.set(uuid, layer); state.waitingLayer.addLayer(layer); }
    }
  }

  /** Forgets the pins (another drawing opens: its map is new). */
  function reset() { pins.clear(); }

  /**
   * The markers of a FeatureCollection read from the service (or kept offline) with the changes waiting to be sent
   * put on them: what the reader sees is what they did, until the service answers.
   * - Complexity: O(markers + writes waiting).
   */
  function withWaitingChanges(collection) {
    if (!state.drawing) return collection;
    const drawing = state.drawing.name;
    const changes = new Map();
    const deleted = new Set();
    for (const entry of state.waiting) {
      if (entry.drawing !== drawing || entry.number === undefined) continue;
      if (entry.kind === 'delete') deleted.add(entry.number);
      else if (entry.kind === 'edit' || entry.kind === 'move') changes.set(entry.number, { ...changes.get(entry.number), ...shownChange(entry.body) });
    }
    if (changes.size === 0 && deleted.size === 0) return collection;
    const features = collection.features
      .filter((feature) => !deleted.has(feature.properties.number))
      .map((feature) => {
        const change = changes.get(feature.properties.number);
        return change ? { ...feature, properties: { ...feature.properties, ...change } } : feature;
      });
    return { ...collection, features };
  }

  return { show, reset, withWaitingChanges };
}
