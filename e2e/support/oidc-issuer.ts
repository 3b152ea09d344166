/**
 * A local OpenID Connect issuer standing in for Google in the browser tests (oidc-provider on 127.0.0.1),
 * run by Playwright as a web server beside the app (playwright.config.ts). Its sign-in page takes any
 * login: the login is the account's subject and e-mail, verified unless it ends in `#no-verificado`
 * (`ana@correo.test#no-verificado`: e-mail `ana@correo.test`, email_verified false, a subject of its own).
 *
 *   node --import tsx e2e/support/oidc-issuer.ts   (OIDC_PORT, APP_URL, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET)
 */
import Provider from 'oidc-provider';

export const UNVERIFIED = '#no-verificado';

const port = Number(process.env.OIDC_PORT);
const appUrl = process.env.APP_URL!;
const issuer = `http://127.0.0.1:${port}`;

/** The claims of a login (see above); the name is the part before the @, capitalised. */
function claimsOf(login: string) {
  const email = login.endsWith(UNVERIFIED) ? login.slice(0, -UNVERIFIED.length) : login;
  const local = email.split('@')[0] ?? email;
  return {
    sub: login,
    email,
    email_verified: !login.endsWith(UNVERIFIED),
    name: `${local.charAt(0).toUpperCase()}${local.slice(1)} Google`,
  };
}

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.GOOGLE_CLIENT_ID!,
      client_secret: process.env.GOOGLE_CLIENT_SECRET!,
      redirect_uris: [`${appUrl}/api/identity/google/callback`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  // Google puts the e-mail in the ID token; so does this stand-in.
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  cookies: { keys: ['hornada-e2e-oidc-cookie-key'] },
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, id) {
    return { accountId: id, claims: async () => claimsOf(id) };
  },
});
// The dev interactions log a warning at every start: they are what this test issuer is for.
provider.on('server_error', (_ctx, err) => console.error('oidc issuer:', err));

const server = provider.listen(port, '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => process.exit(0)));
