import { expect, test } from './fixtures';
import { DEMO, accountButton, landedOn, signIn } from './support/session';

test.describe('session', () => {
  test('two tabs of one user left open past the token expiry both stay signed in (one refresh at a time)', async ({
    browser,
  }) => {
    const context = await browser.newContext();
    // Both tabs' clocks move together: an hour later both see the token about to expire at the same moment.
    await context.clock.install();
    const refreshes: string[] = [];
    context.on('request', (r) => {
      if (r.url().endsWith('/api/identity/refresh')) refreshes.push(r.url());
    });
    const refused: number[] = [];
    context.on('response', (r) => {
      if (r.url().includes('/api/identity/') && r.status() >= 400) refused.push(r.status());
    });

    const first = await context.newPage();
    await first.goto('/login');
    await signIn(first, DEMO.staff);
    await expect(first).toHaveURL(landedOn('/dashboard/orders'));
    const second = await context.newPage();
    await second.goto('/dashboard/products');
    await expect(second.getByRole('heading', { level: 1 })).toHaveText('Productos');
    for (const page of [first, second]) await expect(accountButton(page, 'Julián')).toBeVisible();

    const before = refreshes.length;
    await context.clock.fastForward('01:00:00');
    await expect.poll(() => refreshes.length - before, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    // Let the other tab take its turn under the lock: it adopts the new token, or (its clock being an hour
    // off the server's here) rotates again with the new cookie; never both at once with the same cookie,
    // which the server would take for theft and answer by revoking the session (a 401).
    await first.waitForTimeout(1_500);
    expect(refused, 'identity calls refused').toEqual([]);

    for (const page of [first, second]) {
      await expect(accountButton(page, 'Julián')).toBeVisible();
      // An authenticated navigation still passes the guard, and the session survives a reload.
      await page
        .getByRole('navigation', { name: 'Panel de la panadería' })
        .getByRole('link', { name: 'Recetas' })
        .click();
      await expect(page).toHaveURL('/dashboard/recipes');
      await page.reload();
      await expect(accountButton(page, 'Julián')).toBeVisible();
      await expect(page).toHaveURL('/dashboard/recipes');
    }
    expect(refused, 'identity calls refused').toEqual([]);
    await context.close();
  });
});
