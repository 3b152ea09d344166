/**
 * A minimal OpenID Connect issuer for the server's tests of sign-in with Google (the browser journey
 * against oidc-provider is e2e/google.spec.ts): discovery, keys and a token endpoint on 127.0.0.1.
 * `authorize` plays the provider's sign-in page: it takes the authorization URL the app sent the
 * browser to and the claims the test chooses (`email_verified` included), and returns the callback
 * path the provider would send the browser back to. PKCE is checked as a provider would.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

export interface IssuerClaims {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestIssuer {
  url: string;
  env: Record<string, string>;
  /** The callback path and query (`/api/identity/google/callback?code=…&state=…`) after signing in as `claims`. */
  authorize(authorizationUrl: string, claims: IssuerClaims): string;
  close(): Promise<void>;
}

const CLIENT_ID = 'hornada-test';

export async function startTestIssuer(): Promise<TestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const grants = new Map<string, { claims: IssuerClaims; nonce: string; challenge: string }>();
  let url = '';

  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', url).pathname;
    if (path === '/.well-known/openid-configuration') {
      return send(200, {
        issuer: url,
        authorization_endpoint: `${url}/auth`,
        token_endpoint: `${url}/token`,
        jwks_uri: `${url}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (path === '/jwks') return send(200, { keys: [jwk] });
    if (path === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const grant = grants.get(form.get('code') ?? '');
        grants.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (!grant || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
          return send(400, { error: 'invalid_grant' });
        }
        const now = Math.floor(Date.now() / 1000);
        void new SignJWT({ ...grant.claims, nonce: grant.nonce })
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setIssuer(url)
          .setAudience(CLIENT_ID)
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(privateKey)
          .then((idToken) =>
            send(200, { access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: idToken }),
          );
      });
      return;
    }
    send(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    env: { GOOGLE_OIDC_ISSUER: url, GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: 'secreto-de-prueba' },
    authorize(authorizationUrl, claims) {
      const auth = new URL(authorizationUrl);
      const code = randomBytes(16).toString('base64url');
      grants.set(code, {
        claims,
        nonce: auth.searchParams.get('nonce') ?? '',
        challenge: auth.searchParams.get('code_challenge') ?? '',
      });
      const back = new URL(auth.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', auth.searchParams.get('state') ?? '');
      return `${back.pathname}${back.search}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
