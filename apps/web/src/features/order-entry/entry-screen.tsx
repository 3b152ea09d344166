import { orderLine, orderTotals, type B2bTerms } from '@hornada/domain/order-pricing';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FormAlert, TextAreaField } from '../../components/forms/fields';
import { FormSection } from '../../components/forms/form-layout';
import { UnsavedChangesDialog, useUnsavedChanges } from '../../components/forms/unsaved-changes';
import { paths } from '../../config/paths';
import { applyServerErrors } from '../../lib/form-rules';
import { toastStore } from '../../lib/toast-store';
import { orderEntryApi, type B2bClient, type Order, type User } from './api';
import type { CreditLoad, EntryData } from './entry-data';
import { creditCheck, paymentChoices } from './entry-rules';
import { EMPTY_FORM, entryResolver, isEntryField, quantityOf, toInput, type EntryForm, type Party } from './entry-form';
import { LinesSection } from './lines-section';
import { PartySection } from './party-section';
import { PaymentSection, ScheduleSection } from './schedule-section';
import { SummaryPanel, TotalBar } from './summary-panel';
import { browserKeyStorage, createSubmitKeys } from './submit-keys';

/** The order's URL on the orders screen, which opens its detail panel from `?order=`. */
const orderOnList = (order: Order) => `${paths.dashboard.orders}?${new URLSearchParams({ order: order.id })}`;

export function EntryScreen({ companyId, data }: { companyId: string; data: EntryData }) {
  const { settings, products, clients, days, today } = data;
  const navigate = useNavigate();
  const hasWindows = settings.deliveryWindows.length > 0;
  const resolver = useMemo(() => entryResolver(hasWindows), [hasWindows]);
  const firstDay = days.find((d) => d.windows.some((w) => !w.late && !w.full)) ?? days[0];
  const form = useForm<EntryForm>({
    resolver,
    defaultValues: {
      ...EMPTY_FORM,
      fulfillment: 'delivery',
      dueDate: firstDay?.date ?? '',
      paymentMethod: paymentChoices(settings.paymentMethods, false)[0] ?? '',
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { control, handleSubmit, setError, setValue, getValues, formState } = form;
  const lines = useFieldArray({ control, name: 'items' });
  const values = useWatch({ control }) as EntryForm;
  const [customer, setCustomer] = useState<User | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const sending = useRef(false);
  const submitKeys = useMemo(() => createSubmitKeys(browserKeyStorage()), []);
  const { blocker, allowNextNavigation } = useUnsavedChanges(lines.fields.length > 0 && !formState.isSubmitSuccessful);

  const client: B2bClient | null =
    values.party === 'b2b' ? (clients.find((c) => c.id === values.b2bClientId) ?? null) : null;
  const terms: B2bTerms | null = client ? { discountPercent: client.discountPercent, prices: client.prices } : null;
  const productById = useMemo(() => new Map(products.map((p) => [p.id, p])), [products]);
  const priced = values.items.flatMap((l) => {
    const p = productById.get(l.productId);
    if (!p) return [];
    const q = quantityOf(l.quantity);
    return [orderLine(p, terms, Number.isInteger(q) && q > 0 ? q : 0, null)];
  });
  const totals = orderTotals(priced, values.fulfillment, settings);
  const methods = paymentChoices(settings.paymentMethods, !!client);

  // The client's unpaid credit orders, read again for each client chosen.
  const [credit, setCredit] = useState<CreditLoad>({ state: 'none' });
  const clientId = client?.id ?? null;
  const limited = !!client && client.creditLimit > 0;
  useEffect(() => {
    if (!clientId || !limited) {
      setCredit({ state: 'none' });
      return;
    }
    const controller = new AbortController();
    setCredit({ state: 'loading' });
    orderEntryApi.unpaidCredit(companyId, clientId, controller.signal).then(
      (orders) => setCredit({ state: 'ready', clientId, used: orders.reduce((sum, o) => sum + o.total, 0) }),
      () => !controller.signal.aborted && setCredit({ state: 'failed' }),
    );
    return () => controller.abort();
  }, [companyId, clientId, limited]);
  const check =
    client && credit.state === 'ready' && credit.clientId === client.id
      ? creditCheck(client.creditLimit, credit.used, totals.total, values.paymentMethod === 'credit')
      : null;

  // After a submit, prefilled fields are checked again so their messages go once filled.
  const dirty = { shouldDirty: true, shouldValidate: formState.isSubmitted };
  function choose(party: Party) {
    // The contact and address came from the customer or client left behind: they are not the new party's.
    if (getValues('party') !== 'walkin') {
      for (const field of ['contact.name', 'contact.phone', 'contact.email'] as const) setValue(field, '', dirty);
      fillAddress({ line: '' });
    }
    setValue('party', party, dirty);
    setValue('customerId', '', dirty);
    setValue('b2bClientId', '', dirty);
    setCustomer(null);
    const method = getValues('paymentMethod');
    if (party !== 'b2b' && method === 'credit') setValue('paymentMethod', methods.find((m) => m !== 'credit') ?? '');
  }
  function fillAddress(a: {
    line: string;
    neighborhood?: string | null;
    city?: string | null;
    notes?: string | null;
    lat?: number | null;
    lng?: number | null;
  }) {
    setValue('address.line', a.line, dirty);
    setValue('address.neighborhood', a.neighborhood ?? '', dirty);
    setValue('address.city', a.city ?? '', dirty);
    setValue('address.notes', a.notes ?? '', dirty);
    setValue('address.lat', a.lat != null ? String(a.lat) : '', dirty);
    setValue('address.lng', a.lng != null ? String(a.lng) : '', dirty);
  }
  function chooseCustomer(user: User | null) {
    setCustomer(user);
    setValue('customerId', user?.id ?? '', { ...dirty, shouldValidate: formState.isSubmitted });
    if (!user) return;
    setValue('contact.name', user.name, dirty);
    setValue('contact.phone', user.phone ?? '', dirty);
    setValue('contact.email', user.email, dirty);
    const [address] = user.addresses;
    if (address) fillAddress(address);
  }
  function chooseClient(id: string) {
    const c = clients.find((x) => x.id === id);
    if (!c) return;
    setValue('contact.name', c.contactName ?? c.businessName, dirty);
    setValue('contact.phone', c.phone ?? '', dirty);
    setValue('contact.email', c.email ?? '', dirty);
    if (c.address) fillAddress({ line: c.address });
    setValue('paymentMethod', 'credit', dirty);
  }

  const submit = handleSubmit(async (form) => {
    // A click while sending waits; a retry of the same order (or the same order from another tab) reuses its
    // Idempotency-Key, so the server makes one order however often it is sent.
    if (sending.current) return;
    sending.current = true;
    setFormError(null);
    const input = toInput(form);
    let order: Order;
    try {
      order = await orderEntryApi.create(companyId, input, submitKeys.keyFor(companyId, input));
      submitKeys.settle(companyId, input);
    } catch (err) {
      sending.current = false;
      const message = applyServerErrors(err, isEntryField, setError);
      setFormError(message);
      toastStore.getState().show({ type: 'error', message: message ?? 'Revisa los campos marcados.' });
      throw err;
    }
    toastStore.getState().show(`Pedido #${order.number} creado`);
    allowNextNavigation();
    void navigate(orderOnList(order));
  });

  return (
    <form
      onSubmit={(e) => void submit(e).catch(() => undefined)}
      noValidate
      className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start"
    >
      <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-6">
        <FormAlert>{formError}</FormAlert>
        <PartySection
          companyId={companyId}
          form={form}
          clients={clients}
          customer={customer}
          credit={credit}
          check={check}
          onParty={choose}
          onCustomer={chooseCustomer}
          onClient={chooseClient}
          onAddress={fillAddress}
        />
        <LinesSection form={form} lines={lines} products={products} terms={terms} client={client} />
        <ScheduleSection form={form} settings={settings} days={days} today={today} />
        <FormSection title="Pago y notas">
          <PaymentSection form={form} methods={methods} />
          <TextAreaField
            id="entry-notes"
            label="Notas del pedido"
            labelNote="(opcional)"
            rows={2}
            maxLength={1000}
            registration={form.register('notes')}
            error={formState.errors.notes?.message}
          />
        </FormSection>
        <TotalBar total={totals.total} lines={priced.length} />
      </div>
      <SummaryPanel
        totals={totals}
        settings={settings}
        fulfillment={values.fulfillment}
        client={client}
        credit={credit}
        check={check}
        onCredit={values.paymentMethod === 'credit'}
        sending={formState.isSubmitting}
      />
      <UnsavedChangesDialog blocker={blocker} />
    </form>
  );
}
