import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { validationError } from '../lib/errors';
import { ChangesHeaders, ChangesQuery, CompanyParams, isResourceName } from '@hornada/domain';
import { getCompany } from '../resources/tenant';
import { StreamLimits } from '../plugins/stream-limits';
import { readAccess } from '../resources/access';
import type { ResourceDefinition } from '../resources/definition';
import { parseLastEventId } from './feed';
import { HttpSubscriber } from './http-subscriber';
import { openToGuests } from '../plugins/auth';

/**
 * GET /api/companies/{companyId}/changes?resources=a,b — one multiplexed text/event-stream per client
 * (docs/design.md §3). Resume with the Last-Event-ID header (what EventSource sends when it reconnects) or the
 * `last_event_id` parameter.
 */
export function registerLiveRoutes(app: FastifyInstance, definitions: readonly ResourceDefinition[]): void {
  const defs = new Map(definitions.map((d) => [d.name, d]));
  const streamable = [...defs.keys(), 'settings'];
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limits = new StreamLimits(app.ctx.db, app.ctx.config.liveStreams);
  limits.start();
  app.addHook('onClose', async () => limits.stop());

  r.get(
    '/api/companies/:companyId/changes',
    {
      // A guest streams the public resources; visibility.ts decides what each caller receives.
      config: openToGuests(),
      schema: {
        tags: ['live'],
        summary: 'Server-sent events of committed changes',
        params: CompanyParams,
        querystring: ChangesQuery,
        headers: ChangesHeaders,
        response: {
          200: {
            description:
              'A text/event-stream that stays open: first `retry:`, then one message per committed change of a ' +
              'resource asked for, as the caller may read it (`id:` its position, to resume from; `data:` ' +
              '`{resource, changes}`), an `event: reset` when the changes since `Last-Event-ID` are no longer ' +
              'kept (reload what you show), and a `: heartbeat` comment now and then. The refusals before the ' +
              'stream (401, 403, 404, 400, 429) are JSON, as on every other route.',
            content: { 'text/event-stream': { schema: z.string() } },
          },
        },
      },
    },
    async (req, reply) => {
      const company = await getCompany(app.ctx, req.params.companyId);
      const names = [
        ...new Set(
          req.query.resources
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      const unknown = names.filter((n) => !streamable.includes(n));
      if (unknown.length > 0) {
        throw validationError(unknown.map((n) => ({ path: 'query.resources', message: `Unknown resource: ${n}` })));
      }
      // The same rules as a list read: 401 / 403 / 404 before any byte of the stream.
      for (const n of names) if (isResourceName(n)) readAccess(n, req.caller, company.id);
      const lastEventId = parseLastEventId(req.headers['last-event-id'] ?? req.query.last_event_id);

      // Counted from here until the socket closes (a 429 before any byte of the stream).
      const release = await limits.acquire(req);
      reply.hijack();
      const res = reply.raw;
      const live = app.ctx.live;
      const sub = new HttpSubscriber(
        company.id,
        new Set(names),
        req.caller?.uid ?? null,
        req.caller?.tokenIssuedAt ?? null,
        res,
      );
      // Attached before anything else, and a client that left during the checks above is never
      // subscribed ('close' has already fired for it): no subscriber outlives its connection.
      res.once('close', () => {
        live.unsubscribe(sub);
        release();
      });
      if (res.destroyed || req.raw.socket.destroyed) {
        release();
        live.unsubscribe(sub);
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        // The hijacked reply skips Fastify's onSend: the essentials of helmet's headers, stated here.
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cross-origin-resource-policy': 'same-origin',
      });
      sub.open('retry: 3000\n\n: connected\n\n');
      try {
        await live.subscribe(sub, lastEventId);
      } catch (err) {
        // The log could not be read (database down): end with a retry hint; the client resumes later.
        req.log.warn({ err }, 'live subscription failed');
        live.close(sub, 5000);
      }
    },
  );
}
