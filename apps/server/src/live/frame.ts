const CRLF = Buffer.from('\r\n');

/**
 * Bytes of an event stream (an event, a comment, a retry hint), encoded once for every subscriber that
 * receives them: as they are, or already framed as one chunk of HTTP/1.1's chunked transfer coding, so
 * that a fan-out to thousands of streams writes the same buffer to each socket instead of encoding and
 * framing the text again per stream.
 */
export class Frame {
  private bytes: Buffer | undefined;
  private chunked: Buffer | undefined;

  constructor(readonly text: string) {}

  raw(): Buffer {
    return (this.bytes ??= Buffer.from(this.text));
  }

  /** `<size in hex>\r\n<bytes>\r\n`: what a chunked response sends for these bytes. */
  chunk(): Buffer {
    if (!this.chunked) {
      const body = this.raw();
      this.chunked = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`, 'latin1'), body, CRLF]);
    }
    return this.chunked;
  }
}
