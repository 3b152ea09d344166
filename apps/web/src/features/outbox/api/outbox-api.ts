import type { OutboxMail } from '@hornada/domain/outbox';
import { endpoints } from '../../../lib/api/endpoints';
import { screenRead, type ScreenRead } from '../../../lib/api/screen-read';

/** Mails a page of the outbox shows. */
export const OUTBOX_PAGE_SIZE = 20;

/** The view an address asks for: the address searched (`?q=`, all when blank) and the page (`?pagina=`). */
export function outboxView(params: URLSearchParams): { search: string; page: number } {
  const page = Number(params.get('pagina'));
  return { search: params.get('q')?.trim() ?? '', page: Number.isInteger(page) && page > 1 ? page : 1 };
}

/**
 * A page of GET /api/outbox, newest first, of the mails whose address contains the search: the outbox screen's
 * loader. Not live: the outbox is no company's resource; "Actualizar" reads it again.
 */
export async function loadOutbox({
  request,
}: {
  request: Request;
}): Promise<ScreenRead<{ mails: OutboxMail[]; total: number }>> {
  const { search, page } = outboxView(new URL(request.url).searchParams);
  const query = { page, per_page: OUTBOX_PAGE_SIZE, ...(search ? { q: search } : {}) };
  return screenRead(async () => {
    const answer = await endpoints.outbox(query, request.signal);
    return { mails: answer.items, total: answer.total };
  });
}
