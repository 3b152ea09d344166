import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CapacityWarning, CompanyParams, WindowBooking, type SettingsInput } from '@hornada/domain';
import { z } from 'zod';
import { servePublic } from './serve-public';
import { writeLimit } from '../plugins/rate-limit';
import { settingsResource } from './definitions/settings';
import { asSent, stripReadOnly } from './routes';
import { getCompany } from './tenant';
import { openToGuests } from '../plugins/auth';

/** The answers, declared for the OpenAPI document and sent as they are (routes.ts's `answers`). */
const settingsRecord = settingsResource.record.describe(
  'The settings. A guest and a customer receive the public ones only (not productionLeadDays nor targetMargin).',
);
const written = z.object({
  data: settingsRecord,
  warnings: z.array(CapacityWarning),
});

/**
 * GET, PUT and PATCH /api/companies/{companyId}/settings: the singleton resource's routes (no id). A write
 * answers `{data, warnings}`: `warnings` lists the windows whose capacity is now under what an upcoming day
 * already holds (the orders are kept). `GET …/settings/window-bookings` gives each window's busiest
 * upcoming day, so the settings screen warns before saving.
 */
export function registerSettingsRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = app.resources.settings;
  const path = '/api/companies/:companyId/settings';
  const tags = ['settings'];
  const writes = writeLimit(app);

  r.get(
    path,
    {
      config: openToGuests(),
      serializerCompiler: asSent,
      schema: {
        tags,
        summary: 'Read the settings (public part for everyone)',
        params: CompanyParams,
        // Partial: a guest and a customer get the public part (admins and staff all of it).
        response: { 200: z.object({ data: settingsRecord.partial() }) },
      },
    },
    async (req, reply) => {
      const c = await getCompany(app.ctx, req.params.companyId);
      const produce = async () => ({ data: await service.get(req.rc) });
      if (!service.readsAll(req.rc)) return servePublic(req, reply, c.id, 'settings', 'public', produce);
      return reply.send(await produce());
    },
  );

  r.get(
    `${path}/window-bookings`,
    {
      schema: {
        tags,
        summary: "Each delivery window's busiest upcoming day (orders not cancelled)",
        params: CompanyParams,
        response: { 200: z.object({ data: z.array(WindowBooking) }) },
      },
    },
    async (req) => {
      // The company's 404 first.
      await getCompany(app.ctx, req.params.companyId);
      return { data: await service.windowBookings(req.rc) };
    },
  );

  r.put(
    path,
    {
      ...writes,
      preValidation: stripReadOnly(),
      serializerCompiler: asSent,
      schema: {
        tags,
        summary: 'Replace the settings',
        params: CompanyParams,
        body: settingsResource.input,
        response: { 200: written },
      },
    },
    async (req) => {
      // The company's 404 first.
      await getCompany(app.ctx, req.params.companyId);
      const { record, warnings } = await service.write(req.rc, req.body, 'replace');
      return { data: record, warnings };
    },
  );

  r.patch(
    path,
    {
      ...writes,
      preValidation: stripReadOnly(),
      serializerCompiler: asSent,
      schema: {
        tags,
        summary: 'Change some settings',
        params: CompanyParams,
        body: settingsResource.patch,
        response: { 200: written },
      },
    },
    async (req) => {
      // The company's 404 first.
      await getCompany(app.ctx, req.params.companyId);
      const { record, warnings } = await service.write(req.rc, req.body as Partial<SettingsInput>, 'merge');
      return { data: record, warnings };
    },
  );
}
