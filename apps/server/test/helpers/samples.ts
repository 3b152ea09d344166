/**
 * A valid body for every resource, for the tests generated from the definitions and the permission table
 * (tenants, permissions, partial writes, public fields). A new resource fails those tests until it has a
 * sample here.
 */
type Body = Record<string, unknown>;

export interface Sample {
  /** A POST body; `n` makes unique values (e-mail addresses). */
  create: (n: number) => Body;
  /** A PUT body (the full input). */
  put: Body;
  /** A PATCH body of one field. */
  patch: Body;
  /**
   * A POST body with every field the resource takes away from its default (references excepted), so
   * that a write which resets a field to its default shows.
   */
  full: (n: number) => Body;
}

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
};
