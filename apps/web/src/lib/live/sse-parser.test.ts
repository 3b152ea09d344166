import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse-parser';

function collect(initialLastEventId?: string) {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const comments: string[] = [];
  const parser = createSseParser(
    {
      onEvent: (e) => events.push(e),
      onRetry: (ms) => retries.push(ms),
      onComment: (text) => comments.push(text),
    },
    initialLastEventId,
  );
  return { parser, events, retries, comments };
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('createSseParser (WHATWG text/event-stream)', () => {
  it('joins multi-line data with \\n, reads event types and ignores comments', () => {
    const { parser, events, comments } = collect();
    parser.feed(': connected\n\ndata: {"a":\ndata: 1}\n\n: heartbeat\n\nevent: reset\ndata: {}\n\n');
    expect(events).toEqual([
      { type: 'message', data: '{"a":\n1}', lastEventId: '' },
      { type: 'reset', data: '{}', lastEventId: '' },
    ]);
    expect(comments).toEqual([' connected', ' heartbeat']);
  });

  it('keeps the last id across events and reads retry only when it is all digits', () => {
    const { parser, events, retries } = collect();
    parser.feed('retry: 3000\n\nid: 7\ndata: a\n\ndata: b\n\nretry: 1x\nretry: -5\nid: 8\ndata: c\n\nretry:250\n\n');
    expect(events.map((e) => [e.data, e.lastEventId])).toEqual([
      ['a', '7'],
      ['b', '7'],
      ['c', '8'],
    ]);
    expect(retries).toEqual([3000, 250]);
    expect(parser.lastEventId).toBe('8');
  });

  it('accepts CRLF, CR and LF line ends, also a CRLF split across two chunks', () => {
    const { parser, events } = collect();
    parser.feed('data: one\r\ndata: two\rdata: three\n\r\n');
    parser.feed('data: a\r');
    parser.feed('\ndata: b\r');
    parser.feed('\n\r');
    parser.feed('\n');
    expect(events.map((e) => e.data)).toEqual(['one\ntwo\nthree', 'a\nb']);
  });

  it('puts a line back together across chunks, also in the middle of a UTF-8 character', () => {
    const { parser, events } = collect();
    const bytes = utf8('id: 41\ndata: {"name":"Pan de bono ñ €"}\n\n');
    const euro = bytes.length - 5; // the 3-byte '€' ends 4 bytes before the end: split inside it
    const enye = bytes.indexOf(0xc3); // 'ñ' is C3 B1: split between its two bytes
    parser.feed(bytes.slice(0, 9)); // 'id: 41\nda'
    parser.feed(bytes.slice(9, enye + 1));
    parser.feed(bytes.slice(enye + 1, euro));
    parser.feed(bytes.slice(euro));
    expect(events).toEqual([{ type: 'message', data: '{"name":"Pan de bono ñ €"}', lastEventId: '41' }]);
  });

  it('drops one leading BOM, text or bytes, and only at the start of the stream', () => {
    const text = collect();
    text.parser.feed('\uFEFFdata: x\n\n\uFEFFdata: y\n\n');
    expect(text.events.map((e) => e.data)).toEqual(['x']); // the second BOM makes an unknown field

    const bytes = collect();
    bytes.parser.feed(new Uint8Array([0xef, 0xbb]));
    bytes.parser.feed(new Uint8Array([0xbf, ...utf8('data: x\n\n')]));
    expect(bytes.events.map((e) => e.data)).toEqual(['x']);
  });

  it('reads fields without a colon or a space, and ignores unknown fields', () => {
    const { parser, events } = collect();
    parser.feed('data\ndata:x\ndata:  y\nfoo: bar\n\n');
    expect(events.map((e) => e.data)).toEqual(['\nx\n y']);
  });

  it('discards an event cut by the end of the stream; its id does not become the resume point', () => {
    const { parser, events } = collect('5');
    parser.feed('id: 6\ndata: whole\n\nid: 7\ndata: cut');
    parser.end();
    expect(events.map((e) => e.data)).toEqual(['whole']);
    expect(parser.lastEventId).toBe('6');
  });

  it('moves the resume point on an id with no data, without an event; ignores ids with NUL', () => {
    const { parser, events } = collect();
    parser.feed('id: 9\n\nid: 1\u00002\n\n');
    expect(events).toEqual([]);
    expect(parser.lastEventId).toBe('9');
    parser.feed('event: ping\n\ndata: after\n\n'); // an event type without data dispatches nothing, then resets
    expect(events).toEqual([{ type: 'message', data: 'after', lastEventId: '9' }]);
  });
});
