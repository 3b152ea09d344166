import type { KeyStore } from './keys';

type Claims = Awaited<ReturnType<KeyStore['verify']>>;

/** Tokens remembered at most: about half a kilobyte each. */
const MAX_TOKENS = 10_000;

/**
 * Id tokens whose signature, issuer, audience and type have been verified, by their exact text: a
 * signature check (ES256) is the largest part of a signed-in read otherwise. Only the time claims can
 * change an answer, and they are checked again on every use, as jose does (no tolerance). Who the token
 * names is not cached here: its user's role, company, status and ended sessions are read on each
 * request from the user directory, which the change feed keeps exact, so a revocation bites at once.
 * A failed verification is not remembered.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, Claims>();

  constructor(
    private readonly keys: KeyStore,
    private readonly max = MAX_TOKENS,
  ) {}

  async verify(token: string, now: Date): Promise<Claims> {
    const known = this.entries.get(token);
    if (known) {
      if (inTime(known, now)) return known;
      // Expired (or not yet valid): jose says so with its own error.
      this.entries.delete(token);
    }
    const claims = await this.keys.verify(token, now);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, claims);
    return claims;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** jose's time checks at `now`: not before `nbf`, strictly before `exp` (whole seconds). */
function inTime(claims: Claims, now: Date): boolean {
  const seconds = Math.floor(now.getTime() / 1000);
  if (typeof claims.nbf === 'number' && claims.nbf > seconds) return false;
  return typeof claims.exp !== 'number' || claims.exp > seconds;
}
