import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { fromDatabaseError, pgErrorCode } from '../../src/lib/errors';
import { registerErrorHandling } from '../../src/plugins/errors';
import { setupTestApp, type TestApp } from '../helpers/app';

/** Health, the documentation page, and the error handler's safety net for database errors. */
let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => {
  await t?.close();
});

const json = <T = Record<string, unknown>>(res: { body: string }) => JSON.parse(res.body) as T;

/** A connection to the server's maintenance database, to act on this file's database from outside. */
async function admin<T>(fn: (client: pg.Client, dbName: string) => Promise<T>): Promise<T> {
  const url = new URL(inject('templateUrl'));
  url.pathname = '/postgres';
  const dbName = new URL(t.db.$client.options.connectionString!).pathname.slice(1);
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await fn(client, dbName);
  } finally {
    await client.end();
  }
}

describe('GET /api/health', () => {
  it('answers 503 while the database does not answer, and 200 again once it does', async () => {
    expect((await t.call({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    await admin(async (c, name) => {
      // No new connections, and every open one cut: the pool has nothing to answer with.
      await c.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    });
    try {
      const down = await t.call({ method: 'GET', url: '/api/health' });
      expect(down.statusCode).toBe(503);
      expect(json(down)).toEqual({
        message: 'Database unavailable',
        error: 'Database unavailable',
        code: 'unavailable',
      });
    } finally {
      await admin((c, name) => c.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`));
    }
    const up = await t.call({ method: 'GET', url: '/api/health' });
    expect(up.statusCode).toBe(200);
    expect(json(up)).toEqual({ data: { status: 'ok' } });
  });
});

describe('GET /api/docs', () => {
  it('serves a browsable HTML page that loads the OpenAPI document', async () => {
    const page = await t.call({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toMatch(/<html/i);
    expect(page.body).toContain('swagger-ui');
    const init = await t.call({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('json');
  });
});

describe('database errors that get past validation', () => {
  /** A bare Fastify with our error handler and routes that make PostgreSQL fail on purpose. */
  async function probeApp() {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    const fail = (statement: string) => async () => {
      await t.db.execute(sql.raw(statement));
      return { data: null };
    };
    app.get('/bad-integer', fail(`SELECT '1.5'::int`));
    app.get('/out-of-range', fail(`SELECT 99999999999::int`));
    app.get('/nul', fail(`SELECT convert_from('\\x610062'::bytea, 'UTF8')`));
    app.get('/bad-date', fail(`SELECT '2026-02-30'::date`));
    app.get('/duplicate', fail(`CREATE TEMP TABLE dup (v int UNIQUE); INSERT INTO dup VALUES (1), (1)`));
    app.get('/serialization', async () => {
      throw Object.assign(new Error('could not serialize access'), { code: '40001' });
    });
    app.get('/deadlock', async () => {
      // As drizzle throws it: the driver's error in `cause`.
      throw Object.assign(new Error('Failed query: UPDATE … params: secret'), {
        cause: Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      });
    });
    app.get('/other', fail(`SELECT * FROM no_such_table`));
    await app.ready();
    return app;
  }

  it('answers data errors with 400, duplicates and deadlocks with 409, and never leaks SQL', async () => {
    const app = await probeApp();
    try {
      const expectations: [string, number, string][] = [
        ['/bad-integer', 400, 'validation'],
        ['/out-of-range', 400, 'validation'],
        ['/nul', 400, 'validation'],
        ['/bad-date', 400, 'validation'],
        ['/duplicate', 409, 'conflict'],
        ['/serialization', 409, 'conflict'],
        ['/deadlock', 409, 'conflict'],
        ['/other', 500, 'internal'],
      ];
      for (const [url, status, code] of expectations) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
        const body = json<{ message: string; error: string; code: string }>(res);
        expect(body.code, url).toBe(code);
        expect(body.error).toBe(body.message);
        expect(res.body, url).not.toMatch(/SELECT|INSERT|UPDATE|params|secret|no_such_table|::|dup |bytea/i);
      }
      const retry = json<{ message: string }>(await app.inject({ method: 'GET', url: '/deadlock' }));
      expect(retry.message).toMatch(/retry/);
    } finally {
      await app.close();
    }
  });

  it('reads the SQLSTATE through wrappers and ignores Node error codes', () => {
    expect(pgErrorCode({ code: '22P02' })).toBe('22P02');
    expect(pgErrorCode({ message: 'x', cause: { code: '22021' } })).toBe('22021');
    expect(pgErrorCode(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBeUndefined();
    expect(fromDatabaseError({ code: '22008' })?.statusCode).toBe(400);
    expect(fromDatabaseError({ code: '42P01' })).toBeNull();
    expect(fromDatabaseError(new Error('plain'))).toBeNull();
  });
});
