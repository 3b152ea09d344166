import { dayInZone } from '@hornada/domain/days';
import { readForScreen, type ScreenRead } from '../../lib/api/screen-read';
import { readingParams } from '../../lib/live/use-screen-data';
import { standingApi, type ClientStanding } from './standing-api';

/** What the standing orders' read reads of the address: the client whose page it is. */
export const STANDING_READS = ['cliente'] as const;

/**
 * The standing orders of the client `?cliente=` opens (null on the list and the create form): a part of the clients'
 * screen (routes.ts), read when the client changes, not when the list's view or the form does.
 */
export async function loader({ request }: { request: Request }): Promise<ScreenRead<ClientStanding> | null> {
  const id = new URL(request.url).searchParams.get('cliente');
  if (!id) return null;
  return readForScreen(
    async (companyId) => {
      const [settings, list] = await Promise.all([
        standingApi.settings(companyId, request.signal),
        standingApi.ofClient(companyId, id, request.signal),
      ]);
      const today = dayInZone(new Date(), settings.timeZone);
      const made = await standingApi.made(companyId, id, today, request.signal).catch(() => []);
      return { settings, list, made };
    },
    () => 'No pudimos cargar los pedidos recurrentes.',
  );
}

export const shouldRevalidate = readingParams(STANDING_READS);
