import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX, PASSWORD_MIN, passwordLength } from '@hornada/domain';
import { AppError, validationError } from './errors';

/** The 10,000 most common passwords of the list in stack-notes (most common first). */
const COMMON = new Set((dictionary['passwords-common'] as string[]).slice(0, 10_000));

const normalise = (p: string) => p.normalize('NFC');

/** Registration and change: length in code points, no truncation, no composition rules, not common. */
export function assertAcceptablePassword(password: string, path = 'password'): void {
  const n = passwordLength(password);
  if (n < PASSWORD_MIN)
    throw validationError([{ path, message: `Password must have at least ${PASSWORD_MIN} characters` }]);
  if (n > PASSWORD_MAX)
    throw validationError([{ path, message: `Password must have at most ${PASSWORD_MAX} characters` }]);
  if (COMMON.has(normalise(password).toLowerCase())) {
    throw new AppError(400, 'auth/weak-password', 'This password is too common; choose another', [
      { path, message: 'Too common' },
    ]);
  }
}

/** A hash of nothing, verified when the account does not exist, so both paths cost the same. */
let dummy: Promise<string> | null = null;

/** argon2id's cost: the library's defaults, unless a test lowered it. */
let cost: { memoryCost?: number; timeCost?: number } = {};

/**
 * Test seam: argon2id at its lowest cost (1 MiB, one pass), so that the hundreds of registrations and
 * sign-ins of the server tests do not spend most of the run hashing. Still argon2id, verified the same
 * way (a hash carries its own parameters). Refused outside Vitest: the server never calls it.
 */
export function cheapPasswordHashingForTests(): void {
  if (!process.env.VITEST) throw new Error('cheapPasswordHashingForTests is for tests only');
  cost = { memoryCost: 1024, timeCost: 1 };
  dummy = null;
}

export function hashPassword(password: string): Promise<string> {
  // argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's minimum), about 20–40 ms here.
  return hash(normalise(password), cost);
}

/**
 * Computes the dummy hash ahead of the first sign-in (the identity module calls it at start): made
 * lazily, the first unknown-user sign-in would pay for two hashes and be told apart by its time.
 */
export function prepareDummyHash(): Promise<string> {
  dummy ??= hash('hornada-dummy-password', cost);
  return dummy;
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (password.length > 4 * PASSWORD_MAX) return false;
  if (!stored) {
    await verify(await prepareDummyHash(), normalise(password)).catch(() => false);
    return false;
  }
  return verify(stored, normalise(password)).catch(() => false);
}
