import { CART_MAX_QUANTITY } from '@hornada/domain/constants';
import { formatMoney } from '@hornada/domain/format';
import { unitPriceFor, type B2bTerms } from '@hornada/domain/order-pricing';
import { endSentence, normaliseKey } from '@hornada/domain/text';
import { Minus, Plus, Search, StickyNote, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { UseFieldArrayReturn, UseFormReturn } from 'react-hook-form';
import { inputClass } from '../../components/auth-card';
import { FieldMessages, fieldAria } from '../../components/forms/fields';
import { FormSection } from '../../components/forms/form-layout';
import { iconButtonClass } from '../../components/ui/button';
import type { B2bClient, Product } from './api';
import { formatPercent, priceRuleOf, type PriceRule } from './entry-rules';
import { quantityOf, type EntryForm } from './entry-form';

/** How many products the search shows at once (a bakery has tens; the list scrolls). */
const SHOWN = 40;

export function ruleText(rule: PriceRule, client: B2bClient | null): string | null {
  if (rule === 'client') return 'Precio del cliente';
  if (rule === 'b2b') return 'Precio mayorista';
  if (rule === 'discount') return `Lista menos ${formatPercent(client?.discountPercent ?? 0)}`;
  return null;
}

/** Products: search and add, then each line's quantity (buttons or typed), note and removal. */
export function LinesSection({
  form,
  lines,
  products,
  terms,
  client,
}: {
  form: UseFormReturn<EntryForm>;
  lines: UseFieldArrayReturn<EntryForm, 'items'>;
  products: Product[];
  terms: B2bTerms | null;
  client: B2bClient | null;
}) {
  const { register, getValues, setValue, formState } = form;
  const { errors } = formState;
  const [query, setQuery] = useState('');
  const [notesOpen, setNotesOpen] = useState<ReadonlySet<string>>(new Set());
  const key = normaliseKey(query.trim());
  const matches = products.filter((p) => key === '' || normaliseKey(p.name).includes(key)).slice(0, SHOWN);
  const byId = new Map(products.map((p) => [p.id, p]));
  const validate = { shouldDirty: true, shouldValidate: formState.isSubmitted } as const;

  function add(product: Product) {
    const items = getValues('items');
    const at = items.findIndex((l) => l.productId === product.id);
    if (at >= 0) {
      const q = quantityOf(items[at]!.quantity);
      setValue(`items.${at}.quantity`, String(Math.min(CART_MAX_QUANTITY, (Number.isNaN(q) ? 0 : q) + 1)), validate);
    } else {
      lines.append({ productId: product.id, quantity: '1', notes: '' }, { shouldFocus: false });
    }
  }
  function step(index: number, by: number) {
    const q = quantityOf(getValues(`items.${index}.quantity`));
    const next = Math.max(1, Math.min(CART_MAX_QUANTITY, (Number.isNaN(q) ? 0 : q) + by));
    setValue(`items.${index}.quantity`, String(next), validate);
  }

  const searchId = 'entry-product-search';
  const priceOf = (p: Product) => unitPriceFor(p, terms);
  return (
    <FormSection title="Productos">
      <div>
        <label htmlFor={searchId} className="font-medium text-stone-800">
          Buscar producto
        </label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 mt-0.5 size-4 -translate-y-1/2 text-stone-500"
            aria-hidden="true"
          />
          <input
            id={searchId}
            type="search"
            autoComplete="off"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              // Enter adds the first match: the counter's quickest way to take a line.
              if (e.key !== 'Enter') return;
              e.preventDefault();
              if (matches[0] && key !== '') {
                add(matches[0]);
                setQuery('');
              }
            }}
            aria-describedby={`${searchId}-hint`}
            className={`${inputClass} pl-9`}
          />
        </div>
        <p id={`${searchId}-hint`} className="mt-1 text-sm text-stone-600">
          {client
            ? `${endSentence(`Precios de ${client.businessName}`)} Enter agrega el primero de la lista.`
            : 'Precios de lista. Enter agrega el primero de la lista.'}
        </p>
        {products.length === 0 ? (
          <p className="mt-2 text-stone-600">No hay productos activos en el catálogo.</p>
        ) : matches.length === 0 ? (
          <p className="mt-2 text-stone-600">Ningún producto activo coincide con «{query.trim()}».</p>
        ) : (
          <ul
            aria-label="Productos para agregar"
            className="mt-2 grid max-h-64 grid-cols-[minmax(0,1fr)] gap-1 overflow-y-auto rounded-lg border border-stone-200 p-1 sm:grid-cols-2"
          >
            {matches.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  onClick={() => add(p)}
                  aria-label={`Agregar ${p.name}`}
                  className="flex min-h-11 w-full items-center justify-between gap-2 rounded-md px-2 py-1.5 text-left hover:bg-amber-50 focus-visible:outline-2 focus-visible:outline-amber-900"
                >
                  <span className="min-w-0 truncate text-stone-900">{p.name}</span>
                  <span className="flex shrink-0 items-center gap-1 tabular-nums text-stone-700">
                    {formatMoney(priceOf(p))}
                    <Plus className="size-4 text-amber-900" aria-hidden="true" />
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>

      {lines.fields.length === 0 ? (
        <p className="rounded-lg border border-dashed border-stone-300 px-3 py-4 text-center text-stone-600">
          Aún no hay productos en el pedido.
        </p>
      ) : (
        <ul aria-label="Productos del pedido" className="divide-y divide-stone-200 rounded-lg border border-stone-200">
          {lines.fields.map((field, index) => {
            const p = byId.get(field.productId);
            const name = p?.name ?? 'Producto no disponible';
            const unit = p ? priceOf(p) : 0;
            const rule = p ? ruleText(priceRuleOf(p, terms), client) : null;
            const q = quantityOf(form.watch(`items.${index}.quantity`));
            const lineErrors = errors.items?.[index];
            const qtyId = `entry-line-${field.id}-quantity`;
            const noteId = `entry-line-${field.id}-notes`;
            const showNote = notesOpen.has(field.id) || form.watch(`items.${index}.notes`) !== '';
            return (
              <li key={field.id} className="grid gap-2 px-3 py-3">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="font-medium text-stone-900">{name}</p>
                    <p className="text-sm text-stone-600">
                      <span className="tabular-nums">{formatMoney(unit)}</span> c/u
                      {rule ? (
                        <span className="ml-2 inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-950">
                          {rule}
                        </span>
                      ) : null}
                    </p>
                  </div>
                  <p className="shrink-0 font-semibold tabular-nums text-stone-900" data-testid="line-total">
                    <span className="sr-only">Total de {name}: </span>
                    {formatMoney(Number.isInteger(q) && q > 0 ? unit * q : 0)}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  <div role="group" aria-label={`Cantidad de ${name}`} className="flex items-center gap-1">
                    <button
                      type="button"
                      className={`${iconButtonClass} border border-stone-300`}
                      onClick={() => step(index, -1)}
                      disabled={q <= 1}
                      aria-label={`Quitar uno de ${name}`}
                    >
                      <Minus className="size-4" aria-hidden="true" />
                    </button>
                    <label htmlFor={qtyId} className="sr-only">
                      Cantidad de {name}
                    </label>
                    <input
                      id={qtyId}
                      inputMode="numeric"
                      autoComplete="off"
                      {...register(`items.${index}.quantity`)}
                      {...fieldAria(qtyId, undefined, lineErrors?.quantity?.message)}
                      className="h-9 w-16 rounded-lg border border-stone-300 text-center tabular-nums focus-visible:outline-2 focus-visible:outline-amber-900 aria-invalid:border-red-700"
                    />
                    <button
                      type="button"
                      className={`${iconButtonClass} border border-stone-300`}
                      onClick={() => step(index, 1)}
                      aria-label={`Agregar uno de ${name}`}
                    >
                      <Plus className="size-4" aria-hidden="true" />
                    </button>
                  </div>
                  <button
                    type="button"
                    className={`${iconButtonClass} w-auto gap-1 px-2 text-sm`}
                    onClick={() => setNotesOpen((s) => new Set(s).add(field.id))}
                    aria-expanded={showNote}
                    aria-controls={showNote ? noteId : undefined}
                    disabled={showNote}
                  >
                    <StickyNote className="size-4" aria-hidden="true" />
                    Nota
                  </button>
                  <button
                    type="button"
                    className={`${iconButtonClass} ml-auto w-auto gap-1 px-2 text-sm text-red-800`}
                    onClick={() => lines.remove(index)}
                    aria-label={`Quitar ${name} del pedido`}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                    <span className="hidden sm:inline">Quitar</span>
                  </button>
                </div>
                <FieldMessages id={qtyId} error={lineErrors?.quantity?.message ?? lineErrors?.productId?.message} />
                {showNote ? (
                  <div>
                    <label htmlFor={noteId} className="text-sm font-medium text-stone-800">
                      Nota para {name} <span className="font-normal text-stone-600">(opcional)</span>
                    </label>
                    <input
                      id={noteId}
                      autoComplete="off"
                      maxLength={300}
                      {...register(`items.${index}.notes`)}
                      {...fieldAria(noteId, undefined, lineErrors?.notes?.message)}
                      className={inputClass}
                    />
                    <FieldMessages id={noteId} error={lineErrors?.notes?.message} />
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {errors.items?.message ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {errors.items.message}
        </p>
      ) : null}
    </FormSection>
  );
}
