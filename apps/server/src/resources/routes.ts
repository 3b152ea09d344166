import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BASE_READ_ONLY, bulkUpdateInput, CompanyParams, etagOf, publicFields, RecordParams } from '@hornada/domain';
import { z } from 'zod';
import { getCompany } from './tenant';
import { hasRelativeDay, listQuerySchema, type ListQuery } from './query';
import { readAccess } from './access';
import { asUser } from './actor';
import { openToGuests } from '../plugins/auth';
import { publicReadLimit, writeLimit } from '../plugins/rate-limit';
import { BULK_BODY_BYTES, underBulkBounds } from '../plugins/bulk-writes';
import { answerFromCache, servePublic, serveSignedIn } from './serve-public';
import type { ServedResource } from './service';
import { keepKeysBounded, replaySafe, writeHeaders } from './idempotency';

// Cache keys within (company, resource). The raw URL names a list read (path and parameters), with no
// need to serialise the parsed query.
const listKey = (req: FastifyRequest) => `list:${req.url}`;
const recordKey = (req: FastifyRequest) => `id:${(req.params as { id: string }).id}`;

/**
 * The answers of a resource's routes, from its definition's `record` (docs/design.md §3): declared in the OpenAPI
 * document and held to what the routes send by `openapi.test.ts`. Sent as they are (`asSent`), not re-encoded
 * through the schema: rows carry Date objects, a replayed write its stored JSON, a public read its cached bytes.
 */
function answers(def: { record: z.ZodObject; label: string }) {
  const record = def.record.describe(
    `A ${def.label.toLowerCase()}. A guest, a customer and the public stream receive its public fields only.`,
  );
  return {
    one: z.object({ data: record }),
    many: z.object({ data: z.array(record) }),
    page: z.object({
      data: z.array(record),
      total: z.number().int(),
      page: z.number().int(),
      perPage: z.number().int(),
    }),
  };
}
/** A route's serializer that sends its answer as JSON as it is (its declared schema documents it). */
export const asSent = () => (data: unknown) => JSON.stringify(data);

/** Read-only fields a GET returned may come back in a write body; they are ignored (docs/design.md §3). */
export function stripReadOnly(extra: readonly string[] = []) {
  const keys = [...BASE_READ_ONLY, ...extra];
  return async (request: FastifyRequest) => {
    const body = request.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const k of keys) delete (body as Record<string, unknown>)[k];
    }
  };
}

function stripReadOnlyInBulk(extra: readonly string[] = []) {
  const strip = stripReadOnly(extra);
  return async (request: FastifyRequest) => {
    const updates = (request.body as { updates?: unknown } | null)?.updates;
    if (!Array.isArray(updates)) return;
    for (const u of updates) {
      if (u && typeof u === 'object') await strip({ body: (u as { data?: unknown }).data } as FastifyRequest);
    }
  };
}

/** The five routes of docs/product.md §7 plus bulk-update, for one resource definition. */
export function registerResource(app: FastifyInstance, service: ServedResource): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const def = service.def;
  const base = `/api/companies/:companyId/${def.name}`;
  const tags = [def.name];
  const strip = stripReadOnly(def.derived);
  // A field derived on read may be a real input on creation (a user's e-mail).
  const createShape = (def.createInput ?? def.input).shape;
  const stripCreate = stripReadOnly((def.derived ?? []).filter((f) => !(f in createShape)));
  const company = (req: { params: { companyId: string } }) => getCompany(app.ctx, req.params.companyId);
  const writes = writeLimit(app);
  const reads = publicReadLimit(app);
  // A resource with public fields is read by guests too (readAccess narrows them); the others need a user.
  const guestReads = publicFields(def.name) ? { config: openToGuests(reads.config) } : {};
  // Writes take Idempotency-Key and (on one record) If-Match: resources/idempotency.ts.
  keepKeysBounded(app);
  const { one, many, page } = answers(def);

  r.get(
    base,
    {
      ...reads,
      ...guestReads,
      preParsing: answerFromCache(def.name, listKey, true),
      serializerCompiler: asSent,
      schema: {
        tags,
        summary: `List ${def.name}`,
        params: CompanyParams,
        querystring: listQuerySchema(def),
        response: { 200: page },
      },
    },
    async (req, reply) => {
      const c = await company(req);
      const query = req.query as ListQuery;
      const produce = () => service.list(req.rc, query, c.timeZone);
      // A relative day (`today`) changes meaning at midnight: such a read is not kept in a cache.
      if (hasRelativeDay(query)) return produce();
      const access = readAccess(def.name, req.caller, c.id);
      if (access === 'public') return servePublic(req, reply, c.id, def.name, listKey(req), produce);
      // A signed-in list, kept per view (serve-public.ts) while the change feed keeps it exact.
      if (req.caller && req.cachesCurrent) {
        const read = { companyId: c.id, resource: def.name, access, caller: req.caller, key: listKey(req) };
        return serveSignedIn(req, reply, read, produce);
      }
      return produce();
    },
  );

  r.get(
    `${base}/:id`,
    {
      ...reads,
      ...guestReads,
      preParsing: answerFromCache(def.name, recordKey),
      serializerCompiler: asSent,
      schema: { tags, summary: `Get a ${def.label.toLowerCase()}`, params: RecordParams, response: { 200: one } },
    },
    async (req, reply) => {
      const c = await company(req);
      const produce = async () => ({ data: await service.get(req.rc, req.params.id) });
      if (readAccess(def.name, req.caller, c.id) === 'public') {
        return servePublic(req, reply, c.id, def.name, recordKey(req), produce);
      }
      // The record's version, for If-Match on its writes (the public reads keep their content ETag).
      const read = await produce();
      void reply.header('etag', etagOf(read.data.updatedAt as Date));
      return read;
    },
  );

  r.post(
    base,
    {
      ...writes,
      serializerCompiler: asSent,
      preValidation: stripCreate,
      schema: {
        tags,
        summary: `Create a ${def.label.toLowerCase()}`,
        params: CompanyParams,
        headers: writeHeaders,
        response: { 201: one },
        body: def.createInput ?? def.input,
      },
    },
    async (req, reply) => {
      const c = await company(req);
      const body = req.body as Record<string, unknown>;
      return replaySafe(req, reply, {
        service,
        action: 'create',
        companyId: c.id,
        status: 201,
        write: (scope) => service.create(asUser(req.caller), c.id, body, scope),
      });
    },
  );

  r.patch(
    `${base}/bulk-update`,
    {
      ...writes,
      serializerCompiler: asSent,
      bodyLimit: BULK_BODY_BYTES,
      preValidation: stripReadOnlyInBulk(def.derived),
      schema: {
        tags,
        summary: `Patch several ${def.name} at once (all or nothing)`,
        params: CompanyParams,
        headers: writeHeaders,
        response: { 200: many },
        body: bulkUpdateInput(def.patch),
      },
    },
    async (req, reply) => {
      const c = await company(req);
      const { updates } = req.body as { updates: { id: string; data: Record<string, unknown> }[] };
      return underBulkBounds(app, req, () =>
        replaySafe(req, reply, {
          service,
          action: 'update',
          companyId: c.id,
          status: 200,
          write: (scope) => service.bulkUpdate(asUser(req.caller), c.id, updates, scope),
        }),
      );
    },
  );

  r.put(
    `${base}/:id`,
    {
      ...writes,
      serializerCompiler: asSent,
      preValidation: strip,
      schema: {
        tags,
        summary: `Replace a ${def.label.toLowerCase()}`,
        params: RecordParams,
        headers: writeHeaders,
        response: { 200: one },
        body: def.input,
      },
    },
    async (req, reply) => {
      const c = await company(req);
      const body = req.body as Record<string, unknown>;
      return replaySafe(req, reply, {
        service,
        action: 'update',
        companyId: c.id,
        id: req.params.id,
        status: 200,
        write: (scope) => service.update(asUser(req.caller), c.id, req.params.id, body, scope),
      });
    },
  );

  r.patch(
    `${base}/:id`,
    {
      ...writes,
      serializerCompiler: asSent,
      preValidation: strip,
      schema: {
        tags,
        summary: `Change some fields of a ${def.label.toLowerCase()}`,
        params: RecordParams,
        headers: writeHeaders,
        response: { 200: one },
        body: def.patch,
      },
    },
    async (req, reply) => {
      const c = await company(req);
      const body = req.body as Record<string, unknown>;
      return replaySafe(req, reply, {
        service,
        action: 'update',
        companyId: c.id,
        id: req.params.id,
        status: 200,
        write: (scope) => service.update(asUser(req.caller), c.id, req.params.id, body, scope),
      });
    },
  );

  r.delete(
    `${base}/:id`,
    {
      ...writes,
      serializerCompiler: asSent,
      schema: {
        tags,
        summary: `Delete a ${def.label.toLowerCase()} (soft)`,
        params: RecordParams,
        headers: writeHeaders,
        response: { 200: one },
      },
    },
    async (req, reply) => {
      const c = await company(req);
      return replaySafe(req, reply, {
        service,
        action: 'delete',
        companyId: c.id,
        id: req.params.id,
        status: 200,
        write: (scope) => service.remove(asUser(req.caller), c.id, req.params.id, scope),
      });
    },
  );
}
