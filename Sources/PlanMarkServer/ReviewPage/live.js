// Live updates: the open drawing's server-sent events (GET /drawings/NAME/events), read with fetch() so the token
// goes in the Authorization header like on every other call (EventSource cannot send headers, and a token in the
// address would end up in logs). Each change is applied as it arrives. A stream that drops or goes quiet (no
// keep-alive for 45 s) is opened again with Last-Event-ID, so nothing is missed or applied twice; while it is down
// the page polls the markers with If-None-Match about once a second, as it did before the stream. The header says
// "live" or "reconnecting".
import { answerError, drawingPath, request } from './api.js';
import { byId } from './dom.js';
import { createEventParser } from './event-stream.js';

/** How often the page polls the markers while the stream is down, in milliseconds. */
export const POLL_MS = 1000;
/** The first wait before the stream is opened again; each failure doubles it, up to MAX_RETRY_MS. */
const RETRY_MS = 2000;
const MAX_RETRY_MS = 30000;
/** A stream with no bytes for this long (the service sends a keep-alive every 15 s) is taken as dead. */
const SILENCE_MS = 45000;

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
function stopPolling(state) {
  if (state.poll) clearTimeout(state.poll);
  state.poll = null;
}

/** Polls the open drawing's markers (a hidden tab does not) until the stream is back or another drawing opens. */
function startPolling(state, apply) {
  if (state.poll) return;
  const generation = state.generation;
  const tick = async () => {
    if (generation !== state.generation || !state.poll) return;
    try { if (!document.hidden) await loadMarkers(state, apply); } catch (error) { /* the next poll tries again */ }
    if (generation === state.generation && state.poll) state.poll = setTimeout(tick, POLL_MS);
  };
  state.poll = setTimeout(tick, POLL_MS);
}

/** Says in the header whether changes arrive as they happen. */
function showLive(live) {
  const status = byId('live-status');
  status.hidden = false;
  status.textContent = live ? 'live' : 'reconnecting';
  status.dataset.state = live ? 'live' : 'reconnecting';
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

/**
 * Reads one stream of the open drawing's events until it ends, fails or `signal` aborts. `opened()` is awaited once
 * the service has answered (it has subscribed the stream by then, so nothing committed later is missed) and before
 * any event is read; `event(e)` gets each event.
 */
async function readStream(state, lastEventId, signal, { opened, event, retry }) {
  const silence = new AbortController();
  const stop = () => silence.abort();
  signal.addEventListener('abort', stop, { once: true });
  let timer = setTimeout(stop, SILENCE_MS);
  try {
    const headers = { Accept: 'text/event-stream' };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    const response = await request(drawingPath(state.drawing.name) + '/events', { headers, signal: silence.signal });
    if (!response.ok) throw await answerError(response);
    if (!response.body) throw new Error('this browser cannot read a stream');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parser = createEventParser({ onEvent: event, onRetry: retry });
    await opened();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      clearTimeout(timer);
      timer = setTimeout(stop, SILENCE_MS);
      parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}

/** Stops the open drawing's live updates (its stream and any polling). */
export function stopLive(state) {
  if (state.live) state.live.abort();
  state.live = null;
  stopPolling(state);
}

/**
 * Starts the live updates of the open drawing until another opens (`stopLive`). `apply(collection)` gets the markers
 * as a FeatureCollection (the first load, and polls while the stream is down), `change(object)` each change of the
 * stream (`{"cursor","drawing","kind","number","uuid","marker"}`). Resolves once the markers were first loaded:
 * through the stream when it opens, else by a plain GET (and polling goes on until the stream opens).
 */
export function startLive(state, { apply, change }) {
  stopLive(state);
  const generation = state.generation;
  const controller = new AbortController();
  state.live = controller;
  const current = () => generation === state.generation && !controller.signal.aborted;
  let lastEventId = '';
  let wait = RETRY_MS;
  let loaded;
  const firstLoad = new Promise((resolve) => { loaded = resolve; });

  async function run() {
    while (current()) {
      try {
        await readStream(state, lastEventId, controller.signal, {
          async opened() {
            stopPolling(state);
            wait = RETRY_MS;
            // With no event seen yet, changes made before the stream began are read once; after that the stream's
            // replay from Last-Event-ID has them.
            if (!lastEventId) {
              try { await loadMarkers(state, apply); } catch (error) { /* the stream brings what changes */ }
            }
            loaded();
            if (current()) showLive(true);
          },
          event(e) {
            if (!current()) return;
            lastEventId = e.lastEventId;
            try { change(JSON.parse(e.data)); } catch (error) { /* a change the page cannot read is skipped */ }
          },
          retry(ms) { wait = Math.max(ms, 500); },
        });
      } catch (error) {
        // The stream could not be opened or broke off: poll until it is back.
      }
      if (!current()) return;
      showLive(false);
      if (!state.poll) {
        try { await loadMarkers(state, apply); } catch (error) { /* polling tries again */ }
        loaded();
        if (!current()) return;
        startPolling(state, apply);
      }
      await pause(wait, controller.signal);
      wait = Math.min(wait * 2, MAX_RETRY_MS);
    }
  }
  run();
  return firstLoad;
}
