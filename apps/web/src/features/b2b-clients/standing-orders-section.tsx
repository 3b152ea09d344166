import { dayInZone } from '@hornada/domain/days';
import { StandingOrderInput } from '@hornada/domain/schemas/standing-orders';
import { entersHorizonAt, nextStandingDays } from '@hornada/domain/standing-orders';
import { formatDateTime } from '@hornada/domain/format';
import { windowLabel } from '@hornada/domain/order-display';
import { Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { inputClass } from '../../components/auth-card';
import { FormSection } from '../../components/forms/form-layout';
import {
  CheckboxField,
  FieldMessages,
  FormAlert,
  SelectField,
  TextAreaField,
  TextField,
} from '../../components/forms/fields';
import { optionalText, parseWhole } from '../../components/forms/form-values';
import { buttonClass, iconButtonClass, secondaryButtonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { applyServerErrors, domainResolver } from '../../lib/form-rules';
import { usePartData } from '../../lib/live/use-screen-data';
import { toastStore } from '../../lib/toast-store';
import type { B2bClient, Product } from './api';
import { standingApi, type MadeOrder, type Settings, type StandingOrder, type StandingWrite } from './standing-api';
import { loader, STANDING_READS } from './standing-orders-read';

/** The clients' screen (routes.ts), whose `standing` part this section shows. */
const SCREEN_ID = 'dashboard.b2bClients';
/** Its standing orders change, and the orders they make come (right after a save, or when a day enters the horizon). */
const FOLLOWS = ['standingOrders', 'orders'] as const;
const NO_ORDERS: MadeOrder[] = [];

/** Monday first, as a bakery's week reads. */
export const WEEKDAYS: [number, string][] = [
  [1, 'Lunes'],
  [2, 'Martes'],
  [3, 'Miércoles'],
  [4, 'Jueves'],
  [5, 'Viernes'],
  [6, 'Sábado'],
  [0, 'Domingo'],
];

/** A calendar day as people read it: "jue, 26 nov". */
export const dayText = (day: string) =>
  new Intl.DateTimeFormat('es-CO', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T12:00:00Z`),
  );

interface StandingForm {
  weekdays: string[];
  items: { productId: string; quantity: string }[];
  fulfillment: 'delivery' | 'pickup';
  window: string;
  startsOn: string;
  endsOn: string;
  skipDates: string[];
  notes: string;
  active: boolean;
}

const toInput =
  (b2bClientId: string) =>
  (f: StandingForm): StandingWrite => ({
    b2bClientId,
    weekdays: f.weekdays.map(Number),
    items: f.items.map((i) => ({ productId: i.productId, quantity: parseWhole(i.quantity) })),
    fulfillment: f.fulfillment,
    window: f.window || null,
    // Left empty: the server starts it on the day it is made (docs/design.md §3).
    startsOn: f.startsOn || undefined,
    endsOn: f.endsOn || null,
    skipDates: f.skipDates,
    notes: optionalText(f.notes),
    active: f.active,
  });

const toForm = (s: StandingOrder): StandingForm => ({
  weekdays: s.weekdays.map(String),
  items: s.items.map((i) => ({ productId: i.productId, quantity: String(i.quantity) })),
  fulfillment: s.fulfillment,
  window: s.window ?? '',
  startsOn: s.startsOn,
  endsOn: s.endsOn ?? '',
  skipDates: s.skipDates,
  notes: s.notes ?? '',
  active: s.active,
});

const isField = (path: string) =>
  /^(weekdays|items(\.\d+\.(productId|quantity))?|fulfillment|window|startsOn|endsOn|skipDates(\.\d+)?|notes|active)$/.test(
    path,
  );

/**
 * A client's standing orders (docs/design.md §3) on its page: each template with the next ten days it orders on
 * (made, or when it will be), and a form to add or edit one. Live: the orders the server makes appear as
 * they are made.
 */
export function StandingOrdersSection({
  companyId,
  client,
  products,
}: {
  companyId: string;
  client: B2bClient;
  products: Product[];
}) {
  const read = usePartData(SCREEN_ID, 'standing', loader, companyId, FOLLOWS, { reads: STANDING_READS });
  const standing = read.data?.state === 'ready' ? read.data.data : null;
  const settings = standing?.settings ?? null;
  const list = standing?.list ?? null;
  const made = standing?.made ?? NO_ORDERS;
  const failed = read.data?.state === 'failed' ? read.data.message : null;
  const [editing, setEditing] = useState<StandingOrder | 'new' | null>(null);
  const today = settings ? dayInZone(new Date(), settings.timeZone) : null;

  const names = useMemo(() => new Map(products.map((p) => [p.id, p.name])), [products]);

  return (
    <div className="mt-6 grid max-w-4xl gap-6">
      <FormSection
        title="Pedidos recurrentes"
        description="Los pedidos se crean solos cada día elegido, cuando el día entra en el plazo de pedidos."
      >
        {failed ? (
          <FormAlert>
            {failed}{' '}
            <button type="button" className="font-semibold underline" onClick={read.reload}>
              Intentar de nuevo
            </button>
          </FormAlert>
        ) : null}
        {failed ? null : list === null || settings === null ? (
          <p role="status">Cargando…</p>
        ) : list.length === 0 ? (
          <p className="text-stone-700">Este cliente no tiene pedidos recurrentes.</p>
        ) : (
          <ul className="space-y-4" aria-label="Pedidos recurrentes del cliente">
            {list.map((s) => (
              <li key={s.id} className="rounded-xl border border-stone-200 p-4">
                <StandingSummary standing={s} names={names} settings={settings} />
                <NextDays standing={s} settings={settings} made={made} />
                <button type="button" className={`${secondaryButtonClass} mt-3`} onClick={() => setEditing(s)}>
                  Editar
                </button>
              </li>
            ))}
          </ul>
        )}
        {editing === null && client.active ? (
          <button type="button" className={secondaryButtonClass} onClick={() => setEditing('new')}>
            <Plus className="size-4" aria-hidden="true" />
            Nuevo pedido recurrente
          </button>
        ) : null}
      </FormSection>
      {editing !== null && settings ? (
        <StandingEditor
          key={editing === 'new' ? 'new' : editing.id}
          companyId={companyId}
          client={client}
          products={products}
          settings={settings}
          today={today!}
          standing={editing === 'new' ? null : editing}
          onDone={(saved) => {
            setEditing(null);
            // The stream brings the orders it makes as they come; the list is read again now.
            if (saved) read.reload();
          }}
        />
      ) : null}
    </div>
  );
}

function StandingSummary({
  standing: s,
  names,
  settings,
}: {
  standing: StandingOrder;
  names: Map<string, string>;
  settings: Settings;
}) {
  const days = WEEKDAYS.filter(([d]) => s.weekdays.includes(d)).map(([, label]) => label);
  const window = settings.deliveryWindows.find((w) => w.id === s.window);
  return (
    <div className="space-y-1">
      <p className="flex flex-wrap items-center gap-2 font-semibold text-stone-900">
        {days.join(', ')}
        {s.active ? null : (
          <span className="rounded-full bg-stone-200 px-2 py-0.5 text-xs font-semibold text-stone-800">Pausado</span>
        )}
      </p>
      <p className="text-sm text-stone-700">
        {s.items.map((i) => `${i.quantity} × ${names.get(i.productId) ?? 'Producto'}`).join(' · ')}
      </p>
      <p className="text-sm text-stone-700">
        {s.fulfillment === 'pickup' ? 'Recoge en la panadería' : 'Domicilio'}
        {window ? ` · ${windowLabel(window.id, [window])}` : ''} · desde {dayText(s.startsOn)}
        {s.endsOn ? ` hasta ${dayText(s.endsOn)}` : ''}
        {s.skipDates.length > 0 ? ` · sin ${s.skipDates.map(dayText).join(', ')}` : ''}
      </p>
    </div>
  );
}

/** The next ten days it orders on: the order made for each, or when it will be made. */
function NextDays({ standing, settings, made }: { standing: StandingOrder; settings: Settings; made: MadeOrder[] }) {
  const mine = new Map(
    made
      .filter((o) => o.standingOrderId === standing.id)
      .map((o) => [dayInZone(new Date(o.dueDate), settings.timeZone), o]),
  );
  const horizon = { ...settings, productionLeadDays: settings.productionLeadDays ?? 0 };
  const days = standing.active ? nextStandingDays(standing, horizon, new Date(), 10) : [];
  if (days.length === 0) return <p className="mt-2 text-sm text-stone-600">No hay próximos pedidos.</p>;
  return (
    <div className="mt-3">
      <h3 className="text-sm font-semibold text-stone-900">Próximos pedidos</h3>
      <ol className="mt-1 divide-y divide-stone-100 text-sm" aria-label="Próximos pedidos">
        {days.map((day) => {
          const order = mine.get(day);
          const at = entersHorizonAt(horizon, day, standing.window);
          return (
            <li key={day} className="flex flex-wrap justify-between gap-x-3 py-1.5">
              <span className="font-medium text-stone-900">{dayText(day)}</span>
              {order ? (
                <Link className="text-amber-900 underline" to={`${paths.dashboard.orders}?order=${order.id}`}>
                  Pedido #{order.number}
                </Link>
              ) : (
                <span className="text-stone-600">
                  {at ? `Se crea ${formatDateTime(at, { timeZone: settings.timeZone }).toLowerCase()}` : 'Sin horario'}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function StandingEditor({
  companyId,
  client,
  products,
  settings,
  today,
  standing,
  onDone,
}: {
  companyId: string;
  client: B2bClient;
  products: Product[];
  settings: Settings;
  today: string;
  standing: StandingOrder | null;
  onDone(saved: boolean): void;
}) {
  const empty: StandingForm = {
    weekdays: [],
    items: [],
    fulfillment: client.address ? 'delivery' : 'pickup',
    window: settings.deliveryWindows[0]?.id ?? '',
    startsOn: today,
    endsOn: '',
    skipDates: [],
    notes: '',
    active: true,
  };
  const form = useForm<StandingForm>({
    resolver: domainResolver<StandingForm>(StandingOrderInput, toInput(client.id)),
    defaultValues: standing ? toForm(standing) : empty,
    mode: 'onTouched',
  });
  const { register, control, formState, setValue, setError } = form;
  const errors = formState.errors;
  const lines = useFieldArray({ control, name: 'items' });
  const chosen = useWatch({ control, name: 'items' });
  const skips = useWatch({ control, name: 'skipDates' });
  const [pick, setPick] = useState('');
  const [skip, setSkip] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const taken = new Set(chosen.map((i) => i.productId));
  const names = new Map(products.map((p) => [p.id, p.name]));

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const body = toInput(client.id)(values);
      if (standing) await standingApi.update(companyId, standing.id, body);
      else await standingApi.create(companyId, body);
    } catch (err) {
      const message = applyServerErrors(err, isField, setError);
      setFormError(message);
      toastStore.getState().show({ type: 'error', message: message ?? 'Revisa los campos marcados.' });
      return;
    }
    toastStore.getState().show(standing ? 'Guardamos el pedido recurrente.' : 'Creamos el pedido recurrente.');
    onDone(true);
  });

  const windowOptions = settings.deliveryWindows.map((w) => ({
    value: w.id,
    label: windowLabel(w.id, settings.deliveryWindows),
  }));
  return (
    <form onSubmit={submit} noValidate>
      <FormSection title={standing ? 'Editar pedido recurrente' : 'Nuevo pedido recurrente'}>
        <FormAlert>{formError}</FormAlert>
        <fieldset aria-describedby={errors.weekdays ? 'so-weekdays-error' : undefined}>
          <legend className="font-medium text-stone-800">Días de la semana</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {WEEKDAYS.map(([d, label]) => (
              <label
                key={d}
                className="inline-flex items-center gap-2 rounded-lg border border-stone-300 px-3 py-2 has-[:checked]:border-amber-800 has-[:checked]:bg-amber-50"
              >
                <input
                  type="checkbox"
                  value={String(d)}
                  className="size-4 accent-amber-800"
                  {...register('weekdays')}
                />
                {label}
              </label>
            ))}
          </div>
          <FieldMessages id="so-weekdays" error={errors.weekdays?.message ?? errors.weekdays?.root?.message} />
        </fieldset>

        <div>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="grow">
              <label htmlFor="so-product" className="font-medium text-stone-800">
                Producto del pedido
              </label>
              <select id="so-product" className={inputClass} value={pick} onChange={(e) => setPick(e.target.value)}>
                <option value="">Elige un producto</option>
                {products
                  .filter((p) => p.active && !taken.has(p.id))
                  .map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
              </select>
            </div>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={!pick}
              onClick={() => {
                lines.append({ productId: pick, quantity: '1' });
                setPick('');
              }}
            >
              <Plus className="size-4" aria-hidden="true" />
              Agregar producto
            </button>
          </div>
          {lines.fields.length > 0 ? (
            <ul className="mt-2 divide-y divide-stone-200" aria-label="Productos del pedido recurrente">
              {lines.fields.map((field, i) => {
                const id = `so-qty-${i}`;
                const error = errors.items?.[i]?.quantity?.message ?? errors.items?.[i]?.productId?.message;
                return (
                  <li key={field.id} className="flex items-start gap-3 py-2">
                    <label htmlFor={id} className="grow pt-2 font-medium text-stone-900">
                      <span className="sr-only">Cantidad de </span>
                      {names.get(field.productId) ?? 'Producto'}
                    </label>
                    <div className="w-24">
                      <input id={id} inputMode="numeric" className={inputClass} {...register(`items.${i}.quantity`)} />
                      <FieldMessages id={id} error={error} />
                    </div>
                    <button
                      type="button"
                      className={iconButtonClass}
                      aria-label={`Quitar ${names.get(field.productId) ?? 'el producto'}`}
                      onClick={() => lines.remove(i)}
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : null}
          <FieldMessages id="so-items" error={errors.items?.message ?? errors.items?.root?.message} />
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            id="so-fulfillment"
            label="Entrega"
            options={[
              { value: 'pickup', label: 'Recoge en la panadería' },
              { value: 'delivery', label: 'Domicilio a la dirección del cliente' },
            ]}
            registration={register('fulfillment')}
            error={errors.fulfillment?.message}
          />
          {windowOptions.length > 0 ? (
            <SelectField
              id="so-window"
              label="Horario"
              options={windowOptions}
              registration={register('window')}
              error={errors.window?.message}
            />
          ) : null}
          <TextField
            id="so-starts"
            label="Desde"
            labelNote="(vacío: desde hoy)"
            type="date"
            registration={register('startsOn')}
            error={errors.startsOn?.message}
          />
          <TextField
            id="so-ends"
            label="Hasta"
            labelNote="(opcional)"
            type="date"
            registration={register('endsOn')}
            error={errors.endsOn?.message}
          />
        </div>

        <div>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="grow">
              <label htmlFor="so-skip" className="font-medium text-stone-800">
                Días sin pedido
              </label>
              <input
                id="so-skip"
                type="date"
                className={inputClass}
                value={skip}
                onChange={(e) => setSkip(e.target.value)}
              />
            </div>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={!skip || skips.includes(skip)}
              onClick={() => {
                setValue('skipDates', [...skips, skip].sort(), { shouldDirty: true });
                setSkip('');
              }}
            >
              Agregar día
            </button>
          </div>
          {skips.length > 0 ? (
            <ul className="mt-2 flex flex-wrap gap-2" aria-label="Días sin pedido">
              {skips.map((d) => (
                <li
                  key={d}
                  className="inline-flex items-center gap-1 rounded-full bg-stone-100 py-0.5 pl-3 pr-1 text-sm"
                >
                  No el {dayText(d)}
                  <button
                    type="button"
                    className={iconButtonClass}
                    aria-label={`Quitar ${dayText(d)}`}
                    onClick={() =>
                      setValue(
                        'skipDates',
                        skips.filter((x) => x !== d),
                        { shouldDirty: true },
                      )
                    }
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>

        <TextAreaField
          id="so-notes"
          label="Notas"
          labelNote="(opcional)"
          rows={2}
          registration={register('notes')}
          error={errors.notes?.message}
        />
        <CheckboxField
          id="so-active"
          label="Activo"
          hint="Pausado, no crea pedidos."
          registration={register('active')}
        />
        <div className="flex gap-2 sm:justify-end">
          <button type="button" className={`${secondaryButtonClass} flex-1 sm:flex-none`} onClick={() => onDone(false)}>
            Cancelar
          </button>
          <button type="submit" className={`${buttonClass} flex-1 sm:flex-none`} disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Guardando…' : 'Guardar pedido recurrente'}
          </button>
        </div>
      </FormSection>
    </form>
  );
}
