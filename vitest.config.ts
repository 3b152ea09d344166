import { defineConfig } from 'vitest/config';

/**
 * One Vitest run, five projects: pure domain logic, the scripts, the web's logic, its components in jsdom, and the
 * server on a real PostgreSQL.
 */
export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker: every server file would wait its turn while most of its
    // time is spent waiting on PostgreSQL. Three keep both cores busy (each file has its own database).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'scripts',
          include: ['scripts/**/*.test.mjs'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.ts', 'apps/web/src/**/*.test.tsx'],
          exclude: ['apps/web/src/**/*.dom.test.tsx'],
          environment: 'node',
        },
      },
      {
        // Components rendered in jsdom and driven as a person would (Testing Library): a form's own behaviour,
        // without a browser and a server (docs/testing.md).
        test: {
          name: 'components',
          include: ['apps/web/src/**/*.dom.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/testing/setup-dom.ts'],
          // A bound for a hung test only: a person's clicks and typing in jsdom took 5–10 s a test on this
          // two-core machine while the server suite ran beside them (Vitest's default of 5 s failed them).
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/test/helpers/global-setup.ts'],
          // Bounds for a hung test only, never a figure a test asserts: wide enough that a machine shared with
          // other work (three workers, and whatever else runs) does not fail the heavy ones (the permission
          // table, the demo seed) for being slow.
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Two cores: files run in parallel, each on its own database copied from the template.
          pool: 'forks',
          // A worker keeps the server's modules loaded from one file to the next: importing the app (Fastify,
          // drizzle, sharp, the domain) took longer than most files' tests. Each file still boots its own app
          // on its own database, and no server module keeps state between apps (a WeakMap per instance at most).
          isolate: false,
        },
      },
    ],
  },
});
