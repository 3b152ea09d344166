import { randomBytes } from 'node:crypto';

/** Record ids: 128 random bits, URL-safe (22 characters). */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}
