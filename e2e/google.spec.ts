/**
 * Sign-in with Google against a local OpenID Connect issuer on 127.0.0.1 (support/oidc-issuer.ts,
 * started by playwright.config.ts): PKCE, state and nonce checked by the server; the app gets a single-use
 * code, never a token in a URL; new users become customers of the market; only a verified e-mail signs
 * in, and an account whose own e-mail was never verified becomes the Google owner's alone; foreign
 * redirect targets are not followed.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { leaveIssuer, quietIssuerFonts, signInAtIssuer, signInWithGoogle, UNVERIFIED } from './support/google';
import {
  accountButton,
  apiToken,
  DEMO,
  expectNoSeriousAxeViolations,
  marketCompanyId,
  shot,
  signOutFromMenu,
} from './support/session';

const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;
/** The issuer names an account after its e-mail's local part ("nuevo1@…" → "Nuevo1 Google"). */
const firstName = (login: string) => login.replace(/^./, (c) => c.toUpperCase()).split('@')[0]!;

const signOut = (page: Page, login: string) => signOutFromMenu(page, firstName(login));

const PASSWORD = 'pan-de-bono-tibio';

/** A customer of the market with a password, registered by staff (docs/product.md §7): its uid. */
async function passwordCustomer(request: APIRequestContext, email: string): Promise<string> {
  const token = await apiToken(request, DEMO.staff);
  const res = await request.post('/api/auth/register', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      email,
      password: PASSWORD,
      name: 'Cliente con Clave',
      role: 'company_customer',
      companyId: await marketCompanyId(request),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: { user: { uid: string } } }).data.user.uid;
}

async function me(page: Page, request: APIRequestContext) {
  const token = await page.evaluate(() => localStorage.getItem('auth-token'));
  const res = await request.get('/api/me', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return (
    (await res.json()) as { data: { uid: string; role: string; companyId: string | null; emailVerified: boolean } }
  ).data;
}

test.beforeEach(async ({ page }) => {
  await quietIssuerFonts(page);
  // Mobile first: the whole journey at 375 px.
  await page.setViewportSize({ width: 375, height: 740 });
});

test.describe('sign-in with Google', () => {
  test('a new user lands as a customer of the market; a second sign-in does not register again', async ({
    page,
    request,
  }) => {
    const login = `nuevo${stamp()}@gmail.test`;
    await page.goto('/login');
    await expect(page.getByRole('link', { name: 'Continuar con Google' })).toBeVisible();
    await page.screenshot({ path: shot('login-google-375.png'), fullPage: true });
    const first = await signInWithGoogle(page, login);
    expect(first.answer.registered).toBe(true);
    // userDashboard sends a customer to their landing page, the storefront.
    await expect(page).toHaveURL('/');
    await expect(accountButton(page, firstName(login))).toBeVisible();
    const market = await marketCompanyId(request);
    const created = await me(page, request);
    expect(created).toMatchObject({ role: 'company_customer', companyId: market, emailVerified: true });
    // No token in any URL the browser opened: the return page had a code only.
    expect(first.returnUrl).toMatch(/\/acceso\/google\?code=[^&]+$/);

    await signOut(page, login);

    const second = await signInWithGoogle(page, login);
    expect(second.answer.registered).toBe(false);
    expect(second.answer.user.uid).toBe(first.answer.user.uid);
    await expect(page).toHaveURL('/');
  });

  test("an account whose e-mail was never verified becomes Google's verified owner's alone", async ({
    page,
    request,
  }) => {
    // Registered by staff with a password: its e-mail was never proven.
    const email = `clave${stamp()}@gmail.test`;
    const uid = await passwordCustomer(request, email);
    const { answer } = await signInWithGoogle(page, email);
    // The same account, out of the bakery whose staff made it, then a customer of this
    // shop because its owner signed in here: registered anew in the market, by the owner's own hand.
    expect(answer.registered).toBe(true);
    expect(answer.user.uid).toBe(uid);
    await expect(page).toHaveURL('/');
    // The password somebody else chose no longer signs in.
    const signIn = await request.post('/api/identity/sign-in', { data: { email, password: PASSWORD } });
    expect(signIn.status()).toBe(401);
  });

  test('an account whose e-mail the provider has not verified is not linked', async ({
    page,
    request,
    expectConsoleErrors,
  }) => {
    const email = `sinverificar${stamp()}@gmail.test`;
    await passwordCustomer(request, email);
    await leaveIssuer(page);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Continuar con Google' }).click();
    await signInAtIssuer(page, `${email}${UNVERIFIED}`);
    await expect(page).toHaveURL(/\/acceso\/google\?error=unverified$/);
    await expect(page.getByRole('alert')).toHaveText(
      'Google no tiene verificado ese correo, así que no lo usamos para iniciar sesión. Si ya tienes una cuenta, inicia sesión con tu contraseña.',
    );
    await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
    expectConsoleErrors();
    await expectNoSeriousAxeViolations(page, '/acceso/google?error=unverified');
    await page.screenshot({ path: shot('google-unverified-375.png'), fullPage: true });
  });

  test('a tampered state ends on a Spanish error page', async ({ page }) => {
    // The state the browser carries to "Google" (and back) is changed on the way: it no longer matches the
    // one the server bound to this browser's flow cookie.
    await page.route('**/api/identity/google/start**', async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const location = new URL(response.headers()['location']!);
      location.searchParams.set('state', 'manipulado');
      await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
    });
    await leaveIssuer(page);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Continuar con Google' }).click();
    await signInAtIssuer(page, `estado${stamp()}@gmail.test`);
    await expect(page).toHaveURL(/\/acceso\/google\?error=state$/);
    await expect(page.getByRole('alert')).toContainText('No pudimos confirmar que este inicio de sesión con Google');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
  });

  test('a code used once is refused the second time with a Spanish message', async ({ page, expectConsoleErrors }) => {
    expectConsoleErrors(400);
    const login = `codigo${stamp()}@gmail.test`;
    const { returnUrl } = await signInWithGoogle(page, login);
    await expect(page).toHaveURL('/');
    await signOut(page, login);
    await page.goto(returnUrl);
    await expect(page.getByRole('alert')).toHaveText(
      'Este inicio de sesión con Google ya se usó o venció. Intenta de nuevo.',
    );
    await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
  });

  test('redirect=https://evil.test/ is not followed; a path of ours the role may open is', async ({ page }) => {
    const visitedEvil: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).hostname === 'evil.test') visitedEvil.push(r.url());
    });
    const login = `destino${stamp()}@gmail.test`;
    await leaveIssuer(page);
    await page.goto('/api/identity/google/start?redirect=https://evil.test/');
    await signInAtIssuer(page, login);
    await expect(page).toHaveURL('/');
    await expect(accountButton(page, firstName(login))).toBeVisible();
    expect(visitedEvil).toEqual([]);

    await signOut(page, login);
    await leaveIssuer(page);
    await page.goto('/api/identity/google/start?redirect=//evil.test/x');
    await signInAtIssuer(page, login);
    await expect(page).toHaveURL('/');

    await signOut(page, login);
    await leaveIssuer(page);
    await page.goto('/login?redirect=/customer/history');
    await page.getByRole('link', { name: 'Continuar con Google' }).click();
    await signInAtIssuer(page, login);
    await expect(page).toHaveURL('/customer/history');
    expect(visitedEvil).toEqual([]);
  });
});
