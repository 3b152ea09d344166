import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '../fixtures';
import { DEMO, apiToken, marketCompanyId, shot } from './session';

/** The demo admin's calls on the market company's API, for a journey's set-up, checks and clean-up. */
export interface AdminApi {
  companyId: string;
  call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, data?: unknown): Promise<T>;
  dispose(): Promise<void>;
}

export async function adminApi(request: APIRequestContext): Promise<AdminApi> {
  const companyId = await marketCompanyId(request);
  const token = await apiToken(request, DEMO.admin);
  return {
    companyId,
    async call<T>(method: string, path: string, data?: unknown) {
      const res = await request.fetch(`/api/companies/${companyId}/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}` },
        ...(data === undefined ? {} : { data }),
      });
      expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
      return res.status() === 204 ? (undefined as T) : ((await res.json()) as { data: T }).data;
    },
    dispose: () => request.dispose(),
  };
}

/** The whole page at `width`, in a window as tall as the page (a full-page capture scatters sticky parts). */
export async function pageShot(page: Page, width: number, name: string) {
  await page.setViewportSize({ width, height: 900 });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await page.screenshot({ path: shot(name) });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * The page at 375 and 1280 px as `<name>-375.png` and `<name>-1280.png`, having checked that it fits 375 px
 * without sideways scroll (unless `fits: false`); the viewport is `back` afterwards (1280 × 900 by default).
 */
export async function shotsAtBothWidths(
  page: Page,
  name: string,
  options: { fullPage?: boolean; fits?: boolean; back?: { width: number; height: number } } = {},
) {
  const { fullPage = true, fits = true, back = { width: 1280, height: 900 } } = options;
  await page.setViewportSize({ width: 375, height: 812 });
  await page.evaluate(() => window.scrollTo(0, 0));
  if (fits) {
    const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(scrollWidth, `${name} fits 375 px`).toBeLessThanOrEqual(375);
  }
  await page.screenshot({ path: shot(`${name}-375.png`), fullPage });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: shot(`${name}-1280.png`), fullPage });
  await page.setViewportSize(back);
}
