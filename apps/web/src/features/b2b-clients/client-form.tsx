import { formatMoney } from '@hornada/domain/format';
import { B2bClientInput } from '@hornada/domain/schemas/b2b';
import { Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { CheckboxField, FieldMessages, TextAreaField, TextField } from '../../components/forms/fields';
import { FormActions, FormSection, ResourceFormPage } from '../../components/forms/form-layout';
import { optionalText, parseDecimal, parseWhole, textOf } from '../../components/forms/form-values';
import { readRecord, useResourceForm } from '../../components/forms/use-resource-form';
import { inputClass } from '../../components/auth-card';
import { iconButtonClass, secondaryButtonClass } from '../../components/ui/button';
import { b2bApi, type B2bClient, type Product } from './api';
import { b2bLinks } from './links';
import { StandingOrdersSection } from './standing-orders-section';

interface PriceRow {
  productId: string;
  price: string;
}

export interface ClientFormValues {
  businessName: string;
  taxId: string;
  contactName: string;
  phone: string;
  email: string;
  address: string;
  discountPercent: string;
  prices: PriceRow[];
  paymentTermsDays: string;
  creditLimit: string;
  active: boolean;
}

const EMPTY: ClientFormValues = {
  businessName: '',
  taxId: '',
  contactName: '',
  phone: '',
  email: '',
  address: '',
  discountPercent: '',
  prices: [],
  paymentTermsDays: '',
  creditLimit: '',
  active: true,
};

const toForm = (c: B2bClient): ClientFormValues => ({
  businessName: c.businessName,
  taxId: textOf(c.taxId),
  contactName: textOf(c.contactName),
  phone: textOf(c.phone),
  email: textOf(c.email),
  address: textOf(c.address),
  discountPercent: c.discountPercent ? String(c.discountPercent) : '',
  prices: c.prices.map((p) => ({ productId: p.productId, price: String(p.price) })),
  paymentTermsDays: c.paymentTermsDays ? String(c.paymentTermsDays) : '',
  creditLimit: c.creditLimit ? String(c.creditLimit) : '',
  active: c.active,
});

/** Empty numbers take the schema's default (0); anything else must be one. */
const whole = (value: string) => (value.trim() === '' ? undefined : parseWhole(value));

export const toInput = (form: ClientFormValues) => ({
  businessName: form.businessName,
  taxId: optionalText(form.taxId),
  contactName: optionalText(form.contactName),
  phone: optionalText(form.phone),
  email: optionalText(form.email),
  address: optionalText(form.address),
  discountPercent: form.discountPercent.trim() === '' ? undefined : parseDecimal(form.discountPercent),
  prices: form.prices.map((p) => ({ productId: p.productId, price: parseWhole(p.price) })),
  paymentTermsDays: whole(form.paymentTermsDays),
  creditLimit: whole(form.creditLimit),
  active: form.active,
});

const isField = (path: string) =>
  /^(businessName|taxId|contactName|phone|email|address|discountPercent|paymentTermsDays|creditLimit|active|prices(\.\d+\.(productId|price))?)$/.test(
    path,
  );

interface ClientExtras {
  /** The catalogue its prices are chosen from (none when it cannot be read: prices cannot be added then). */
  products: Product[];
  /** What the client owes now; null for a new client or when it cannot be read. */
  balance: number | null;
}

/** The client `?cliente=` names (none for `?nuevo`), the catalogue and what the client owes. */
export const clientFormLoader = ({ request }: { request: Request }) => {
  const id = new URL(request.url).searchParams.get('cliente');
  return readRecord<B2bClient, ClientExtras>('b2bClients', id, async (companyId) => {
    const [products, balances] = await Promise.all([
      b2bApi.products(companyId, request.signal).catch(() => []),
      id ? b2bApi.balances(companyId, request.signal).catch(() => null) : null,
    ]);
    return { products, balance: id && balances ? (balances.get(id) ?? 0) : null };
  });
};

/** A client's page: its form (create or edit), what it owes now, and (once saved) its standing orders. */
export function ClientForm({ id }: { id?: string }) {
  const rf = useResourceForm<B2bClient, ClientFormValues, ClientExtras>({
    resource: 'b2bClients',
    id,
    loader: clientFormLoader,
    schema: B2bClientInput,
    empty: EMPTY,
    toForm,
    toInput,
    isField,
    listPath: b2bLinks.list,
    savedMessage: (c, created) =>
      created ? `Registramos a «${c.businessName}».` : `Guardamos los cambios de «${c.businessName}».`,
  });
  const { products, balance } = rf.load.state === 'ready' ? rf.load.more : { products: [], balance: null };
  const companyId = rf.companyId;

  return (
    <ResourceFormPage
      title={id ? 'Cliente mayorista' : 'Nuevo cliente mayorista'}
      backTo={b2bLinks.list}
      backLabel="Clientes mayoristas"
      rf={rf}
      after={(client) =>
        client && companyId ? <StandingOrdersSection companyId={companyId} client={client} products={products} /> : null
      }
    >
      {() => <Fields form={rf.form} products={products} balance={balance} />}
    </ResourceFormPage>
  );
}

function Fields({
  form,
  products,
  balance,
}: {
  form: UseFormReturn<ClientFormValues>;
  products: Product[];
  balance: number | null;
}) {
  const { register, formState } = form;
  const errors = formState.errors;
  return (
    <>
      {balance !== null ? (
        <p className="rounded-2xl border border-amber-200 bg-amber-50 p-4 text-stone-900" data-testid="b2b-balance">
          Saldo pendiente: <strong className="text-lg">{formatMoney(balance)}</strong>
          <span className="block text-sm text-stone-700">Pedidos sin pagar y sin cancelar de este cliente.</span>
        </p>
      ) : null}
      <FormSection title="Empresa">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            id="b2b-name"
            label="Razón social"
            registration={register('businessName')}
            error={errors.businessName?.message}
          />
          <TextField
            id="b2b-tax-id"
            label="NIT"
            labelNote="(con dígito de verificación)"
            placeholder="900123456-8"
            inputMode="numeric"
            registration={register('taxId')}
            error={errors.taxId?.message}
          />
          <TextField
            id="b2b-contact"
            label="Contacto"
            labelNote="(opcional)"
            registration={register('contactName')}
            error={errors.contactName?.message}
          />
          <TextField
            id="b2b-phone"
            label="Teléfono"
            labelNote="(opcional)"
            type="tel"
            registration={register('phone')}
            error={errors.phone?.message}
          />
          <TextField
            id="b2b-email"
            label="Correo"
            labelNote="(opcional)"
            type="email"
            registration={register('email')}
            error={errors.email?.message}
          />
          <TextAreaField
            id="b2b-address"
            label="Dirección"
            labelNote="(opcional)"
            rows={2}
            registration={register('address')}
            error={errors.address?.message}
          />
        </div>
      </FormSection>
      <FormSection title="Condiciones comerciales">
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            id="b2b-discount"
            label="Descuento (%)"
            inputMode="decimal"
            hint="Sobre el precio de lista, para productos sin precio propio ni mayorista."
            registration={register('discountPercent')}
            error={errors.discountPercent?.message}
          />
          <TextField
            id="b2b-terms"
            label="Plazo de pago (días)"
            inputMode="numeric"
            hint="0 es de contado; hasta 120."
            registration={register('paymentTermsDays')}
            error={errors.paymentTermsDays?.message}
          />
          <TextField
            id="b2b-credit"
            label="Cupo de crédito"
            inputMode="numeric"
            hint="En pesos; 0 es sin cupo fijado."
            registration={register('creditLimit')}
            error={errors.creditLimit?.message}
          />
        </div>
        <CheckboxField
          id="b2b-active"
          label="Activo"
          hint="Un cliente inactivo no recibe pedidos nuevos."
          registration={register('active')}
        />
      </FormSection>
      <PricesSection form={form} products={products} />
      <FormActions saving={formState.isSubmitting} cancelTo={b2bLinks.list} submitLabel="Guardar cliente" />
    </>
  );
}

/** The client's own prices: a product picker, each row with the list and wholesale price beside it. */
function PricesSection({ form, products }: { form: UseFormReturn<ClientFormValues>; products: Product[] }) {
  const { control, register, formState } = form;
  const { fields, append, remove } = useFieldArray({ control, name: 'prices' });
  const chosen = useWatch({ control, name: 'prices' });
  const [pick, setPick] = useState('');
  const byId = useMemo(() => new Map(products.map((p) => [p.id, p])), [products]);
  const taken = new Set(chosen.map((p) => p.productId));
  const offered = products.filter((p) => !taken.has(p.id));
  const add = () => {
    const product = byId.get(pick);
    if (!product) return;
    append({ productId: product.id, price: String(product.b2bPrice ?? product.price) });
    setPick('');
  };
  const errors = formState.errors.prices;
  return (
    <FormSection
      title="Precios propios"
      description="Tienen prioridad sobre el precio mayorista del producto y sobre el descuento."
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="grow">
          <label htmlFor="b2b-price-pick" className="font-medium text-stone-800">
            Producto
          </label>
          <select id="b2b-price-pick" className={inputClass} value={pick} onChange={(e) => setPick(e.target.value)}>
            <option value="">Elige un producto</option>
            {offered.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className={secondaryButtonClass} onClick={add} disabled={!pick}>
          <Plus className="size-4" aria-hidden="true" />
          Agregar precio
        </button>
      </div>
      {fields.length === 0 ? (
        <p className="text-sm text-stone-600">Sin precios propios: paga el mayorista o el de lista con descuento.</p>
      ) : (
        <ul className="divide-y divide-stone-200" aria-label="Precios propios">
          {fields.map((field, i) => {
            const product = byId.get(field.productId);
            const inputId = `b2b-price-${i}`;
            const error = errors?.[i]?.price?.message ?? errors?.[i]?.productId?.message;
            return (
              <li
                key={field.id}
                className="grid grid-cols-[1fr_auto] items-start gap-x-3 gap-y-1 py-3 sm:grid-cols-[1fr_10rem_auto]"
              >
                <div>
                  <label htmlFor={inputId} className="font-medium text-stone-900">
                    <span className="sr-only">Precio de </span>
                    {product?.name ?? 'Producto eliminado'}
                  </label>
                  <p className="text-sm text-stone-600">
                    Lista {product ? formatMoney(product.price) : '—'} · Mayorista{' '}
                    {product?.b2bPrice != null ? formatMoney(product.b2bPrice) : '—'}
                  </p>
                </div>
                <div className="col-start-1 sm:col-start-2">
                  <input
                    id={inputId}
                    inputMode="numeric"
                    className={inputClass}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${inputId}-error` : undefined}
                    {...register(`prices.${i}.price`)}
                  />
                  <FieldMessages id={inputId} error={error} />
                </div>
                <button
                  type="button"
                  className={`${iconButtonClass} row-start-1 col-start-2 sm:col-start-3`}
                  aria-label={`Quitar el precio de ${product?.name ?? 'este producto'}`}
                  onClick={() => remove(i)}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {typeof errors?.message === 'string' ? (
        <p className="text-sm font-medium text-red-700">{errors.message}</p>
      ) : null}
    </FormSection>
  );
}
