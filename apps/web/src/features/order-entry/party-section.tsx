import { formatMoney } from '@hornada/domain/format';
import { Search, UserRound } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { inputClass } from '../../components/auth-card';
import { FieldMessages, fieldAria, SelectField, TextField } from '../../components/forms/fields';
import { FormSection } from '../../components/forms/form-layout';
import { secondaryButtonClass } from '../../components/ui/button';
import { orderEntryApi, type B2bClient, type User } from './api';
import { formatPercent, type CreditCheck } from './entry-rules';
import type { EntryForm, Party } from './entry-form';
import type { CreditLoad } from './entry-data';

const PARTIES: { value: Party; label: string; hint: string }[] = [
  { value: 'customer', label: 'Cliente', hint: 'Con cuenta en la tienda' },
  { value: 'b2b', label: 'Cliente B2B', hint: 'Precios mayoristas y crédito' },
  { value: 'walkin', label: 'Sin cuenta', hint: 'Solo nombre y teléfono' },
];

export const radioClass = 'size-5 shrink-0 accent-amber-900';

/** Who the order is for, and the contact the bakery calls (prefilled from the customer or client chosen). */
export function PartySection({
  companyId,
  form,
  clients,
  customer,
  credit,
  check,
  onParty,
  onCustomer,
  onClient,
  onAddress,
}: {
  companyId: string;
  form: UseFormReturn<EntryForm>;
  clients: B2bClient[];
  customer: User | null;
  credit: CreditLoad;
  check: CreditCheck | null;
  onParty: (party: Party) => void;
  onCustomer: (user: User | null) => void;
  onClient: (id: string) => void;
  onAddress: (address: User['addresses'][number]) => void;
}) {
  const { register, watch, formState } = form;
  const { errors } = formState;
  const party = watch('party');
  const clientId = watch('b2bClientId');
  const client = clients.find((c) => c.id === clientId) ?? null;
  return (
    <FormSection title="Cliente">
      <fieldset>
        <legend className="font-medium text-stone-800">¿Para quién es el pedido?</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {PARTIES.map((p) => (
            <label
              key={p.value}
              className={`flex min-h-11 cursor-pointer items-start gap-2 rounded-lg border px-3 py-2 ${party === p.value ? 'border-amber-800 bg-amber-50' : 'border-stone-300'}`}
            >
              <input
                type="radio"
                name="party"
                value={p.value}
                className={`${radioClass} mt-0.5`}
                checked={party === p.value}
                onChange={() => onParty(p.value)}
              />
              <span>
                <span className="block font-medium text-stone-900">{p.label}</span>
                <span className="block text-sm text-stone-600">{p.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      {party === 'customer' ? (
        <CustomerPicker
          companyId={companyId}
          selected={customer}
          onSelect={onCustomer}
          onAddress={onAddress}
          error={errors.customerId?.message}
        />
      ) : null}

      {party === 'b2b' ? (
        <div className="space-y-2">
          <SelectField
            id="entry-b2b-client"
            label="Cliente B2B"
            options={clients.map((c) => ({ value: c.id, label: c.businessName }))}
            emptyLabel={clients.length === 0 ? 'No hay clientes B2B activos' : 'Elige un cliente B2B'}
            registration={register('b2bClientId', {
              onChange: (e: { target: { value: string } }) => onClient(e.target.value),
            })}
            error={errors.b2bClientId?.message}
          />
          {client ? <ClientTerms client={client} credit={credit} check={check} /> : null}
        </div>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="entry-contact-name"
          label="Nombre de contacto"
          autoComplete="off"
          registration={register('contact.name')}
          error={errors.contact?.name?.message}
        />
        <TextField
          id="entry-contact-phone"
          label="Teléfono"
          type="tel"
          autoComplete="off"
          registration={register('contact.phone')}
          error={errors.contact?.phone?.message}
        />
        <TextField
          id="entry-contact-email"
          label="Correo"
          labelNote="(opcional)"
          type="email"
          autoComplete="off"
          className="sm:col-span-2"
          registration={register('contact.email')}
          error={errors.contact?.email?.message}
        />
      </div>
    </FormSection>
  );
}

/** The client's terms as staff need them at the counter. */
function ClientTerms({ client, credit, check }: { client: B2bClient; credit: CreditLoad; check: CreditCheck | null }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-lg bg-stone-50 px-3 py-2 text-sm text-stone-700">
      <dt>Descuento</dt>
      <dd className="font-medium tabular-nums">{formatPercent(client.discountPercent)}</dd>
      <dt>Plazo de pago</dt>
      <dd className="font-medium">
        {client.paymentTermsDays === 0 ? 'De contado' : `${client.paymentTermsDays} días`}
      </dd>
      <dt>Cupo de crédito</dt>
      <dd className="font-medium tabular-nums">
        {client.creditLimit > 0 ? formatMoney(client.creditLimit) : 'Sin cupo definido'}
        {client.creditLimit > 0 && credit.state === 'ready' && check ? ` · usado ${formatMoney(check.used)}` : null}
        {credit.state === 'loading' ? ' · consultando lo usado…' : null}
        {credit.state === 'failed' ? ' · no pudimos consultar lo usado' : null}
      </dd>
    </dl>
  );
}

/** Search the bakery's customers (name, e-mail or phone) and pick one; its first address fills the form. */
function CustomerPicker({
  companyId,
  selected,
  onSelect,
  onAddress,
  error,
}: {
  companyId: string;
  selected: User | null;
  onSelect: (user: User | null) => void;
  onAddress: (address: User['addresses'][number]) => void;
  error: string | undefined;
}) {
  const id = 'entry-customer-search';
  const resultsId = useId();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<
    { state: 'idle' } | { state: 'searching' } | { state: 'failed' } | { state: 'done'; users: User[] }
  >({ state: 'idle' });
  const text = query.trim();

  useEffect(() => {
    if (text.length < 2) {
      setFound({ state: 'idle' });
      return;
    }
    const controller = new AbortController();
    setFound({ state: 'searching' });
    // Typing waits a moment before asking, so each letter is not a request.
    const timer = setTimeout(() => {
      orderEntryApi.customers(companyId, text, controller.signal).then(
        (users) => setFound({ state: 'done', users }),
        () => !controller.signal.aborted && setFound({ state: 'failed' }),
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [companyId, text]);

  if (selected) {
    return (
      <div className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-stone-200 bg-stone-50 px-3 py-2">
          <p className="flex items-center gap-2">
            <UserRound className="size-5 text-stone-600" aria-hidden="true" />
            <span>
              <span className="block font-medium text-stone-900">{selected.name}</span>
              <span className="block text-sm text-stone-600">
                {[selected.email, selected.phone].filter(Boolean).join(' · ')}
              </span>
            </span>
          </p>
          <button type="button" className={secondaryButtonClass} onClick={() => onSelect(null)}>
            Cambiar cliente
          </button>
        </div>
        {selected.addresses.length > 1 ? (
          <div>
            <label htmlFor="entry-saved-address" className="font-medium text-stone-800">
              Dirección guardada
            </label>
            <select
              id="entry-saved-address"
              className={inputClass}
              onChange={(e) => {
                const a = selected.addresses[Number(e.target.value)];
                if (a) onAddress(a);
              }}
            >
              {selected.addresses.map((a, i) => (
                <option key={i} value={i}>
                  {[a.label, a.line, a.neighborhood].filter(Boolean).join(' · ')}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
    );
  }

  const hint = 'Escribe al menos 2 letras del nombre, el correo o el teléfono.';
  return (
    <div>
      <label htmlFor={id} className="font-medium text-stone-800">
        Buscar cliente
      </label>
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 mt-0.5 size-4 -translate-y-1/2 text-stone-500"
          aria-hidden="true"
        />
        <input
          id={id}
          type="search"
          autoComplete="off"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            if (found.state === 'done' && found.users.length === 1) onSelect(found.users[0]!);
          }}
          aria-controls={resultsId}
          {...fieldAria(id, hint, error)}
          className={`${inputClass} pl-9`}
        />
      </div>
      <FieldMessages id={id} hint={hint} error={error} />
      <div id={resultsId} aria-live="polite" className="mt-2">
        {found.state === 'searching' ? <p className="text-sm text-stone-600">Buscando…</p> : null}
        {found.state === 'failed' ? (
          <p className="text-sm text-red-800">No pudimos buscar clientes. Intenta de nuevo.</p>
        ) : null}
        {found.state === 'done' && found.users.length === 0 ? (
          <p className="text-sm text-stone-600">
            No encontramos clientes con «{text}». Revisa lo escrito o toma el pedido «Sin cuenta».
          </p>
        ) : null}
        {found.state === 'done' && found.users.length > 0 ? (
          <ul
            aria-label="Clientes encontrados"
            className="divide-y divide-stone-200 rounded-lg border border-stone-200"
          >
            {found.users.map((u) => (
              <li key={u.id}>
                <button
                  type="button"
                  className="flex min-h-11 w-full flex-col items-start px-3 py-2 text-left hover:bg-amber-50 focus-visible:outline-2 focus-visible:outline-amber-900"
                  onClick={() => onSelect(u)}
                >
                  <span className="font-medium text-stone-900">{u.name}</span>
                  <span className="text-sm text-stone-600">{[u.email, u.phone].filter(Boolean).join(' · ')}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
