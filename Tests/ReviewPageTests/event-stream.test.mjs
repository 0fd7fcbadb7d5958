// The event-stream parser against the HTML standard's rules; expected events written out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEventParser } from '../../Sources/PlanMarkServer/ReviewPage/event-stream.js';

/** The events, retries and comments of `chunks` pushed in order. */
function parse(chunks) {
  const seen = [];
  const parser = createEventParser({
    onEvent: (event) => seen.push(event),
    onRetry: (ms) => seen.push({ retry: ms }),
    onComment: (text) => seen.push({ comment: text }),
  });
  for (const chunk of chunks) parser.push(chunk);
  return { seen, lastEventId: parser.lastEventId };
}

// What the service sends: a retry, an event, a keep-alive, another event.
const SERVICE = 'retry: 2000\n\nid: 7\nevent: upsert\ndata: {"cursor":7}\n\n: keep-alive\n\nid: 9\nevent: remove\ndata: {"cursor":9}\n\n';
const SERVICE_EVENTS = [
  { retry: 2000 },
  { type: 'upsert', data: '{"cursor":7}', lastEventId: '7' },
  { comment: ' keep-alive' },
  { type: 'remove', data: '{"cursor":9}', lastEventId: '9' },
];

test("the service's stream, whole", () => {
  const { seen, lastEventId } = parse([SERVICE]);
  assert.deepEqual(seen, SERVICE_EVENTS);
  assert.equal(lastEventId, '9');
});

test('the same events however the stream is cut into chunks', () => {
  for (let i = 0; i <= SERVICE.length; i += 1) {
    for (let j = i; j <= SERVICE.length; j += 7) {
      assert.deepEqual(parse([SERVICE.slice(0, i), SERVICE.slice(i, j), SERVICE.slice(j)]).seen, SERVICE_EVENTS, `cut at ${i} and ${j}`);
    }
  }
});

test('CR, LF and CRLF all end a line, also when a CRLF is split between chunks', () => {
  const expected = [{ type: 'a', data: 'x', lastEventId: '' }, { type: 'b', data: 'y', lastEventId: '' }];
  assert.deepEqual(parse(['event: a\rdata: x\r\revent: b\r\ndata: y\r\n\r\n']).seen, expected);
  assert.deepEqual(parse(['event: a\r', '\ndata: x\r', '\n\r', '\nevent: b\ndata: y\n\n']).seen, expected);
  // A CR then a blank chunk then LF: the LF is a second line end (a blank line) only when it is not the CR's own.
  assert.deepEqual(parse(['data: x\r', '\n', '\n']).seen, [{ type: 'message', data: 'x', lastEventId: '' }]);
});

test('data lines join with LF; no event without data; one leading space is dropped; a field without a colon is empty', () => {
  assert.deepEqual(parse(['data: one\ndata:two\ndata:  three\n\n']).seen, [{ type: 'message', data: 'one\ntwo\n three', lastEventId: '' }]);
  assert.deepEqual(parse(['event: x\n\n']).seen, []);
  assert.deepEqual(parse(['data\n\n']).seen, [{ type: 'message', data: '', lastEventId: '' }]);
  assert.deepEqual(parse(['data: x\nevent: late\n']).seen, [], 'no blank line, no event yet');
});

test('an id without data still counts for the next event and for a reconnection; an id with NUL is ignored', () => {
  const { seen, lastEventId } = parse(['id: 5\n\ndata: a\n\nid: 6\0\ndata: b\n\n']);
  assert.deepEqual(seen, [{ type: 'message', data: 'a', lastEventId: '5' }, { type: 'message', data: 'b', lastEventId: '5' }]);
  assert.equal(lastEventId, '5');
});

test('retry needs digits only; unknown fields are ignored', () => {
  assert.deepEqual(parse(['retry: 1x\nretry: 300\nfoo: bar\n\n']).seen, [{ retry: 300 }]);
});
