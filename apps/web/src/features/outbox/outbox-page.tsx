import { formatDateTime } from '@hornada/domain/format';
import type { OutboxMail } from '@hornada/domain/outbox';
import { Search } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AreaPage } from '../../components/area-page';
import { EmptyState } from '../../components/empty-state';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { secondaryButtonClass } from '../../components/ui/button';
import { loadOutbox, OUTBOX_PAGE_SIZE, outboxView } from './api/outbox-api';
import { useScreenData } from '../../lib/live/use-screen-data';
import { useScreenLoading } from '../../lib/use-screen-loading';

/** Typing pauses this long before the search is made: one read per word, not per key. */
const SEARCH_DELAY_MS = 300;

/**
 * Dashboard › Correos sin enviar: without SMTP_URL nobody receives mail, so the system admin reads
 * here what each person was sent (a verification, a password link, an invitation) and passes its link on.
 * Newest first, searchable by address; the search is kept in the URL (`?q=`) so it can be shared and reloaded.
 */
export const loader = loadOutbox;

export function Component() {
  const [params, setParams] = useSearchParams();
  const { search, page } = outboxView(params);
  const [typed, setTyped] = useState(search);
  const { data: load, reload } = useScreenData(loader, null, []);
  const switching = useScreenLoading();
  const setPage = useCallback(
    (next: number) =>
      setParams(
        (current) => {
          const p = new URLSearchParams(current);
          if (next > 1) p.set('pagina', String(next));
          else p.delete('pagina');
          return p;
        },
        { replace: true },
      ),
    [setParams],
  );
  const inputId = useId();

  useEffect(() => {
    const next = typed.trim();
    if (next === search) return;
    // A new search starts at its first page.
    const timer = setTimeout(() => setParams(next ? { q: next } : {}, { replace: true }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, search, setParams]);

  const pages = load.state === 'ready' ? Math.max(1, Math.ceil(load.data.total / OUTBOX_PAGE_SIZE)) : 1;
  // A page past the end (an old link, mails pruned since): its last page instead.
  const pastEnd = load.state === 'ready' && load.data.total > 0 && page > pages;
  useEffect(() => {
    if (pastEnd) setPage(pages);
  }, [pastEnd, pages, setPage]);

  return (
    <AreaPage
      title="Correos sin enviar"
      actions={
        <button type="button" className={secondaryButtonClass} onClick={reload}>
          Actualizar
        </button>
      }
    >
      <p className="max-w-prose text-stone-700">
        No hay un servidor de correo configurado (<code>SMTP_URL</code>): los correos quedan aquí. Busca el de la
        persona y envíale su enlace por otro medio.
      </p>
      <form role="search" className="mt-4 max-w-md" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={inputId} className="block text-sm font-medium text-stone-800">
          Buscar por correo
        </label>
        <div className="relative mt-1">
          <Search
            className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-stone-500"
            aria-hidden="true"
          />
          <input
            id={inputId}
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="nombre@correo.com"
            autoComplete="off"
            className="w-full rounded-lg border border-stone-300 bg-white py-2 pl-9 pr-3 focus-visible:outline-2 focus-visible:outline-amber-700"
          />
        </div>
      </form>
      <div className="mt-6">
        {switching ? (
          <LoadingStatus>Cargando los correos…</LoadingStatus>
        ) : load.state === 'failed' ? (
          <LoadFailed message={load.message} onRetry={reload} />
        ) : load.data.mails.length === 0 ? (
          search ? (
            <EmptyState title={`Ningún correo a una dirección con «${search}».`}>
              <p>Revisa cómo está escrita o busca solo una parte, como el nombre antes de la @.</p>
            </EmptyState>
          ) : (
            <EmptyState title="No hay correos sin enviar.">
              <p>
                Cuando alguien se registre, recupere su contraseña o reciba una invitación, su correo aparecerá aquí.
              </p>
            </EmptyState>
          )
        ) : (
          <>
            <p role="status" className="text-sm text-stone-600">
              {load.data.total === 1 ? '1 correo' : `${load.data.total.toLocaleString('es-CO')} correos`}
              {search ? ` a direcciones con «${search}»` : ''}
            </p>
            <ol className="mt-3 space-y-4" aria-label="Correos">
              {load.data.mails.map((mail) => (
                <MailCard key={mail.id} mail={mail} />
              ))}
            </ol>
            {pages > 1 ? (
              <nav aria-label="Páginas de correos" className="mt-5 flex items-center justify-between gap-3">
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={page <= 1}
                  onClick={() => setPage(page - 1)}
                >
                  Más recientes
                </button>
                <span className="text-sm text-stone-700">
                  Página {page} de {pages}
                </span>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={page >= pages}
                  onClick={() => setPage(page + 1)}
                >
                  Más antiguos
                </button>
              </nav>
            ) : null}
          </>
        )}
      </div>
    </AreaPage>
  );
}

function MailCard({ mail }: { mail: OutboxMail }) {
  const headingId = useId();
  return (
    <li aria-labelledby={headingId} className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={headingId} className="font-semibold text-stone-900">
          {mail.subject}
        </h2>
        <time dateTime={mail.createdAt} className="text-sm text-stone-600">
          {formatDateTime(mail.createdAt)}
        </time>
      </div>
      <p className="mt-1 break-all text-sm text-stone-700">
        Para: <span className="font-medium text-stone-900">{mail.to}</span>
      </p>
      <div className="mt-3 whitespace-pre-wrap break-words rounded-lg bg-stone-50 p-3 text-sm text-stone-800">
        <LinkedText text={mail.text} />
      </div>
    </li>
  );
}

/** Links of our own mails (http or https), made clickable; the rest as written. */
const URL_PATTERN = /https?:\/\/[^\s<>"]+/g;

function LinkedText({ text }: { text: string }) {
  const parts: (string | { href: string })[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const at = match.index;
    if (at > last) parts.push(text.slice(last, at));
    parts.push({ href: match[0] });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return (
    <>
      {parts.map((part, i) =>
        typeof part === 'string' ? (
          part
        ) : (
          <a
            key={i}
            href={part.href}
            className="break-all font-medium text-amber-900 underline focus-visible:outline-2 focus-visible:outline-amber-700"
          >
            {part.href}
          </a>
        ),
      )}
    </>
  );
}
