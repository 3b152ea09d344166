import { useEffect, useState } from 'react';
import type { OutboxMail } from '@hornada/domain/outbox';
import { http } from '../../../lib/api/http';
import { failureText } from '../../../lib/api/failure-text';

/** Mails a page of the outbox shows. */
export const OUTBOX_PAGE_SIZE = 20;

export type OutboxLoad =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; mails: OutboxMail[]; total: number };

/**
 * A page of GET /api/outbox, newest first, of the mails whose address contains `search` (all when blank).
 * Not live: the outbox is no company's resource; "Actualizar" (`reload`) reads it again.
 */
export function useOutbox(search: string, page: number) {
  const [load, setLoad] = useState<OutboxLoad>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    const query = { page, per_page: OUTBOX_PAGE_SIZE, ...(search ? { q: search } : {}) };
    http
      .list<OutboxMail>('/outbox', { query })
      .then((answer) => live && setLoad({ state: 'ready', mails: answer.items, total: answer.total }))
      .catch((err: unknown) => live && setLoad({ state: 'failed', message: failureText(err) }));
    return () => {
      live = false;
    };
  }, [search, page, round]);
  return { load, reload: () => setRound((n) => n + 1) };
}
