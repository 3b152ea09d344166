/** 128 random bits in hex, for an Idempotency-Key: getRandomValues works on plain http too (randomUUID needs a secure context). */
export function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
