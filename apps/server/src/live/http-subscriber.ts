import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Caller } from '../context';
import type { Subscriber } from './delivery';
import type { Frame } from './frame';

/** How long a closed stream's unsent bytes may wait for a client that stopped reading. */
const DROP_AFTER_MS = 10_000;

/**
 * One event stream on an HTTP response (changes.routes.ts). Once the response head has gone, events are
 * written straight to the connection as chunks framed once for every stream (Frame.chunk): the response
 * would otherwise encode, measure and frame each event again for each of thousands of streams. A response
 * not sent in chunks (an HTTP/1.0 client) or not yet on its connection (a pipelined request waiting its
 * turn) is written through the response itself.
 */
export class HttpSubscriber implements Subscriber {
  caller: Caller | null = null;
  stale = false;
  cursor = 0;
  live = false;
  closed = false;
  private socket: Socket | null = null;

  constructor(
    readonly companyId: string,
    readonly resources: ReadonlySet<string>,
    readonly uid: string | null,
    readonly tokenIssuedAt: number | null,
    private readonly res: ServerResponse,
  ) {}

  /** Sends the response head (set by writeHead) with the stream's first bytes. */
  open(first: string): void {
    this.res.write(first);
    // `chunkedEncoding` is set by the response head just sent: whether the body goes as chunks.
    const chunked = (this.res as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;
    if (chunked && this.res.socket) this.socket = this.res.socket;
  }

  write(frame: Frame): void {
    if (this.socket) {
      if (!this.socket.destroyed) this.socket.write(frame.chunk());
    } else this.res.write(frame.raw());
  }

  buffered(): number {
    return this.res.writableLength;
  }

  cork(): void {
    this.socket?.cork();
  }

  uncork(): void {
    this.socket?.uncork();
  }

  end(): void {
    const res = this.res;
    res.end();
    // A client that stopped reading never drains what is buffered: let its socket go.
    const drop = setTimeout(() => res.destroy(), DROP_AFTER_MS).unref();
    res.once('close', () => clearTimeout(drop));
  }
}
