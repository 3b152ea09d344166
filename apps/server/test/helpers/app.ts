import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Role } from '@hornada/domain';
import { SettingsInput } from '@hornada/domain';
import { buildApp } from '../../src/app';
import { parseConfig } from '../../src/config';
import { createDb, type Db } from '../../src/db';
import { companies, settings, users } from '../../src/db/schema';
import type { Clock } from '../../src/lib/clock';
import { newId } from '../../src/lib/ids';
import { cheapPasswordHashingForTests } from '../../src/lib/passwords';
import { createKeyStore, type KeyStore } from '../../src/lib/keys';
import { createTestDatabase } from './db';

/** A clock tests move by hand. */
export class TestClock implements Clock {
  constructor(private current = new Date('2026-11-22T15:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  set(iso: string | Date): void {
    this.current = new Date(iso);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestUser {
  uid: string;
  email: string;
  role: Role;
  companyId: string | null;
  token: string;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: TestClock;
  keys: KeyStore;
  dataDir: string;
  /** Set when started with `listen: true` (event streams need a real socket). */
  baseUrl: string;
  /** Another instance of the app on the same database, listening on port 0 (docs/design.md §8). */
  secondInstance(): Promise<{ app: FastifyInstance; baseUrl: string; close(): Promise<void> }>;
  /** A company with default settings. */
  company(name?: string): Promise<string>;
  /** A user row with a verified e-mail (the identity issue adds credentials) and a valid id token naming it. */
  user(role: Role, companyId: string | null): Promise<TestUser>;
  /** app.inject with JSON helpers. */
  call(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse & { body: string }>;
  close(): Promise<void>;
}

/** Boots the real app on a fresh database (docs/design.md §8). */
export async function setupTestApp(
  opts: { clock?: TestClock; listen?: boolean; env?: Record<string, string>; loggerInstance?: FastifyBaseLogger } = {},
): Promise<TestApp> {
  // Before the app starts: the identity module computes its dummy hash at start.
  cheapPasswordHashingForTests();
  const { url, drop } = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hornada-app-'));
  // No background geocoding unless a test asks for it (GEOCODER=stand-in): its writes would move orders under tests.
  const config = parseConfig({
    DATA_DIR: dataDir,
    SEED_DEMO: 'off',
    NODE_ENV: 'test',
    PORT: '0',
    GEOCODER: 'off',
    ...opts.env,
  });
  const db = createDb(url, 5, config.dbStatementTimeoutMs);
  const clock = opts.clock ?? new TestClock();
  const keys = await createKeyStore({ dataDir, issuer: config.publicUrl });
  const app = await buildApp({ config, db, clock, keys, loggerInstance: opts.loggerInstance });
  await app.ready();
  let baseUrl = '';
  if (opts.listen) baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });

  return {
    app,
    db,
    clock,
    keys,
    dataDir,
    baseUrl,
    async secondInstance() {
      const db2 = createDb(url, 5, config.dbStatementTimeoutMs);
      const app2 = await buildApp({ config, db: db2, clock, keys });
      const base = await app2.listen({ port: 0, host: '127.0.0.1' });
      return {
        app: app2,
        baseUrl: base,
        async close() {
          await app2.close();
          await db2.$client.end();
        },
      };
    },
    async company(name = 'Panadería de prueba') {
      const id = newId();
      const now = clock.now();
      await db.insert(companies).values({ id, name, createdAt: now, updatedAt: now });
      await db
        .insert(settings)
        .values({ companyId: id, data: SettingsInput.parse({ marketName: name }), updatedAt: now });
      return id;
    },
    async user(role, companyId) {
      const uid = newId();
      const email = `${role}-${uid.slice(0, 8)}@prueba.test`.toLowerCase();
      const now = clock.now();
      // An established account: its e-mail verified (acting as a bakery needs it).
      await db.insert(users).values({
        id: uid,
        email,
        name: `Usuario ${role}`,
        role,
        companyId,
        emailVerified: true,
        createdAt: now,
        updatedAt: now,
      });
      const token = await keys.sign({ sub: uid }, { now });
      return { uid, email, role, companyId, token };
    },
    async call({ token, ...rest }) {
      const headers = { ...(rest.headers ?? {}) } as Record<string, string>;
      if (token) headers.authorization = `Bearer ${token}`;
      return app.inject({ ...rest, headers });
    },
    async close() {
      await app.close();
      await db.$client.end();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON body, typed by the caller. */
export const json = <T = Record<string, unknown>>(res: { body: string }) => JSON.parse(res.body) as T;

/** The refresh cookie a response sets, as `name=value` for a Cookie header. */
export function refreshCookieOf(res: { headers: Record<string, unknown> }): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw.map(String) : raw ? [String(raw)] : [];
  const c = list.find((x) => x.startsWith('hornada_refresh='));
  return c?.split(';')[0];
}

/** A system admin's token per app, to read the outbox. */
const roots = new WeakMap<TestApp, string>();

/** Identity calls the identity tests share: registration, sign-in and a bakery of one's own. */
export function identityCalls(t: TestApp, password: string) {
  const signIn = (email: string, pw = password, headers: Record<string, string> = {}) =>
    t.call({ method: 'POST', url: '/api/identity/sign-in', payload: { email, password: pw }, headers });
  const registerAdmin = (email: string, pw = password, name = 'Dueña de Panadería') =>
    t.call({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: pw, name, role: 'company_admin' },
    });
  const tokenOf = async (email: string, pw = password) => {
    const res = await signIn(email, pw);
    if (res.statusCode !== 200) throw new Error(`sign-in of ${email}: ${res.statusCode} ${res.body}`);
    return json<{ data: { idToken: string } }>(res).data.idToken;
  };
  /**
   * Opens the verification link mailed to `email` (read from the outbox as a system admin would). A user
   * someone else created got no link: `resend` signs in and asks for one, as that user would; `accept` keeps
   * such an account in the bakery that made it (else the proof takes it out).
   */
  const verifyEmail = async (email: string, resend = false, accept = false) => {
    if (resend) {
      const sent = await t.call({
        method: 'POST',
        url: '/api/identity/verify-email/resend',
        token: await tokenOf(email),
      });
      if (sent.statusCode !== 200) throw new Error(`resend to ${email}: ${sent.statusCode} ${sent.body}`);
    }
    let root = roots.get(t);
    if (!root) roots.set(t, (root = (await t.user('system_admin', null)).token));
    for (let i = 0; i < 100; i++) {
      const box = await t.call({ method: 'GET', url: '/api/outbox?per_page=100', token: root });
      const mails = json<{ data: { to: string; subject: string; text: string }[] }>(box).data;
      const link = mails.find((m) => m.to === email && /Confirma/.test(m.subject))?.text.match(/\?token=([^\s"&<]+)/);
      if (link) {
        const res = await t.call({
          method: 'POST',
          url: '/api/identity/verify-email',
          payload: { token: decodeURIComponent(link[1]!), ...(accept ? { accept } : {}) },
        });
        if (res.statusCode !== 200) throw new Error(`verify ${email}: ${res.statusCode} ${res.body}`);
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no verification mail to ${email}`);
  };
  /**
   * Registers a company admin, verifies its e-mail through the mailed link, signs in and creates a bakery;
   * returns its re-issued token and ids.
   */
  const bakery = async (email: string, extra: Record<string, unknown> = {}) => {
    const reg = await registerAdmin(email);
    if (reg.statusCode !== 201) throw new Error(`register ${email}: ${reg.statusCode} ${reg.body}`);
    const uid = json<{ data: { user: { uid: string } } }>(reg).data.user.uid;
    await verifyEmail(email);
    const created = await t.call({
      method: 'POST',
      url: '/api/companies',
      token: await tokenOf(email),
      payload: { name: `Panadería ${email}`, ...extra },
    });
    if (created.statusCode !== 201) throw new Error(`createBakery ${email}: ${created.statusCode} ${created.body}`);
    const companyId = json<{ data: { company: { id: string } } }>(created).data.company.id;
    return { uid, companyId, token: await tokenOf(email) };
  };
  return { signIn, registerAdmin, tokenOf, bakery, verifyEmail };
}
