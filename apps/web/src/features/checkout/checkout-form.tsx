import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { capitalise, formatDayChoice, formatMoney } from '@hornada/domain/format';
import { addressLine, windowLabel } from '@hornada/domain/order-display';
import { totalsOf, type PricingSettings } from '@hornada/domain/pricing';
import type { Cart } from '@hornada/domain/schemas/carts';
import type { OfferedDay } from '@hornada/domain/schemas/orders';
import { inputClass } from '../../components/auth-card';
import {
  FieldLabel,
  FieldMessages,
  FormAlert,
  TextAreaField,
  TextField,
  fieldAria,
} from '../../components/forms/fields';
import { LocationPin, type Point } from '../../components/forms/location-pin';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import { getCartStore } from '../../lib/cart-store';
import { ApiError } from '../../lib/api/http';
import {
  buttonClass,
  checkoutApi,
  idempotencyKeyFor,
  PAYMENT_LABELS,
  type CheckoutLoaderData,
  type SavedAddress,
} from './checkout-api';
import { checkoutBody, checkoutResolver, type CheckoutValues } from './checkout-rules';
import { OrderLines } from './order-lines';

/** A saved or cart address's pin, when it has both coordinates. */
function pinOf(a: { lat?: number | null; lng?: number | null } | null | undefined): Point | null {
  return a && typeof a.lat === 'number' && typeof a.lng === 'number' ? { lat: a.lat, lng: a.lng } : null;
}

const radio = 'h-5 w-5 accent-amber-900';

/**
 * The order summary's form (docs/design.md §3): contact, delivery or pickup, the day and window, payment and
 * notes, checked with the domain's CheckoutInput as the server checks it (checkout-rules.ts). Problems show
 * once a placing was tried and follow the fields as they change.
 */
export function CheckoutForm({
  cart,
  days,
  pricing,
  settings,
}: {
  cart: Cart;
  days: OfferedDay[];
  pricing: PricingSettings;
  settings: CheckoutLoaderData;
}) {
  const navigate = useNavigate();
  const user = useStore(authStore, (s) => s.user);
  const uid = user?.uid ?? null;
  const form = useForm<CheckoutValues>({
    resolver: checkoutResolver(days, uid !== null),
    defaultValues: {
      contact: {
        name: cart.contact?.name ?? user?.name ?? '',
        phone: cart.contact?.phone ?? '',
        email: cart.contact?.email ?? user?.email ?? '',
      },
      createAccount: false,
      fulfillment: settings.pickupEnabled ? cart.fulfillment : 'delivery',
      address: {
        line: cart.address?.line ?? '',
        neighborhood: cart.address?.neighborhood ?? '',
        city: cart.address?.city ?? '',
      },
      pin: pinOf(cart.address),
      dueDate: days[0]?.date ?? '',
      window: '',
      paymentMethod: settings.paymentMethods[0] ?? '',
      notes: cart.notes ?? '',
      remember: true,
    },
  });
  const { register, watch, setValue, getValues, control, formState } = form;
  const { errors } = formState;
  // A signed-in customer's saved addresses and phone fill the form; this order's are kept for the next one
  // unless they say not to (the server keeps them with the order).
  const [savedAddresses, setSavedAddresses] = useState<SavedAddress[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const placing = useRef(false);

  function fillAddress(a: SavedAddress | null, onlyIfEmpty = false) {
    const now = getValues();
    const keep = (current: string) => onlyIfEmpty && current !== '';
    if (!keep(now.address.line)) setValue('address.line', a?.line ?? '', { shouldValidate: formState.isSubmitted });
    if (!keep(now.address.neighborhood)) setValue('address.neighborhood', a?.neighborhood ?? '');
    if (!keep(now.address.city)) setValue('address.city', a?.city ?? '');
    if (!(onlyIfEmpty && now.pin)) setValue('pin', a ? pinOf(a) : null);
  }

  useEffect(() => {
    if (!uid) return;
    let live = true;
    // The last way this customer paid, when the bakery still takes it.
    if (settings.companyId)
      checkoutApi.lastPaymentMethod(settings.companyId).then(
        (m) => {
          const offered = settings.paymentMethods.find((x) => x === m);
          if (live && offered) setValue('paymentMethod', offered);
        },
        () => undefined,
      );
    checkoutApi.me().then(
      (me) => {
        if (!live) return;
        setSavedAddresses(me.addresses);
        if (!getValues('contact.phone')) setValue('contact.phone', me.phone ?? '');
        const first = me.addresses[0];
        if (first) fillAddress(first, true);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
    // Read once per signed-in user (and shop); the fields stay the person's to change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uid, settings.companyId, settings.paymentMethods]);

  // A day the bakery stopped offering while this page was open (a blackout saved): the first one offered.
  useEffect(() => {
    if (getValues('dueDate') !== '' && !days.some((d) => d.date === getValues('dueDate'))) {
      setValue('dueDate', days[0]?.date ?? '');
      setValue('window', '');
    }
  }, [days, getValues, setValue]);

  const fulfillment = watch('fulfillment');
  const dueDate = watch('dueDate');
  const email = watch('contact.email');
  const typed = watch('address');
  const offered = days.find((d) => d.date === dueDate);
  // The server's own function, on every change of delivery or pickup: what the order will be charged.
  const totals = totalsOf(cart.items, fulfillment, pricing);
  const blocked = cart.missingForMinimum > 0 || cart.items.every((l) => !l.available);
  const savedIndex = savedAddresses.findIndex(
    (a) =>
      a.line === typed.line.trim() &&
      (a.neighborhood ?? '') === typed.neighborhood.trim() &&
      (a.city ?? '') === typed.city.trim(),
  );

  const submit = form.handleSubmit(async (values) => {
    // One order however often it is clicked: a click while placing does nothing, a retry reuses the key.
    if (placing.current) return;
    placing.current = true;
    setFailure(null);
    try {
      const order = await checkoutApi.place(cart.id, idempotencyKeyFor(cart.id), checkoutBody(values, uid !== null));
      getCartStore().getState().clear();
      // Online: to the gateway's hosted checkout, which comes back to the response page with `id=`.
      if (order.payment?.checkoutUrl) {
        window.location.assign(order.payment.checkoutUrl);
        return;
      }
      void navigate(`${paths.paymentResponse}?pedido=${encodeURIComponent(order.accessToken)}`);
    } catch (err) {
      placing.current = false;
      setFailure(err instanceof ApiError ? err.userMessage : 'No pudimos hacer tu pedido. Intenta de nuevo.');
    }
  });
  const busy = formState.isSubmitting || (formState.isSubmitSuccessful && failure === null);

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="mt-6 space-y-6">
      <section aria-labelledby="lines-title" className="space-y-2">
        <h2 id="lines-title" className="text-lg font-semibold">
          Tu pedido
        </h2>
        <OrderLines
          lines={cart.items}
          subtotal={totals.subtotal}
          deliveryFee={totals.deliveryFee}
          total={totals.total}
        />
        {cart.missingForMinimum > 0 ? (
          <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
            El pedido mínimo es de {formatMoney(cart.minimumOrder)}: te faltan {formatMoney(cart.missingForMinimum)}.{' '}
            <Link to={paths.cart} className="font-semibold underline">
              Volver al carrito
            </Link>
          </p>
        ) : null}
      </section>

      <fieldset className="space-y-3">
        <legend className="text-lg font-semibold">Contacto</legend>
        {user ? null : (
          <p className="text-stone-700">
            <Link
              to={`${paths.shopperSignup}?redirect=${encodeURIComponent(paths.orderSummary(cart.id))}`}
              className="font-semibold text-amber-900 underline underline-offset-2"
            >
              Crea tu cuenta para pedir más rápido
            </Link>{' '}
            o sigue como invitado.
          </p>
        )}
        <TextField
          id="name"
          label="Nombre"
          registration={register('contact.name')}
          error={errors.contact?.name?.message}
          autoComplete="name"
        />
        <TextField
          id="phone"
          label="Teléfono"
          type="tel"
          registration={register('contact.phone')}
          error={errors.contact?.phone?.message}
          autoComplete="tel"
        />
        <TextField
          id="email"
          label="Correo"
          labelNote="(opcional)"
          type="email"
          registration={register('contact.email')}
          error={errors.contact?.email?.message}
          autoComplete="email"
        />
        {!user && email.trim() ? (
          <label className="flex min-h-11 items-center gap-2">
            <input type="checkbox" className="h-5 w-5 accent-amber-900" {...register('createAccount')} />
            Crear mi cuenta con este correo (te enviamos un enlace para elegir tu contraseña)
          </label>
        ) : null}
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-lg font-semibold">Entrega</legend>
        <div className="flex flex-wrap gap-4">
          <label className="flex items-center gap-2">
            <input type="radio" value="delivery" className={radio} {...register('fulfillment')} />A domicilio
          </label>
          {settings.pickupEnabled ? (
            <label className="flex items-center gap-2">
              <input type="radio" value="pickup" className={radio} {...register('fulfillment')} />
              Recoger en la panadería
            </label>
          ) : null}
        </div>
        {fulfillment === 'delivery' ? (
          <div className="space-y-3">
            {savedAddresses.length ? (
              <div>
                <FieldLabel id="saved-address">Tus direcciones</FieldLabel>
                <select
                  id="saved-address"
                  className={inputClass}
                  value={savedIndex}
                  onChange={(e) => fillAddress(savedAddresses[Number(e.target.value)] ?? null)}
                >
                  {savedAddresses.map((a, n) => (
                    <option key={n} value={n}>
                      {addressLine(a)}
                    </option>
                  ))}
                  <option value={-1}>Otra dirección</option>
                </select>
              </div>
            ) : null}
            <TextField
              id="line"
              label="Dirección"
              registration={register('address.line')}
              error={errors.address?.line?.message}
              autoComplete="street-address"
            />
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                id="neighborhood"
                label="Barrio"
                labelNote="(opcional)"
                registration={register('address.neighborhood')}
                error={errors.address?.neighborhood?.message}
              />
              <TextField
                id="city"
                label="Ciudad"
                labelNote="(opcional)"
                registration={register('address.city')}
                error={errors.address?.city?.message}
                autoComplete="address-level2"
              />
            </div>
            <Controller
              control={control}
              name="pin"
              render={({ field }) => <LocationPin value={field.value} onChange={field.onChange} />}
            />
          </div>
        ) : settings.address ? (
          <p className="text-stone-700">Recoges en: {settings.address}</p>
        ) : null}
        {uid ? (
          <div>
            <label className="flex min-h-11 items-center gap-2">
              <input
                type="checkbox"
                className="h-5 w-5 shrink-0 accent-amber-900"
                {...register('remember')}
                aria-describedby="remember-note"
              />
              Recordar estos datos para mis próximos pedidos
            </label>
            <p id="remember-note" className="pl-7 text-sm text-stone-700">
              {fulfillment === 'delivery'
                ? 'Tu teléfono y esta dirección quedan guardados en tu cuenta.'
                : 'Tu teléfono queda guardado en tu cuenta.'}
            </p>
          </div>
        ) : null}
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-lg font-semibold">Día y horario</legend>
        {days.length === 0 ? (
          <p role="alert" className="text-red-800">
            Por ahora no hay días disponibles para entregas. Escríbenos para acordar tu pedido.
          </p>
        ) : (
          <div>
            <FieldLabel id="day">Día</FieldLabel>
            <select
              id="day"
              className={inputClass}
              {...register('dueDate', { onChange: () => setValue('window', '') })}
              {...fieldAria('day', undefined, errors.dueDate?.message)}
            >
              {days.map((d) => (
                <option key={d.date} value={d.date}>
                  {capitalise(formatDayChoice(d.dueDate, { timeZone: settings.timeZone }))}
                </option>
              ))}
            </select>
            <FieldMessages id="day" error={errors.dueDate?.message} />
          </div>
        )}
        {offered && offered.windows.some((w) => w.id !== null) ? (
          <div
            role="radiogroup"
            aria-label="Horario"
            aria-describedby={errors.window ? 'window-error' : undefined}
            className="grid gap-2 sm:grid-cols-2"
          >
            {offered.windows.map((w) => {
              const full = w.remaining === 0;
              return (
                <label
                  key={w.id}
                  className={`flex min-h-11 items-center gap-2 rounded-lg border px-3 py-2 ${full ? 'border-stone-200 text-stone-500' : 'border-stone-300'}`}
                >
                  <input type="radio" value={w.id ?? ''} className={radio} disabled={full} {...register('window')} />
                  <span>
                    {windowLabel(w.id, offered.windows)}
                    {full ? ' (lleno)' : w.remaining !== null && w.remaining <= 3 ? ` (quedan ${w.remaining})` : ''}
                  </span>
                </label>
              );
            })}
          </div>
        ) : null}
        <FieldMessages id="window" error={errors.window?.message} />
      </fieldset>

      <fieldset className="space-y-2" aria-describedby={errors.paymentMethod ? 'payment-error' : undefined}>
        <legend className="text-lg font-semibold">Pago</legend>
        {settings.paymentMethods.map((m) => (
          <label key={m} className="flex min-h-11 items-center gap-2">
            <input type="radio" value={m} className={radio} {...register('paymentMethod')} />
            {PAYMENT_LABELS[m]}
            {m === 'cash' ? <span className="text-stone-600">(al recibir)</span> : null}
            {m === 'online' ? <span className="text-stone-600">(Nequi, PSE o tarjeta)</span> : null}
          </label>
        ))}
        <FieldMessages id="payment" error={errors.paymentMethod?.message} />
      </fieldset>

      <TextAreaField
        id="notes"
        label="Notas"
        labelNote="(opcional)"
        rows={2}
        maxLength={1000}
        registration={register('notes')}
        error={errors.notes?.message}
      />

      <FormAlert>{failure}</FormAlert>
      <button type="submit" className={buttonClass} disabled={busy || blocked}>
        {busy ? 'Realizando tu pedido…' : 'Realizar pedido'}
      </button>
    </form>
  );
}
