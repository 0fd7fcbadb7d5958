// Reading a server-sent event stream (text/event-stream) from text chunks, as the HTML standard's "Interpreting an
// event stream" says: lines end in LF, CRLF or CR (a CR at the end of one chunk and an LF at the start of the next are
// one line end); a line starting with ':' is a comment; `event`, `data`, `id` and `retry` are the fields; a blank line
// dispatches the event (none when it has no data, but its `id` still counts). live.js feeds it the body of a fetch()
// so that the request carries the token in its Authorization header, which EventSource cannot send.
// Plain logic: no page (Tests/ReviewPageTests/event-stream.test.mjs runs it under node).

/**
 * A parser. `onEvent({ type, data, lastEventId })` is called for each event, `onRetry(ms)` for a `retry` field,
 * `onComment(text)` for a comment line (the service's keep-alives).
 * - Complexity: O(n) in the characters pushed; holds at most one unfinished line and one unfinished event.
 */
export function createEventParser({ onEvent, onRetry = () => {}, onComment = () => {} }) {
  let pending = '';        // the start of a line whose end has not arrived
  let skipLF = false;      // the last chunk ended in CR: an LF first in the next one ends no line
  let type = '';
  let data = '';
  let hasData = false;
  let lastEventId = '';

  function line(text) {
    if (text === '') {
      if (hasData) onEvent({ type: type || 'message', data: data.endsWith('\n') ? data.slice(0, -1) : data, lastEventId });
      type = '';
      data = '';
      hasData = false;
      return;
    }
    if (text.startsWith(':')) { onComment(text.slice(1)); return; }
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') { data += value + '\n'; hasData = true; }
    else if (field === 'id') { if (!value.includes('\0')) lastEventId = value; }
    else if (field === 'retry') { if (/^[0-9]+$/.test(value)) onRetry(Number(value)); }
  }

  return {
    /** Reads the next chunk of the stream's text. */
    push(chunk) {
      let start = 0;
      if (skipLF && chunk.startsWith('\n')) start = 1;
      skipLF = false;
      for (let i = start; i < chunk.length; i += 1) {
        const c = chunk[i];
        if (c !== '\n' && c !== '\r') continue;
        line(pending + chunk.slice(start, i));
        pending = '';
        if (c === '\r') {
          if (i + 1 === chunk.length) skipLF = true;
          else if (chunk[i + 1] === '\n') i += 1;
        }
        start = i + 1;
      }
      pending += chunk.slice(start);
    },
    /** The id of the last event seen (what a reconnection sends as Last-Event-ID), '' before any. */
    get lastEventId() { return lastEventId; },
  };
}
