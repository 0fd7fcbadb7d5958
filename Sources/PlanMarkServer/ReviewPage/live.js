// Live updates by polling: GET /drawings/NAME/markers about once a second with If-None-Match, so an
// unchanged drawing costs a 304 with no body; a hidden tab does not poll (docs/review-page.md says why
// polling rather than server-sent events).
import { answerError, drawingPath, request } from './api.js';

/** How often the page asks for the markers, in milliseconds. */
export const POLL_MS = 1000;

/** Reads the open drawing's markers and hands a changed FeatureCollection to `apply`; nothing when unchanged. */
export async function loadMarkers(state, apply) {
  if (!state.drawing) return;
  const generation = state.generation;
  const headers = state.etag ? { 'If-None-Match': state.etag } : {};
  const response = await request(drawingPath(state.drawing.name) + '/markers', { headers });
  if (generation !== state.generation || response.status === 304) return;
  if (!response.ok) throw await answerError(response);
  state.etag = response.headers.get('ETag');
  const text = await response.text();
  if (text === state.lastText) return;
  state.lastText = text;
  apply(JSON.parse(text));
}

/** Stops polling. */
export function stopPolling(state) {
  if (state.poll) clearTimeout(state.poll);
  state.poll = null;
}

/** Polls the open drawing's markers until another drawing opens. */
export function startPolling(state, apply) {
  stopPolling(state);
  const generation = state.generation;
  const tick = async () => {
    if (generation !== state.generation) return;
    try { if (!document.hidden) await loadMarkers(state, apply); } catch (error) { /* the next poll tries again */ }
    if (generation === state.generation) state.poll = setTimeout(tick, POLL_MS);
  };
  state.poll = setTimeout(tick, POLL_MS);
}
