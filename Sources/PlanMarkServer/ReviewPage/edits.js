// Changes the page makes through the service: place, move, edit and delete markers (edits with If-Match: a
// conflict is shown, not overwritten). Every write goes through the outbox (sync.js): sent at once with a network,
// kept on the device and sent in order when the connection returns without one (a new marker carries its uuid, the
// rest an Idempotency-Key, so nothing is stored twice). Each says what it did, or why the service refused it, in the
// message region; `shown.changed(data)` and `shown.removed(number)` put the answer on the page at once.
import { drawingPath, resultError } from './api.js';
import { byId } from './dom.js';
import { failure, say } from './messages.js';
import { toPixel } from './map.js';
import { shownChange } from './outbox.js';
import { reasonText } from './workflow.js';

/** The edits of the open drawing; `sync` is the page's outbox (sync.js). */
export function createEdits(state, sync, shown) {
  const markerPath = (number) => `${drawingPath(state.drawing.name)}/markers/${number}`;
  const waitingText = () => `${byId('sync-status').dataset.count ?? 'it'} waiting to sync`;

  /** The reason of a refusal in words. */
  function refusal(result) {
    const error = result.data && result.data.error ? result.data.error : {};
    return reasonText(error.code, error.message ?? `HTTP ${result.status}`);
  }

  /** Places a marker at image pixel (x, y) with the note typed beside the map (optional). */
  async function place(x, y) {
    const note = byId('new-note').value.trim();
    const body = { x, y };
    if (note) body.note = note;
    const result = await sync.submit({ kind: 'place', method: 'POST', path: drawingPath(state.drawing.name) + '/markers', body, drawing: state.drawing.name });
    if (result.outcome === 'stored') {
      byId('new-note').value = '';
      const data = result.data;
      const rooms = data.rooms && data.rooms.length ? ` in room ${data.rooms.join(', ')}` : '';
      say(`Marker ${data.number} placed at (${Math.round(x)}, ${Math.round(y)})${rooms}.`);
    } else if (result.outcome === 'waiting') {
      byId('new-note').value = '';
      say(`No network: the new marker at (${Math.round(x)}, ${Math.round(y)}) is kept on this device (${waitingText()}); it gets its number when it syncs.`);
    } else {
      say(`Not placed: ${refusal(result)}. Nothing was stored.`, true);
    }
  }

  /** Stores a dragged pin's new position; a refused move puts the pin back at `from` and says why. */
  async function move(entry, from) {
    const number = entry.data.number;
    const { x, y } = toPixel(state, entry.layer.getLatLng());
    const result = await sync.submit({ kind: 'move', method: 'PATCH', path: markerPath(number), body: { x, y }, number, drawing: state.drawing.name });
    state.dragging = null;
    if (result.outcome === 'stored') {
      say(`Marker ${number} moved to (${Math.round(x)}, ${Math.round(y)}).`);
    } else if (result.outcome === 'waiting') {
      shown.changed({ ...entry.data, x, y });
      say(`No network: marker ${number}'s move is kept on this device (${waitingText()}).`);
    } else {
      entry.layer.setLatLng(from);
      failure(`Marker ${number} not moved, it is back where it was`, resultError(result));
    }
  }

  /**
   * PATCHes marker `number` with `body`, made only while the marker is still at the version the page shows
   * (`If-Match`); `done(data)` gives the message when it is stored. When someone changed it meanwhile (412), nothing
   * is stored: the page shows the stored marker, and its popup the conflict (`state.conflicts`), where the reviewer
   * keeps theirs (the same change, made again on the new version) or takes the other. Without a network the change
   * waits in the outbox, shown on the marker meanwhile; its conflict, if any, shows when it is sent.
   */
  async function patch(number, body, done) {
    const entry = state.markers.get(number);
    const fields = { kind: 'edit', method: 'PATCH', path: markerPath(number), body, number, drawing: state.drawing.name };
    if (entry && Number.isInteger(entry.data.version)) fields.ifMatch = entry.data.version;
    const result = await sync.submit(fields);
    if (result.outcome === 'stored') {
      say(done(result.data));
    } else if (result.outcome === 'conflict') {
      state.conflicts.set(number, { body, done });
      say(`Marker ${number} was changed by someone else meanwhile: nothing was stored. Its popup shows both; keep yours or take theirs.`, true);
    } else if (result.outcome === 'waiting') {
      state.conflicts.delete(number);
      if (entry) shown.changed({ ...entry.data, ...shownChange(body) });
      say(`No network: marker ${number}'s change is kept on this device (${waitingText()}).`);
    } else {
      failure(`Marker ${number} not changed`, resultError(result));
    }
  }

  /** Deletes marker `number`. */
  async function remove(number) {
    const result = await sync.submit({ kind: 'delete', method: 'DELETE', path: markerPath(number), number, drawing: state.drawing.name });
    if (result.outcome === 'stored') say(`Marker ${number} deleted.`);
    else if (result.outcome === 'waiting') {
      shown.removed(number);
      say(`No network: marker ${number} is deleted on this device (${waitingText()}).`);
    } else failure(`Marker ${number} not deleted`, resultError(result));
  }

  /** Adds a comment to marker `number`; resolves what came of it (sync.js submit's result). */
  function comment(number, text) {
    return sync.submit({ kind: 'comment', method: 'POST', path: `${markerPath(number)}/comments`, body: { text }, number, drawing: state.drawing.name });
  }

  /** Attaches `file` (a photo) to marker `number`, its bytes as they are; resolves what came of it. */
  function attach(number, file) {
    return sync.submit({
      kind: 'photo', method: 'POST', path: `${markerPath(number)}/attachments`, raw: file,
      contentType: file.type || 'application/octet-stream', number, drawing: state.drawing.name,
    });
  }

  /**
   * Puts what the service answered to a write of the outbox on the page, whether it was sent at once or later: a
   * marker placed or changed, a marker deleted, an edit in conflict (shown in its popup as a 412 is), a refusal.
   */
  function answered(entry, outcome, answer) {
    const data = answer.data;
    const what = entry.kind === 'place' ? 'the new marker' : `marker ${entry.number}'s ${entry.kind === 'delete' ? 'deletion' : entry.kind}`;
    // Said first; a write sent at once says more after (place, move, patch, remove).
    if (outcome === 'refused') say(`Synced, refused: ${what} was not stored: ${refusal(answer)}.`, true);
    else if (outcome === 'stored') say(`Synced: ${entry.kind === 'place' && data ? `marker ${data.number} placed` : `${what} stored`}.`);
    if (!state.drawing || entry.drawing !== state.drawing.name) return;
    if (outcome === 'stored' && (entry.kind === 'place' || entry.kind === 'edit' || entry.kind === 'move') && data) {
      state.conflicts.delete(entry.number ?? data.number);
      shown.changed(data);
    } else if (outcome === 'stored' && entry.kind === 'delete') {
      shown.removed(entry.number);
    } else if (outcome === 'conflict' && entry.kind === 'edit' && data && data.marker) {
      state.conflicts.set(entry.number, { body: entry.body, done: () => `Marker ${entry.number}: your change is stored.` });
      shown.changed(data.marker);
      say(`Marker ${entry.number} was changed by someone else before your change reached the service: nothing of yours was stored. Its popup shows both; keep yours or take theirs.`, true);
    }
  }

  return { place, move, patch, remove, comment, attach, answered, refusal, waitingText };
}
