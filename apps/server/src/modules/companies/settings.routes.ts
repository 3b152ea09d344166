import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SettingsInput, toPatchSchema } from '@hornada/domain';
import { z } from 'zod';
import { stripReadOnly } from '../../resources/routes';
import { getCompany, readSettings, settingsFullRead, writeSettings } from './company.service';
import { servePublic } from '../../live/serve-public';
import { writeLimit } from '../../plugins/rate-limit';

const params = z.object({ companyId: z.string().min(1).max(64) });
const SettingsPatch = toPatchSchema(SettingsInput);

export function registerSettingsRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const path = '/api/companies/:companyId/settings';
  const tags = ['settings'];
  const writes = writeLimit(app);

  r.get(
    path,
    { schema: { tags, summary: 'Read the settings (public part for everyone)', params } },
    async (req, reply) => {
      const c = await getCompany(app.ctx, req.params.companyId);
      const produce = async () => ({ data: await readSettings(app.ctx, req.caller, c.id) });
      if (!settingsFullRead(req.caller, c.id)) return servePublic(req, reply, c.id, 'settings', 'public', produce);
      return produce();
    },
  );

  r.put(
    path,
    {
      ...writes,
      preValidation: stripReadOnly(),
      schema: { tags, summary: 'Replace the settings', params, body: SettingsInput },
    },
    async (req) => {
      const c = await getCompany(app.ctx, req.params.companyId);
      return { data: await writeSettings(app.ctx, req.caller, c.id, req.body, 'replace') };
    },
  );

  r.patch(
    path,
    {
      ...writes,
      preValidation: stripReadOnly(),
      schema: { tags, summary: 'Change some settings', params, body: SettingsPatch },
    },
    async (req) => {
      const c = await getCompany(app.ctx, req.params.companyId);
      return { data: await writeSettings(app.ctx, req.caller, c.id, req.body as Partial<SettingsInput>, 'merge') };
    },
  );
}
