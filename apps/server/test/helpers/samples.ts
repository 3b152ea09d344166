/**
 * A valid body for every resource, for the tests generated from the definitions and the permission table
 * (tenants, permissions, partial writes, public fields). A new resource fails those tests until it has a
 * sample here.
 */
import { b2bClients, products } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { setupTestApp, type TestApp, type TestUser } from './app';

type Body = Record<string, unknown>;

/** Records of the company a sample refers to (an order's product, a standing order's client): made by `sampleRefs`. */
export interface SampleRefs {
  product: string;
  b2bClient: string;
}

/** A product and a B2B client in the company for the samples that need them. */
export async function sampleRefs(t: TestApp, companyId: string): Promise<SampleRefs> {
  const id = newId();
  const client = newId();
  const now = t.clock.now();
  await t.db
    .insert(products)
    .values({ id, companyId, name: 'Pan de muestra', price: 3000, createdAt: now, updatedAt: now });
  await t.db
    .insert(b2bClients)
    // With an address: the full standing-order sample delivers to it (one without could never order).
    .values({
      id: client,
      companyId,
      businessName: 'Café de muestra',
      address: 'Calle 1 # 2-3',
      createdAt: now,
      updatedAt: now,
    });
  return { product: id, b2bClient: client };
}

/**
 * An app for the tests that walk every resource's samples: a company, its admin, the records samples refer to,
 * and no write limit (they write hundreds of records).
 */
export async function setupSamplesApp(): Promise<{ t: TestApp; companyId: string; admin: TestUser; refs: SampleRefs }> {
  const t = await setupTestApp({ env: { RATE_LIMIT_WRITES: '0' } });
  const companyId = await t.company();
  const admin = await t.user('company_admin', companyId);
  return { t, companyId, admin, refs: await sampleRefs(t, companyId) };
}

function needRefs(refs: SampleRefs | undefined): SampleRefs {
  if (!refs) throw new Error('This sample refers to other records: pass sampleRefs(t, companyId)');
  return refs;
}

export interface Sample {
  /** A POST body; `n` makes unique values (e-mail addresses); `refs` the records it may refer to. */
  create: (n: number, refs?: SampleRefs) => Body;
  /** A PUT body (the full input). */
  put: Body;
  /** The PUT body of a sample that refers to other records (used instead of `put`). */
  putWith?: (refs?: SampleRefs) => Body;
  /** A PATCH body of one field. */
  patch: Body;
  /**
   * A POST body with every field the resource takes away from its default (references excepted), so
   * that a write which resets a field to its default shows.
   */
  full: (n: number, refs?: SampleRefs) => Body;
}

/** A staff order on a Tuesday (the test clock's Sunday + 2), for a bakery with default settings (no windows). */
const standing = (refs: SampleRefs | undefined): Body => ({
  b2bClientId: needRefs(refs).b2bClient,
  weekdays: [1],
  items: [{ productId: needRefs(refs).product, quantity: 10 }],
  fulfillment: 'pickup',
  startsOn: '2027-01-04',
});

const order = (refs: SampleRefs | undefined): Body => ({
  contact: { name: 'Cliente de muestra', phone: '300 000 0000' },
  items: [{ productId: needRefs(refs).product, quantity: 2 }],
  fulfillment: 'pickup',
  dueDate: '2026-11-24',
  paymentMethod: 'cash',
});

const PASSWORD = 'pan-de-bono-tibio';

export const SAMPLES: Record<string, Sample> = {
  users: {
    create: (n) => ({ email: `equipo-${n}@primera.co`, password: PASSWORD, name: 'Equipo', role: 'company_customer' }),
    put: { name: 'Otra persona', role: 'company_customer' },
    patch: { name: 'Nombre nuevo' },
    full: (n) => ({
      email: `completa-${n}@primera.co`,
      password: PASSWORD,
      name: 'Persona Completa',
      role: 'company_customer',
      phone: '+57 300 000 0000',
      addresses: [{ label: 'Casa', line: 'Calle 1 # 2-3', neighborhood: 'Centro', city: 'Bogotá', notes: null }],
      disabled: true,
    }),
  },
  products: {
    create: () => ({ name: 'Pan de queso', price: 2500 }),
    put: { name: 'Otro pan', price: 1 },
    patch: { price: 1 },
    full: () => ({
      name: 'Torta completa',
      description: 'Descripción completa',
      price: 42_000,
      b2bPrice: 35_000,
      images: [{ path: 'products/x/main.webp', alt: 'Torta', width: 960, height: 720, widths: [320] }],
      active: false,
      allergens: ['gluten', 'huevo'],
      sortOrder: 7,
    }),
  },
  productCollections: {
    create: () => ({ name: 'Panes' }),
    put: { name: 'Otra colección' },
    patch: { sortOrder: 3 },
    full: () => ({
      name: 'Completa',
      description: 'Descripción completa',
      image: { path: 'collections/x/main.webp', alt: 'Foto' },
      sortOrder: 9,
      active: false,
    }),
  },
  brands: {
    create: () => ({ name: 'La Espiga' }),
    put: { name: 'Otra marca' },
    patch: { name: 'Marca nueva' },
    full: () => ({
      name: 'Completa',
      description: 'Descripción completa',
      logo: { path: 'brands/x.webp', alt: 'Logo' },
    }),
  },
  ingredients: {
    create: () => ({ name: 'Harina', unit: 'kg', costPerUnit: 3200 }),
    put: { name: 'Otra harina', unit: 'g' },
    patch: { stock: 1 },
    full: () => ({ name: 'Mantequilla', unit: 'g', costPerUnit: 12.5, stock: 900, minStock: 100, supplier: 'Lácteos' }),
  },
  recipes: {
    create: () => ({ name: 'Masa madre', yield: 12 }),
    put: { name: 'Otra masa', yield: 1 },
    patch: { yield: 2 },
    full: () => ({ name: 'Completa', yield: 24, steps: ['Mezclar', 'Hornear'], prepMinutes: 90 }),
  },
  b2bClients: {
    create: () => ({ businessName: 'Hotel Central' }),
    put: { businessName: 'Otro hotel' },
    patch: { discountPercent: 50 },
    full: () => ({
      businessName: 'Hotel Completo',
      taxId: '900123456-8',
      contactName: 'Laura',
      phone: '601 000 0000',
      email: 'compras@hotel.co',
      address: 'Carrera 7',
      discountPercent: 12,
      paymentTermsDays: 30,
      creditLimit: 500_000,
      active: false,
    }),
  },
  standingOrders: {
    create: (_n, refs) => standing(refs),
    put: {},
    putWith: (refs) => ({ ...standing(refs), weekdays: [2, 4] }),
    patch: { active: false },
    full: (_n, refs) => ({
      ...standing(refs),
      weekdays: [1, 2, 3, 4, 5],
      fulfillment: 'delivery',
      window: null,
      notes: 'Entrar por la puerta de servicio',
      endsOn: '2027-06-30',
      skipDates: ['2026-12-24', '2026-12-31'],
      active: true,
    }),
  },
  orders: {
    create: (_n, refs) => order(refs),
    put: {},
    putWith: (refs) => ({ ...order(refs), contact: { name: 'Otro cliente', phone: '1' } }),
    patch: { routePosition: 3 },
    full: (_n, refs) => ({
      ...order(refs),
      contact: { name: 'Cliente Completo', phone: '301 000 0000', email: 'completo@cliente.co' },
      items: [{ productId: needRefs(refs).product, quantity: 3, notes: 'Tajado' }],
      fulfillment: 'delivery',
      address: { label: 'Casa', line: 'Calle 1 # 2-3', neighborhood: 'Centro', city: 'Bogotá', notes: null },
      dueDate: '2026-11-25',
      status: 'confirmed',
      paymentStatus: 'paid',
      paymentMethod: 'transfer',
      routePosition: 1,
      // producedQuantities, cashCollected and cancelReason are left out: each comes only with its move
      // (ORDER_FIELD_MOMENTS), never on a new confirmed order.
      notes: 'Timbre dañado',
    }),
  },
};
