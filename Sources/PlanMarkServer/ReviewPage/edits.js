// Changes the page makes through the service: place, move, edit and delete markers. Each says what it did,
// or why the service refused it, in the message region; `shown.changed(data)` and `shown.removed(number)`
// put the answer on the page at once (the next poll brings everything else).
import { drawingPath, json, request } from './api.js';
import { byId } from './dom.js';
import { failure, say } from './messages.js';
import { toPixel } from './map.js';
import { reasonText } from './workflow.js';

/** The edits of the open drawing. */
export function createEdits(state, shown) {
  const markerPath = (number) => `${drawingPath(state.drawing.name)}/markers/${number}`;

  /** Places a marker at image pixel (x, y) with the note typed beside the map (optional). */
  async function place(x, y) {
    const note = byId('new-note').value.trim();
    const body = { x, y };
    if (note) body.note = note;
    const response = await request(drawingPath(state.drawing.name) + '/markers', { method: 'POST', body });
    const data = await response.json().catch(() => null);
    if (response.status === 201 || response.status === 200) {
      byId('new-note').value = '';
      shown.changed(data);
      const rooms = data.rooms && data.rooms.length ? ` in room ${data.rooms.join(', ')}` : '';
      say(`Marker ${data.number} placed at (${Math.round(x)}, ${Math.round(y)})${rooms}.`);
    } else {
      const error = data && data.error ? data.error : {};
      say(`Not placed: ${reasonText(error.code, error.message ?? response.statusText)}. Nothing was stored.`, true);
    }
  }

  /** Stores a dragged pin's new position; a refused move puts the pin back at `from` and says why. */
  async function move(entry, from) {
    const number = entry.data.number;
    const { x, y } = toPixel(state, entry.layer.getLatLng());
    try {
      const data = await json(markerPath(number), { method: 'PATCH', body: { x, y } });
      state.dragging = null;
      shown.changed(data);
      say(`Marker ${number} moved to (${Math.round(x)}, ${Math.round(y)}).`);
    } catch (error) {
      state.dragging = null;
      entry.layer.setLatLng(from);
      failure(`Marker ${number} not moved, it is back where it was`, error);
    }
  }

  /** PATCHes marker `number` with `body`; `done(data)` gives the message when it is stored. */
  async function patch(number, body, done) {
    try {
      const data = await json(markerPath(number), { method: 'PATCH', body });
      shown.changed(data);
      say(done(data));
    } catch (error) {
      failure(`Marker ${number} not changed`, error);
    }
  }

  /** Deletes marker `number`. */
  async function remove(number) {
    try {
      await json(markerPath(number), { method: 'DELETE' });
      shown.removed(number);
      say(`Marker ${number} deleted.`);
    } catch (error) {
      failure(`Marker ${number} not deleted`, error);
    }
  }

  return { place, move, patch, remove };
}
