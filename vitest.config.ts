import { defineConfig } from 'vitest/config';

/** One Vitest run, three projects: pure domain logic, the web's logic, and the server on a real PostgreSQL. */
export default defineConfig({
  test: {
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
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/test/helpers/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Two cores: files run in parallel, each on its own database copied from the template.
          pool: 'forks',
        },
      },
    ],
  },
});
