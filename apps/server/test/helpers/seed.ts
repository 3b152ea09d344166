import { seedDemo } from '../../src/seed';
import { DEMO_COMPANY_ID } from '../../src/seed/ids';
import { seedDemoAccounts } from '../../src/modules/identity/demo-accounts';
import type { WriteScope } from '../../src/resources/service';
import type { TestApp } from './app';

/**
 * The demo seed as `npm start` runs it, on a test app: La Espiga and, in the same transaction, its
 * demo accounts. `after` runs last in that transaction (a test's crash before the commit).
 */
export function seedDemoInto(
  t: TestApp,
  opts: { accounts?: boolean; log?: (m: string) => void; after?: (scope: WriteScope) => Promise<void> } = {},
) {
  const identity = t.app.modules.identity;
  return seedDemo({
    db: t.db,
    clock: t.clock,
    resources: t.app.resources,
    dataDir: t.dataDir,
    storage: t.app.ctx.storage,
    log: opts.log,
    inTransaction: async (scope) => {
      if (opts.accounts !== false) await seedDemoAccounts(identity, DEMO_COMPANY_ID, scope);
      await opts.after?.(scope);
    },
  });
}
