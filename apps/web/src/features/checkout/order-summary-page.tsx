import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLoaderData, useNavigate, useParams } from 'react-router';
import { useStore } from 'zustand';
import { capitalise, formatDayChoice, formatMoney } from '@hornada/domain/format';
import { addressLine, windowLabel } from '@hornada/domain/order-display';
import { totalsOf, type PricingSettings } from '@hornada/domain/pricing';
import type { Cart } from '@hornada/domain/schemas/carts';
import type { OfferedDay } from '@hornada/domain/schemas/orders';
import { inputClass } from '../../components/auth-card';
import { LocationPin, type Point } from '../../components/forms/location-pin';
import { EmptyState } from '../../components/empty-state';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth-store';
import { getCartStore } from '../../lib/cart-store';
import { ApiError } from '../../lib/http';
import { useHydrated } from '../../lib/use-hydrated';
import { useSettingsChanges } from '../../lib/use-settings-changes';
import {
  buttonClass,
  checkoutApi,
  idempotencyKeyFor,
  PAYMENT_LABELS,
  type StorefrontMethod,
  type CheckoutBody,
  type CheckoutLoaderData,
  type SavedAddress,
} from './checkout-api';
import { OrderLines } from './order-lines';

/** A saved or cart address's pin, when it has both coordinates. */
function pinOf(a: { lat?: number | null; lng?: number | null } | null | undefined): Point | null {
  return a && typeof a.lat === 'number' && typeof a.lng === 'number' ? { lat: a.lat, lng: a.lng } : null;
}

type Loaded =
  | { kind: 'loading' }
  | { kind: 'ready'; cart: Cart; days: OfferedDay[]; pricing: PricingSettings }
  | { kind: 'missing' }
  | { kind: 'error'; message: string };

/** `/resumen-de-pedido/{cartId}`: the final review, the day and window, the payment method, and the order. */
export function OrderSummaryPage() {
  const settings = useLoaderData() as CheckoutLoaderData;
  const { cartId = '' } = useParams();
  const hydrated = useHydrated();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  // A saved setting (a blackout day, a window's capacity, the fee) reads the cart and days again, in place.
  const [settingsVersion, setSettingsVersion] = useState(0);
  useSettingsChanges(settings.companyId, () => setSettingsVersion((n) => n + 1));

  useEffect(() => {
    if (!hydrated || !settings.companyId) return;
    let cancelled = false;
    Promise.all([
      checkoutApi.cart(cartId),
      checkoutApi.deliveryDays(settings.companyId),
      checkoutApi.pricing(settings.companyId),
    ]).then(
      ([cart, days, pricing]) => !cancelled && setLoaded({ kind: 'ready', cart, days, pricing }),
      (err: unknown) => {
        if (cancelled) return;
        if (err instanceof ApiError && (err.status === 404 || err.status === 400)) setLoaded({ kind: 'missing' });
        else
          setLoaded({
            kind: 'error',
            message: err instanceof ApiError ? err.userMessage : 'No pudimos cargar tu pedido.',
          });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [cartId, hydrated, settings.companyId, settingsVersion]);

  return (
    <div className="mx-auto max-w-3xl px-3 py-6 sm:px-4">
      <title>{`Resumen del pedido · ${settings.marketName}`}</title>
      <meta name="robots" content="noindex" />
      <h1 className="text-2xl font-bold sm:text-3xl">Resumen del pedido</h1>
      {!hydrated || loaded.kind === 'loading' ? (
        <p role="status" className="mt-6 text-stone-600">
          Cargando tu pedido…
        </p>
      ) : loaded.kind === 'missing' ? (
        <div className="mt-6">
          <EmptyState
            title="No encontramos este carrito."
            action={
              <Link
                to={paths.cart}
                className="inline-block rounded-lg bg-amber-900 px-5 py-2.5 font-semibold text-white"
              >
                Ir al carrito
              </Link>
            }
          >
            <p>Solo el navegador o la cuenta que lo creó puede verlo, y un carrito ya pedido se cierra.</p>
          </EmptyState>
        </div>
      ) : loaded.kind === 'error' ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
          {loaded.message}
        </p>
      ) : (
        <CheckoutForm cart={loaded.cart} days={loaded.days} pricing={loaded.pricing} settings={settings} />
      )}
    </div>
  );
}

type Errors = Partial<Record<'name' | 'phone' | 'line' | 'day' | 'window' | 'payment', string>>;

function CheckoutForm({
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
  const [name, setName] = useState(cart.contact?.name ?? user?.name ?? '');
  const [phone, setPhone] = useState(cart.contact?.phone ?? '');
  const [email, setEmail] = useState(cart.contact?.email ?? user?.email ?? '');
  const [fulfillment, setFulfillment] = useState<'delivery' | 'pickup'>(
    settings.pickupEnabled ? cart.fulfillment : 'delivery',
  );
  const [line, setLine] = useState(cart.address?.line ?? '');
  const [neighborhood, setNeighborhood] = useState(cart.address?.neighborhood ?? '');
  const [city, setCity] = useState(cart.address?.city ?? '');
  // The map pin: optional; the route puts an address without one last.
  const [pin, setPin] = useState<Point | null>(pinOf(cart.address));
  const [day, setDay] = useState(days[0]?.date ?? '');
  const [slot, setSlot] = useState<string | null>(null);
  const [payment, setPayment] = useState<StorefrontMethod | ''>(settings.paymentMethods[0] ?? '');
  const [notes, setNotes] = useState(cart.notes ?? '');
  // A signed-in customer's saved addresses and phone fill the form; this order's are kept for the
  // next one unless they say not to (the server keeps them with the order).
  const [savedAddresses, setSavedAddresses] = useState<SavedAddress[]>([]);
  const [remember, setRemember] = useState(true);
  // A guest may ask for an account with the contact's e-mail: a link to choose a password is mailed.
  const [createAccount, setCreateAccount] = useState(false);
  const uid = user?.uid ?? null;
  useEffect(() => {
    if (!uid) return;
    let live = true;
    // The last way this customer paid, when the bakery still takes it.
    if (settings.companyId)
      checkoutApi.lastPaymentMethod(settings.companyId).then(
        (m) => {
          const offered = settings.paymentMethods.find((x) => x === m);
          if (live && offered) setPayment(offered);
        },
        () => undefined,
      );
    checkoutApi.me().then(
      (me) => {
        if (!live) return;
        setSavedAddresses(me.addresses);
        setPhone((p) => p || me.phone || '');
        const first = me.addresses[0];
        if (first) fillAddress(first, true);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
    // Read once per signed-in user (and shop); the fields stay the person's to change.
  }, [uid, settings.companyId, settings.paymentMethods]);
  function fillAddress(a: SavedAddress, onlyIfEmpty = false) {
    setLine((l) => (onlyIfEmpty && l ? l : a.line));
    setNeighborhood((n) => (onlyIfEmpty && n ? n : (a.neighborhood ?? '')));
    setCity((c) => (onlyIfEmpty && c ? c : (a.city ?? '')));
    setPin((p) => (onlyIfEmpty && p ? p : pinOf(a)));
  }
  const typedIsSaved = savedAddresses.some(
    (a) => a.line === line.trim() && (a.neighborhood ?? '') === neighborhood.trim() && (a.city ?? '') === city.trim(),
  );
  // Shown once a placing was tried, and kept up to date as the fields change.
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const placing = useRef(false);
  // A day the bakery stopped offering while this page was open (a blackout saved): the first one offered.
  if (day !== '' && !days.some((d) => d.date === day)) {
    setDay(days[0]?.date ?? '');
    setSlot(null);
  }
  const offered = days.find((d) => d.date === day);
  const errors: Errors = tried ? validate() : {};
  // The server's own function, on every change of delivery or pickup: what the order will be charged.
  const totals = totalsOf(cart.items, fulfillment, pricing);
  const blocked = cart.missingForMinimum > 0 || cart.items.every((l) => !l.available);

  function validate(): Errors {
    const e: Errors = {};
    if (!name.trim()) e.name = 'Escribe tu nombre.';
    if (!phone.trim()) e.phone = 'Escribe un teléfono de contacto.';
    if (fulfillment === 'delivery' && !line.trim()) e.line = 'Escribe la dirección de entrega.';
    if (!offered) e.day = 'Elige el día de entrega.';
    else if (offered.windows.some((w) => w.id !== null) && !slot) e.window = 'Elige un horario.';
    if (!payment) e.payment = 'Elige cómo vas a pagar.';
    return e;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // One order however often it is clicked: a click while placing does nothing, a retry reuses the key.
    if (placing.current) return;
    const found = validate();
    setTried(true);
    if (Object.keys(found).length > 0 || !payment) return;
    placing.current = true;
    setBusy(true);
    setFailure(null);
    const body: CheckoutBody = {
      contact: { name: name.trim(), phone: phone.trim(), email: email.trim() || null },
      fulfillment,
      address:
        fulfillment === 'delivery'
          ? {
              line: line.trim(),
              neighborhood: neighborhood.trim() || null,
              city: city.trim() || null,
              notes: null,
              lat: pin?.lat ?? null,
              lng: pin?.lng ?? null,
            }
          : null,
      dueDate: day,
      window: slot,
      paymentMethod: payment,
      notes: notes.trim() || null,
      createAccount: !user && createAccount && email.trim() !== '',
      remember: Boolean(uid) && remember,
    };
    try {
      const order = await checkoutApi.place(cart.id, idempotencyKeyFor(cart.id), body);
      getCartStore().getState().clear();
      // Online: to the gateway's hosted checkout, which comes back to the response page with `id=`.
      if (order.payment?.checkoutUrl) {
        window.location.assign(order.payment.checkoutUrl);
        return;
      }
      void navigate(`${paths.paymentResponse}?pedido=${encodeURIComponent(order.accessToken)}`);
    } catch (err) {
      placing.current = false;
      setBusy(false);
      setFailure(err instanceof ApiError ? err.userMessage : 'No pudimos hacer tu pedido. Intenta de nuevo.');
    }
  }

  const radio = 'h-5 w-5 accent-amber-900';
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
        <Field id="name" label="Nombre" value={name} onChange={setName} error={errors.name} autoComplete="name" />
        <Field
          id="phone"
          label="Teléfono"
          value={phone}
          onChange={setPhone}
          error={errors.phone}
          autoComplete="tel"
          type="tel"
        />
        <Field
          id="email"
          label="Correo"
          note="(opcional)"
          value={email}
          onChange={setEmail}
          autoComplete="email"
          type="email"
        />
        {!user && email.trim() ? (
          <label className="flex min-h-11 items-center gap-2">
            <input
              type="checkbox"
              className="h-5 w-5 accent-amber-900"
              checked={createAccount}
              onChange={(e) => setCreateAccount(e.target.checked)}
            />
            Crear mi cuenta con este correo (te enviamos un enlace para elegir tu contraseña)
          </label>
        ) : null}
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-lg font-semibold">Entrega</legend>
        <div className="flex flex-wrap gap-4">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="fulfillment"
              className={radio}
              checked={fulfillment === 'delivery'}
              onChange={() => setFulfillment('delivery')}
            />
            A domicilio
          </label>
          {settings.pickupEnabled ? (
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="fulfillment"
                className={radio}
                checked={fulfillment === 'pickup'}
                onChange={() => setFulfillment('pickup')}
              />
              Recoger en la panadería
            </label>
          ) : null}
        </div>
        {fulfillment === 'delivery' ? (
          <div className="space-y-3">
            {savedAddresses.length ? (
              <div>
                <label htmlFor="saved-address" className="font-medium text-stone-800">
                  Tus direcciones
                </label>
                <select
                  id="saved-address"
                  className={inputClass}
                  value={typedIsSaved ? savedAddresses.findIndex((a) => a.line === line.trim()) : -1}
                  onChange={(e) => {
                    const a = savedAddresses[Number(e.target.value)];
                    if (a) fillAddress(a);
                    else
                      fillAddress({ line: '', neighborhood: null, city: null, lat: null, lng: null } as SavedAddress);
                  }}
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
            <Field
              id="line"
              label="Dirección"
              value={line}
              onChange={setLine}
              error={errors.line}
              autoComplete="street-address"
            />
            <div className="grid gap-3 sm:grid-cols-2">
              <Field
                id="neighborhood"
                label="Barrio"
                note="(opcional)"
                value={neighborhood}
                onChange={setNeighborhood}
              />
              <Field
                id="city"
                label="Ciudad"
                note="(opcional)"
                value={city}
                onChange={setCity}
                autoComplete="address-level2"
              />
            </div>
            <LocationPin value={pin} onChange={setPin} />
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
                checked={remember}
                onChange={(e) => setRemember(e.target.checked)}
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
            <label htmlFor="day" className="font-medium text-stone-800">
              Día
            </label>
            <select
              id="day"
              className={inputClass}
              value={day}
              aria-invalid={errors.day ? true : undefined}
              onChange={(e) => {
                setDay(e.target.value);
                setSlot(null);
              }}
            >
              {days.map((d) => (
                <option key={d.date} value={d.date}>
                  {capitalise(formatDayChoice(d.dueDate, { timeZone: settings.timeZone }))}
                </option>
              ))}
            </select>
            {errors.day ? <p className="mt-1 text-sm font-medium text-red-700">{errors.day}</p> : null}
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
                  <input
                    type="radio"
                    name="window"
                    className={radio}
                    disabled={full}
                    checked={slot === w.id}
                    onChange={() => setSlot(w.id)}
                  />
                  <span>
                    {windowLabel(w.id, offered.windows)}
                    {full ? ' (lleno)' : w.remaining !== null && w.remaining <= 3 ? ` (quedan ${w.remaining})` : ''}
                  </span>
                </label>
              );
            })}
          </div>
        ) : null}
        {errors.window ? (
          <p id="window-error" className="text-sm font-medium text-red-700">
            {errors.window}
          </p>
        ) : null}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-lg font-semibold">Pago</legend>
        {settings.paymentMethods.map((m) => (
          <label key={m} className="flex min-h-11 items-center gap-2">
            <input
              type="radio"
              name="payment"
              className={radio}
              checked={payment === m}
              onChange={() => setPayment(m)}
            />
            {PAYMENT_LABELS[m]}
            {m === 'cash' ? <span className="text-stone-600">(al recibir)</span> : null}
            {m === 'online' ? <span className="text-stone-600">(Nequi, PSE o tarjeta)</span> : null}
          </label>
        ))}
        {errors.payment ? <p className="text-sm font-medium text-red-700">{errors.payment}</p> : null}
      </fieldset>

      <div>
        <label htmlFor="notes" className="font-medium text-stone-800">
          Notas <span className="font-normal text-stone-600">(opcional)</span>
        </label>
        <textarea
          id="notes"
          className={inputClass}
          rows={2}
          maxLength={1000}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
        />
      </div>

      {failure ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
          {failure}
        </p>
      ) : null}
      <button type="submit" className={buttonClass} disabled={busy || blocked}>
        {busy ? 'Realizando tu pedido…' : 'Realizar pedido'}
      </button>
    </form>
  );
}

function Field(props: {
  id: string;
  label: string;
  note?: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
  autoComplete?: string;
  type?: string;
}) {
  const errorId = `${props.id}-error`;
  return (
    <div>
      <label htmlFor={props.id} className="font-medium text-stone-800">
        {props.label}
        {props.note ? <span className="font-normal text-stone-600"> {props.note}</span> : null}
      </label>
      <input
        id={props.id}
        type={props.type ?? 'text'}
        className={inputClass}
        value={props.value}
        autoComplete={props.autoComplete}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
