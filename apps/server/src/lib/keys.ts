import { createHmac, hkdfSync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importPKCS8,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
  type JWTPayload,
} from 'jose';

/**
 * The signing key of id tokens (docs/design.md §2): JWT_PRIVATE_KEY when given, otherwise generated once
 * into DATA_DIR (development only). The public half is published as a JWKS; verification goes
 * through that key set, so adding a second key for rotation needs no change to callers.
 */
export const ALG = 'ES256';
export const AUDIENCE = 'hornada';

export interface KeyStore {
  issuer: string;
  sign(claims: JWTPayload & { sub: string }, options?: { expiresInSeconds?: number; now?: Date }): Promise<string>;
  verify(token: string, now?: Date): Promise<JWTPayload & { sub: string }>;
  jwks(): JSONWebKeySet;
  /**
   * HMAC-SHA256 of `data` (base64url) under a secret of its own for each `purpose`, derived by HKDF
   * from the signing key: no second secret to configure or store, and no purpose can forge another's.
   */
  mac(purpose: string, data: string): string;
}

async function readOrCreatePem(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'keys', 'jwt-private.pem');
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  const pem = await exportPKCS8(privateKey);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // 'wx' so two processes starting together never overwrite each other's key.
  await writeFile(file, pem, { mode: 0o600, flag: 'wx' }).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return readFile(file, 'utf8');
}

export async function createKeyStore(opts: {
  privateKeyPem?: string;
  dataDir: string;
  issuer: string;
}): Promise<KeyStore> {
  const pem = opts.privateKeyPem ?? (await readOrCreatePem(opts.dataDir));
  const privateKey = await importPKCS8(pem, ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  // Keep only the public members.
  const publicJwk = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  const kid = await calculateJwkThumbprint(publicJwk);
  const set: JSONWebKeySet = { keys: [{ ...publicJwk, kid, alg: ALG, use: 'sig' }] };
  const localSet = createLocalJWKSet(set);
  const macKeys = new Map<string, Buffer>();
  const macKey = (purpose: string) => {
    let key = macKeys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', pem, 'hornada', `hornada ${purpose}`, 32));
      macKeys.set(purpose, key);
    }
    return key;
  };

  return {
    issuer: opts.issuer,
    async sign(claims, options = {}) {
      const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
        .setIssuer(opts.issuer)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + (options.expiresInSeconds ?? 3600))
        .sign(privateKey);
    },
    async verify(token, now) {
      const { payload } = await jwtVerify(token, localSet, {
        issuer: opts.issuer,
        audience: AUDIENCE,
        algorithms: [ALG],
        typ: 'JWT',
        currentDate: now,
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('token without subject');
      return payload as JWTPayload & { sub: string };
    },
    jwks: () => set,
    mac: (purpose, data) => createHmac('sha256', macKey(purpose)).update(data).digest('base64url'),
  };
}
