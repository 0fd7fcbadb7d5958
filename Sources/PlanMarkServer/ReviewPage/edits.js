// Changes the page makes through the service: place, move, edit and delete markers (edits with If-Match: a
// conflict is shown, not overwritten). Each says what it did,
// or why the service refused it, in the message region; `shown.changed(data)` and `shown.removed(number)`
// put the answer on the page at once (the next poll brings everything else).
import { drawingPath, errorOf, json, request } from './api.js';
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

  /**
   * PATCHes marker `number` with `body`, made only while the marker is still at the version the page shows
   * (`If-Match`); `done(data)` gives the message when it is stored. When someone changed it meanwhile (412), nothing
   * is stored: the page shows the stored marker, and its popup the conflict (`state.conflicts`), where the reviewer
   * keeps theirs (the same change, made again on the new version) or takes the other.
   */
  async function patch(number, body, done) {
    const entry = state.markers.get(number);
    const headers = entry && Number.isInteger(entry.data.version) ? { 'If-Match': `"${entry.data.version}"` } : {};
    let response;
    try {
      response = await request(markerPath(number), { method: 'PATCH', body, headers });
    } catch (error) {
      failure(`Marker ${number} not changed`, error);
      return;
    }
    const data = await response.json().catch(() => null);
    if (response.ok) {
      state.conflicts.delete(number);
      shown.changed(data);
      say(done(data));
    } else if (response.status === 412 && data && data.marker) {
      state.conflicts.set(number, { body, done });
      shown.changed(data.marker);
      say(`Marker ${number} was changed by someone else meanwhile: nothing was stored. Its popup shows both; keep yours or take theirs.`, true);
    } else {
      failure(`Marker ${number} not changed`, errorOf(response, data));
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
