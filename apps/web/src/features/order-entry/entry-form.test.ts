import type { FieldErrors, ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { EMPTY_FORM, entryResolver, isEntryField, toInput, type EntryForm } from './entry-form';

const options = { shouldUseNativeValidation: false, fields: {} } as ResolverOptions<EntryForm>;
const check = async (form: EntryForm, hasWindows = true) =>
  (await entryResolver(hasWindows)(form, undefined, options)).errors as FieldErrors<EntryForm>;

const ID = 'a'.repeat(21);
const filled: EntryForm = {
  ...EMPTY_FORM,
  party: 'b2b',
  b2bClientId: ID,
  contact: { name: ' Camila Ríos ', phone: '310 555 0199', email: '' },
  items: [{ productId: ID, quantity: '3', notes: ' sin azúcar ' }],
  fulfillment: 'delivery',
  address: { line: 'Carrera 7 # 45-10', neighborhood: '', city: 'Bogotá', notes: '', lat: '', lng: '' },
  dueDate: '2026-11-25',
  window: 'manana',
  paymentMethod: 'credit',
};

describe('order entry form', () => {
  it('sends what the API takes: trimmed text, nulls for empty, the party chosen only', () => {
    expect(toInput(filled)).toEqual({
      customerId: null,
      b2bClientId: ID,
      contact: { name: 'Camila Ríos', phone: '310 555 0199', email: null },
      items: [{ productId: ID, quantity: 3, notes: 'sin azúcar' }],
      fulfillment: 'delivery',
      address: { line: 'Carrera 7 # 45-10', neighborhood: null, city: 'Bogotá', notes: null, lat: null, lng: null },
      dueDate: '2026-11-25',
      window: 'manana',
      paymentMethod: 'credit',
      notes: null,
    });
    expect(toInput({ ...filled, party: 'walkin', fulfillment: 'pickup' })).toMatchObject({
      b2bClientId: null,
      address: null,
    });
  });

  it('says in Spanish under each field what is missing', async () => {
    const errors = await check({ ...EMPTY_FORM, dueDate: '2026-11-25' });
    expect(errors.customerId?.message).toBe('Busca y elige un cliente.');
    expect(errors.contact?.name?.message).toBe('Escribe el nombre de contacto.');
    expect(errors.contact?.phone?.message).toBe('Escribe un teléfono de contacto.');
    expect(errors.items?.message).toBe('Agrega al menos un producto.');
    expect(errors.address?.line?.message).toBe('Escribe la dirección de entrega.');
    expect(errors.window?.message).toBe('Elige un horario.');
    expect(errors.paymentMethod?.message).toBe('Elige el medio de pago.');
  });

  it('checks each line’s quantity and the e-mail, and passes a complete order', async () => {
    const errors = await check({
      ...filled,
      contact: { ...filled.contact, email: 'no-es-correo' },
      items: [{ productId: ID, quantity: '1.5', notes: '' }],
    });
    expect(errors.items?.[0]?.quantity?.message).toBe('Escribe una cantidad entera entre 1 y 1000.');
    expect(errors.contact?.email?.message).toMatch(/correo válido/);
    expect(await check(filled)).toEqual({});
    expect(await check({ ...filled, window: '' }, false)).toEqual({});
  });

  it('knows which server error paths are its fields', () => {
    expect(['window', 'items.2.productId', 'contact.phone', 'address.line'].every(isEntryField)).toBe(true);
    expect(isEntryField('status')).toBe(false);
  });

  it('sends the map pin typed (a comma read as the point), or none, and says what is wrong with it', async () => {
    const pinned = { ...filled, address: { ...filled.address, lat: ' 4,6278 ', lng: '-74.0712' } };
    expect(toInput(pinned).address).toMatchObject({ lat: 4.6278, lng: -74.0712 });
    const half = await check({ ...filled, address: { ...filled.address, lat: '4.6278' } });
    expect(half.address?.lng?.message).toBe('Escribe la latitud y la longitud, o deja las dos vacías.');
    const wrong = await check({ ...filled, address: { ...filled.address, lat: '95', lng: 'oeste' } });
    expect(wrong.address?.lat?.message).toBe('Escribe una latitud entre -90 y 90, por ejemplo 4.6278.');
    expect(wrong.address?.lng?.message).toBe('Escribe una longitud entre -180 y 180, por ejemplo -74.0712.');
    expect(toInput({ ...filled, address: { ...filled.address, lat: '95', lng: '1' } }).address).toMatchObject({
      lat: null,
      lng: null,
    });
  });
});
