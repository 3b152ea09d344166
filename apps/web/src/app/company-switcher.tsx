import { Building2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { secondaryButtonClass } from '../components/ui/button';
import { chooseActingCompany, useActingCompany, type ActingCompany } from '../lib/acting-company';
import { endpoints } from '../lib/api/endpoints';
import { useRootData } from './root-layout';

/**
 * The system admin's company switcher, at the top of the dashboard: the bakeries with a search;
 * the chosen one is the company every back-office screen then reads and writes by its path.
 */
export function CompanySwitcher() {
  const chosen = useActingCompany();
  const config = useRootData().config;
  const market: ActingCompany | null = config.companyId ? { id: config.companyId, name: config.marketName } : null;
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [companies, setCompanies] = useState<ActingCompany[] | null>(null);
  const [failed, setFailed] = useState(false);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    let live = true;
    // A short pause so that typing a name is one request, not one a letter.
    const timer = setTimeout(() => {
      endpoints
        .companies({ search: search.trim() || undefined, per_page: 20 })
        .then((res) => {
          if (!live) return;
          setCompanies(res.items);
          setFailed(false);
        })
        .catch(() => live && setFailed(true));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [open, search]);

  const current = chosen ?? market;
  return (
    <section aria-label="Panadería" className="border-b border-amber-200 bg-amber-50 px-4 py-2 sm:px-6">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-3">
        <Building2 className="size-5 text-amber-900" aria-hidden="true" />
        <p className="text-sm text-stone-800">
          Actúas sobre <strong className="font-semibold">{current?.name ?? '…'}</strong>
        </p>
        <button
          type="button"
          className={`${secondaryButtonClass} py-1 text-sm`}
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen((o) => !o)}
        >
          Cambiar de panadería
        </button>
      </div>
      {open ? (
        <div id={`${id}-panel`} className="mx-auto mt-2 max-w-7xl pb-2">
          <label htmlFor={`${id}-search`} className="block text-sm font-medium text-stone-800">
            Buscar panadería
          </label>
          <input
            id={`${id}-search`}
            type="search"
            autoComplete="off"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="mt-1 block w-full max-w-md rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900"
          />
          {failed ? (
            <p role="alert" className="mt-2 text-sm text-red-800">
              No pudimos cargar las panaderías. Intenta de nuevo.
            </p>
          ) : companies === null ? (
            <p className="mt-2 text-sm text-stone-600">Cargando…</p>
          ) : companies.length === 0 ? (
            <p className="mt-2 text-sm text-stone-600">Ninguna panadería coincide con la búsqueda.</p>
          ) : (
            <ul aria-label="Panaderías" className="mt-2 grid max-w-md gap-1">
              {companies.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    aria-current={c.id === current?.id ? 'true' : undefined}
                    onClick={() => {
                      chooseActingCompany(c);
                      setOpen(false);
                    }}
                    className={`w-full rounded-lg px-3 py-2 text-left text-sm ${
                      c.id === current?.id
                        ? 'bg-amber-200 font-semibold text-amber-950'
                        : 'bg-white text-stone-800 hover:bg-stone-100'
                    }`}
                  >
                    {c.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </section>
  );
}
