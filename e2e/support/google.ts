import type { Page, Response } from '@playwright/test';
import { expect } from '../fixtures';

/** The login that the local issuer (oidc-issuer.ts) treats as an unverified e-mail. */
export const UNVERIFIED = '#no-verificado';

/**
 * The test issuer's dev sign-in page loads a web font from the internet, which this machine cannot reach:
 * answered here with an empty stylesheet so the page loads without a network error.
 */
export async function quietIssuerFonts(page: Page): Promise<void> {
  await page.route('https://fonts.googleapis.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
  );
}

/**
 * Forgets the issuer's own session (its cookies share the host 127.0.0.1 with the app's), so its sign-in
 * page asks again: each test signs in at "Google" as whom it says.
 */
export async function leaveIssuer(page: Page): Promise<void> {
  for (const name of ['_session', '_session.sig']) await page.context().clearCookies({ name });
}

/** Signs in at the issuer's page (any password) and gives consent; the browser then returns to the app. */
export async function signInAtIssuer(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('cualquier-clave');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

export interface GoogleAuthAnswer {
  registered: boolean;
  user: { uid: string; email: string; role: string; companyId: string | null };
}

/**
 * From /login: "Continuar con Google", the issuer's pages, then the app's exchange and docs/product.md §7's
 * google-auth; returns google-auth's answer and the return page's URL (its single-use code).
 */
export async function signInWithGoogle(
  page: Page,
  login: string,
): Promise<{ answer: GoogleAuthAnswer; returnUrl: string }> {
  await leaveIssuer(page);
  await page.goto('/login');
  let returnUrl = '';
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().includes('/acceso/google?code=')) returnUrl = frame.url();
  });
  const googleAuth = page.waitForResponse(
    (r: Response) => r.url().endsWith('/api/auth/google-auth') && r.request().method() === 'POST',
  );
  await page.getByRole('link', { name: 'Continuar con Google' }).click();
  await signInAtIssuer(page, login);
  const res = await googleAuth;
  expect(res.status(), await res.text()).toBe(200);
  const answer = ((await res.json()) as { data: GoogleAuthAnswer }).data;
  return { answer, returnUrl };
}
