import { canonicalHash } from '../lib/canonical-hash';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, IDEMPOTENCY_HEADER, IdempotencyKey, IF_MATCH_HEADER } from '@hornada/domain';
import { z } from 'zod';
import type { RequestContext } from '../request-context';
import { asUser } from './actor';
import type { Db, Tx } from '../db';
import { idempotencyKeys } from '../db/schema';
import type { Clock } from '../lib/clock';
import { AppError, conflict, pgErrorCode } from '../lib/errors';
import { writeAccess } from './access';
import type { ServedResource, WriteScope } from './service';
import { withJobLock } from '../lib/job-lock';

/**
 * Replay-safe resource writes: a driver's phone replays what it queued offline, a form is
 * sent twice. `Idempotency-Key`: the first write's answer is kept with the key (per caller), claimed in
 * the write's own transaction, so a replay, even one arriving while the first still runs (it waits on
 * the key's row), gets that answer and writes nothing. `If-Match`: the record's version (etagOf its
 * updatedAt) is compared under the row lock the write then holds, so a stale replay is a 412 and never
 * overwrites a newer state. Without either header a write runs exactly as before.
 */

/** How long a key answers replays; older keys are forgotten (and pruned). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
const PRUNE_INTERVAL_MS = 3600_000;

/** The headers of resource writes, for validation (a malformed key is a 400) and the OpenAPI document. */
export const writeHeaders = z.looseObject({
  [IDEMPOTENCY_HEADER]: IdempotencyKey.optional(),
  [IF_MATCH_HEADER]: z.string().max(2000).optional(),
});

export interface GuardedWrite {
  service: ServedResource;
  action: 'create' | 'update' | 'delete';
  companyId: string;
  /** The record a PUT, PATCH or DELETE names: its If-Match is checked. */
  id?: string;
  status: 200 | 201;
  /** The write itself, through the resource's service, in the scope given (if any). */
  write: (scope?: WriteScope) => Promise<unknown>;
}

interface Answer {
  status: number;
  body: string;
  replayed: boolean;
  etag?: string;
}

/** A stable hash of the request: method, path and body with keys sorted at every level. */
function requestHash(req: FastifyRequest): string {
  return canonicalHash([req.method, req.url.split('?')[0], req.body ?? null]);
}

/** Whether an If-Match header names the current version: `*`, or one of its (strong) tags. */
export function ifMatchHolds(header: string, updatedAt: Date): boolean {
  const current = etagOf(updatedAt);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === current;
  });
}

/** The version of a single record in a `{data}` answer; none for a list (bulk). */
function etagOfData(data: unknown): string | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const at = (data as { updatedAt?: unknown }).updatedAt;
  return at instanceof Date || typeof at === 'string' ? etagOf(at) : undefined;
}

/**
 * Claims the key for this write, or returns the answer it already gave. The insert waits on a copy of
 * this request still running with the key (the primary key's row is theirs until they commit), then
 * finds its answer; a key older than the TTL is taken over.
 */
async function claim(tx: Tx, userId: string, key: string, hash: string, now: Date): Promise<Answer | null> {
  const fresh = { requestHash: hash, status: 0, response: null, createdAt: now };
  const claimed = await tx
    .insert(idempotencyKeys)
    .values({ userId, key, ...fresh })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: fresh,
      setWhere: lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)),
    })
    .returning({ key: idempotencyKeys.key });
  if (claimed.length > 0) return null;
  const [kept] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  if (kept?.requestHash !== hash) {
    throw new AppError(409, 'idempotency_mismatch', 'This Idempotency-Key was used with another request');
  }
  // A committed key always holds its answer; 0 would be a bug, answered as a conflict, never as a 2xx.
  if (kept.status === 0 || kept.response === null) throw conflict('This Idempotency-Key has no stored answer');
  return { status: kept.status, body: kept.response, replayed: true };
}

/**
 * The record's current version under a row lock held until the write commits: a stale If-Match is a
 * 412. A record that is not there, or that the caller may not read, is left to the service's 404.
 */
async function checkPrecondition(tx: Tx, w: GuardedWrite, rc: RequestContext, ifMatch: string): Promise<void> {
  const t = w.service.def.table;
  const [row] = (await tx
    .select({ updatedAt: t.updatedAt })
    .from(t as PgTable)
    .where(and(eq(t.id, w.id!), eq(t.companyId, w.companyId), isNull(t.deletedAt)))
    .for('update')) as { updatedAt: Date }[];
  if (!row || ifMatchHolds(ifMatch, row.updatedAt)) return;
  // Only a caller who may see the record learns that it moved on; the others get its 404.
  await w.service.get(rc, w.id!);
  throw new AppError(
    412,
    'precondition_failed',
    `This ${w.service.def.label.toLowerCase()} has changed since the version in If-Match; read it again`,
  );
}

function send(reply: FastifyReply, answer: Answer): FastifyReply {
  // A replay carries the version the first answer had (it may have moved on since: If-Match will say).
  const etag = answer.replayed ? etagOfData((JSON.parse(answer.body) as { data?: unknown }).data) : answer.etag;
  if (etag) void reply.header('etag', etag);
  if (answer.replayed) void reply.header('idempotent-replayed', 'true');
  return reply.status(answer.status).type('application/json; charset=utf-8').send(answer.body);
}

/** Runs a resource write under its Idempotency-Key and If-Match, when the request carries them. */
export async function replaySafe(req: FastifyRequest, reply: FastifyReply, w: GuardedWrite): Promise<FastifyReply> {
  const headers = req.headers as Record<string, string | undefined>;
  const key = headers[IDEMPOTENCY_HEADER];
  const ifMatch = w.id ? headers[IF_MATCH_HEADER] : undefined;
  const caller = req.caller;
  if ((key === undefined && ifMatch === undefined) || !caller) {
    const data = await w.write();
    const etag = etagOfData(data);
    if (etag) void reply.header('etag', etag);
    return reply.status(w.status).send({ data });
  }
  // Role, tenant and grant first: a caller who may not write learns nothing from a key or a version.
  writeAccess(w.service.def.name, asUser(caller), w.companyId, w.action);
  const ctx = req.server.ctx;
  const hash = key === undefined ? '' : requestHash(req);
  let answer: Answer;
  try {
    answer = await req.server.resources.transaction(w.companyId, async (scope) => {
      if (key !== undefined) {
        const kept = await claim(scope.tx, caller.uid, key, hash, ctx.clock.now());
        if (kept) return kept;
      }
      if (ifMatch !== undefined) await checkPrecondition(scope.tx, w, req.rc, ifMatch);
      const data = await w.write(scope);
      const body = JSON.stringify({ data });
      if (key !== undefined) {
        await scope.tx
          .update(idempotencyKeys)
          .set({ status: w.status, response: body })
          .where(and(eq(idempotencyKeys.userId, caller.uid), eq(idempotencyKeys.key, key)));
      }
      return { status: w.status, body, replayed: false, etag: etagOfData(data) };
    });
  } catch (err) {
    // As the service answers a unique violation when it owns the transaction.
    if (pgErrorCode(err) === '23505') throw conflict(`A ${w.service.def.label} with these values already exists`);
    throw err;
  }
  return send(reply, answer);
}

/** Deletes keys past the TTL; returns how many. */
export async function pruneIdempotencyKeys(db: Db, clock: Clock): Promise<number> {
  const res = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS)));
  return res.rowCount ?? 0;
}

const pruning = new WeakSet<FastifyInstance>();

/** Prunes the app's keys every hour (once an app, however many resources register). */
export function keepKeysBounded(app: FastifyInstance): void {
  if (pruning.has(app)) return;
  pruning.add(app);
  const timer = setInterval(() => {
    // One instance prunes at a time (job-lock.ts); the others skip this hour's run.
    withJobLock(app.ctx.db, 'idempotency-prune', () => pruneIdempotencyKeys(app.ctx.db, app.ctx.clock)).catch(
      (err: unknown) => app.log.warn({ err }, 'idempotency keys prune failed'),
    );
  }, PRUNE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
