import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyStore } from '../../lib/keys';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
 * signed in to an account carries a signed token naming that account. Its sign-ins are counted under
 * a limit of its own, so failures from unknown devices (an attacker's) never delay its owner.
 * The value is `v2.<nonce>.<mac>`: the MAC covers the nonce and the account's e-mail, so the cookie names
 * the account without carrying its address; the nonce names the device's own bucket.
 */
export const DEVICE_COOKIE = 'hornada_device';
export const DEVICE_TTL_MS = 365 * 86_400_000;
const PURPOSE = 'device-cookie v2';
const VERSION = 'v2';
/** Far above any real value: longer ones are not even parsed. */
const MAX_LENGTH = 1024;

const normalise = (email: string) => email.trim().toLowerCase();
const macOf = (keys: KeyStore, nonce: string, email: string) =>
  keys.mac(PURPOSE, `${VERSION}.${nonce}.${normalise(email)}`);

/** A new device cookie for the account (a fresh nonce each successful sign-in, as OWASP advises). */
export function issueDeviceCookie(keys: KeyStore, email: string): string {
  const nonce = randomBytes(16).toString('base64url');
  return `${VERSION}.${nonce}.${macOf(keys, nonce, email)}`;
}

/** The device's nonce when the cookie is genuine and was issued for this e-mail; null otherwise. */
export function deviceNonceFor(keys: KeyStore, cookie: string | undefined, email: string): string | null {
  if (!cookie || cookie.length > MAX_LENGTH) return null;
  const parts = cookie.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return null;
  const [, nonce, mac] = parts as [string, string, string];
  const expected = Buffer.from(macOf(keys, nonce, email));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : null;
}
