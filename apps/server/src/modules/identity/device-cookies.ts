import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyStore } from '../../lib/keys';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
 * signed in to an account carries a signed token naming that account. Its sign-ins are counted under
 * a limit of its own, so failures from unknown devices (an attacker's) never delay its owner.
 * The value is `v1.<e-mail, base64url>.<nonce>.<mac>`; the nonce names the device's own bucket.
 */
export const DEVICE_COOKIE = 'hornada_device';
export const DEVICE_TTL_MS = 365 * 86_400_000;
const PURPOSE = 'device-cookie v1';
/** Far above any real value: longer ones are not even parsed. */
const MAX_LENGTH = 1024;

const normalise = (email: string) => email.trim().toLowerCase();

/** A new device cookie for the account (a fresh nonce each successful sign-in, as OWASP advises). */
export function issueDeviceCookie(keys: KeyStore, email: string): string {
  const body = `v1.${Buffer.from(normalise(email)).toString('base64url')}.${randomBytes(16).toString('base64url')}`;
  return `${body}.${keys.mac(PURPOSE, body)}`;
}

/** The device's nonce when the cookie is genuine and names this e-mail; null otherwise. */
export function deviceNonceFor(keys: KeyStore, cookie: string | undefined, email: string): string | null {
  if (!cookie || cookie.length > MAX_LENGTH) return null;
  const parts = cookie.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') return null;
  const [, encodedEmail, nonce, mac] = parts as [string, string, string, string];
  const expected = Buffer.from(keys.mac(PURPOSE, `v1.${encodedEmail}.${nonce}`));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (Buffer.from(encodedEmail, 'base64url').toString() !== normalise(email)) return null;
  return nonce;
}
