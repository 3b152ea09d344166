import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '../fixtures';

/** The demo accounts (docs/design.md §7), all with the demo password. */
export const DEMO = {
  root: 'root@hornada.test',
  admin: 'admin@hornada.test',
  staff: 'staff@hornada.test',
  customer: 'cliente@hornada.test',
  driver: 'domicilios@hornada.test',
  production: 'produccion@hornada.test',
} as const;
export const DEMO_PASSWORD = 'hornada-demo';

/** Screenshots a person looks at after a run: e2e/screenshots/<name> (gitignored; Playwright empties test-results on each run). */
export const shot = (name: string) => fileURLToPath(new URL(`../screenshots/${name}`, import.meta.url));

/** Signs in through the /login form of the page it is on (or opens /login first). */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  if (!new URL(page.url(), 'http://x').pathname.startsWith('/login')) await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

/**
 * Signs the page's browser context in through the API, then opens /login, which sends a signed-in person to
 * their landing page: where `signIn` leaves them, without the form (about 50 ms against 1-3 s). For journeys
 * that are not about signing in. The refresh cookie lands in the context's jar; the id token is written
 * where the web keeps it (apps/web/src/lib/auth/token-storage.ts, auth-store.ts) before the app's first script,
 * once, so a sign-out later in the journey stays signed out. A fresh session per journey, never a shared
 * one: refresh tokens rotate and a reused one revokes its whole family.
 */
export async function signInByApi(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  const context = page.context();
  const res = await context.request.post('/api/identity/sign-in', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  const { idToken, user } = ((await res.json()) as { data: { idToken: string; user: SessionJson } }).data;
  await context.addInitScript(
    ({ idToken, user }) => {
      const seeded = `e2e-seeded:${idToken.slice(-16)}`;
      if (sessionStorage.getItem(seeded)) return;
      sessionStorage.setItem(seeded, '1');
      localStorage.setItem('auth-token', idToken);
      localStorage.setItem('auth-email', user.email);
      if (user.name) localStorage.setItem('auth-name', JSON.stringify({ uid: user.uid, name: user.name }));
    },
    { idToken, user },
  );
  await page.goto('/login');
  await expect(page).not.toHaveURL(/\/login/);
}
type SessionJson = { uid: string; email: string; name: string };

/** The account menu's button once the header knows the user. */
export const accountButton = (page: Page, firstName: string) =>
  page.getByRole('banner').getByRole('button', { name: firstName });

/**
 * Clicks «Cerrar Sesión» in the header's account menu. The menu closes on a scroll (docs/product.md §2) while a
 * screen settles, so it is opened until it stays; both clicks are bounded and retried together (a click on the
 * item waiting while the menu closed again held a test until its timeout). What follows is the caller's: the
 * driver's phone may first warn of moves not yet sent.
 */
export async function clickSignOut(page: Page, firstName: string): Promise<void> {
  const item = page.getByRole('banner').getByRole('button', { name: 'Cerrar Sesión' });
  await expect(async () => {
    if (!(await item.isVisible())) await accountButton(page, firstName).click({ timeout: 2_000 });
    await item.click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** Signs out from the account menu, as a person does, and waits until the header offers «Ingresar». */
export async function signOutFromMenu(page: Page, firstName: string): Promise<void> {
  await clickSignOut(page, firstName);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
}

/** An id token for API calls made by the test itself: use a request context of its own (`playwright.request.newContext`): one that shares the page's cookies would sign the page in too. */
export async function apiToken(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await request.post('/api/identity/sign-in', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: { idToken: string } }).data.idToken;
}

export async function marketCompanyId(request: APIRequestContext): Promise<string> {
  const res = await request.get('/api/config');
  return ((await res.json()) as { data: { companyId: string } }).data.companyId;
}

/** axe on the page as it is (or with its transitions held at their start): no violation of serious or critical impact (each one found is printed). */
export async function expectNoSeriousAxeViolations(
  page: Page,
  label: string,
  options: { atTransitionStart?: boolean } = {},
): Promise<void> {
  if (options.atTransitionStart) {
    // Every transition under way held at its start: what a person sees first must be readable too (a button
    // enabled a moment ago faded in from its disabled opacity through unreadable contrast).
    await page.evaluate(() => {
      for (const animation of document.getAnimations()) {
        animation.pause();
        animation.currentTime = 0;
      }
    });
  }
  // Legacy mode runs axe.run in the page itself (its same-origin frames included; the app has no iframes)
  // instead of a partial run per frame finished in a blank page of its own, and only violations are
  // detailed: the same verdicts, measured 1.2 s a screen against 4-5 s (axe ran on 107 screens).
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of serious) {
    console.log(
      `axe ${label}: ${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`,
    );
  }
  expect(
    serious.map((v) => v.id),
    `serious or critical axe violations on ${label}`,
  ).toEqual([]);
}

/**
 * The page at `path`, whatever view its screen added to the query (the orders screen writes its default
 * range, `?date_field=dueDate&start_date=today`, into the URL).
 */
export const landedOn = (path: string) =>
  new RegExp(`^https?://[^/]+${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(\\?.*)?$`);
