/**
 * A text/event-stream parser following the WHATWG HTML "server-sent events" interpretation rules, for the
 * fetch-based stream of signed-in users (docs/design.md §1/§3): EventSource cannot send an Authorization header.
 */

/** One dispatched event, as EventSource would hand it to a listener. */
export interface SseEvent {
  /** The `event:` field, or 'message'. */
  type: string;
  /** The `data:` lines joined with '\n'. */
  data: string;
  /** The last `id:` seen on the stream so far (it persists across events, as in EventSource). */
  lastEventId: string;
}

export interface SseHandlers {
  onEvent(event: SseEvent): void;
  /** A valid `retry:` field, in milliseconds. */
  onRetry?(ms: number): void;
  /** A comment line (heartbeats), without its leading ':'. */
  onComment?(text: string): void;
}

export interface SseParser {
  /** Feeds the next piece of the stream: text, or bytes decoded as UTF-8 (a character may span two chunks). */
  feed(chunk: string | Uint8Array): void;
  /** The stream ended: an event without its closing blank line is discarded, as the standard says. */
  end(): void;
  /** The id to resume from: the last `id:` of a completed event ('' when none), even one without data. */
  readonly lastEventId: string;
}

const LF = 0x0a;
const CR = 0x0d;

export function createSseParser(handlers: SseHandlers, initialLastEventId = ''): SseParser {
  // Invalid bytes become U+FFFD, as the standard's UTF-8 decode does; the one leading BOM is dropped below.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let buffer = '';
  let started = false;
  // A chunk ended with CR: a LF at the start of the next one belongs to the same line end.
  let pendingCr = false;
  let data = '';
  let hasData = false;
  let eventType = '';
  // The field's buffer, committed to lastEventId only when an event completes (a cut event does not count).
  let idBuffer = initialLastEventId;
  let lastEventId = initialLastEventId;

  function dispatch(): void {
    lastEventId = idBuffer;
    if (!hasData) {
      eventType = '';
      return;
    }
    const event: SseEvent = { type: eventType || 'message', data, lastEventId };
    data = '';
    hasData = false;
    eventType = '';
    handlers.onEvent(event);
  }

  function processLine(line: string): void {
    if (line === '') return dispatch();
    if (line.charCodeAt(0) === 0x3a) {
      handlers.onComment?.(line.slice(1));
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        eventType = value;
        break;
      case 'data':
        data = hasData ? `${data}\n${value}` : value;
        hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) idBuffer = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) handlers.onRetry?.(Number(value));
        break;
      default:
        break; // unknown fields are ignored
    }
  }

  function feedText(text: string): void {
    if (text === '') return;
    if (!started) {
      started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (pendingCr && text.charCodeAt(0) === LF) text = text.slice(1);
    pendingCr = false;
    buffer += text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const code = buffer.charCodeAt(i);
      if (code !== CR && code !== LF) continue;
      processLine(buffer.slice(start, i));
      if (code === CR) {
        if (i + 1 < buffer.length) {
          if (buffer.charCodeAt(i + 1) === LF) i++;
        } else {
          pendingCr = true;
        }
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
  }

  return {
    feed(chunk) {
      feedText(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      feedText(decoder.decode());
      buffer = '';
      idBuffer = lastEventId;
      data = '';
      hasData = false;
      eventType = '';
      pendingCr = false;
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}
