import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '../fixtures';

/** The demo accounts (design §7), all with the demo password. */
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

/** The account menu's button once the header knows the user. */
export const accountButton = (page: Page, firstName: string) =>
  page.getByRole('banner').getByRole('button', { name: firstName });

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
  const results = await new AxeBuilder({ page }).analyze();
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
