import { describe, expect, it } from 'vitest';
import { can, grantOf, POLICY, publicFields, RESOURCE_NAMES } from './policy';
import { ROLES } from './roles';
import { GUEST_LIVE_RESOURCES } from './constants';
import { Brand, Product, ProductCollection } from './schemas/catalogue';
import { Settings, SETTINGS_PRIVATE_FIELDS } from './schemas/settings';

describe('the permission table', () => {
  it('names only fields the records have in each public field set', () => {
    const records = { products: Product, productCollections: ProductCollection, brands: Brand, settings: Settings };
    for (const [name, schema] of Object.entries(records)) {
      const keys = Object.keys(schema.shape);
      for (const f of publicFields(name as keyof typeof records)!) expect(keys, `${name}.${f}`).toContain(f);
    }
  });

  it('splits the settings into the public part and the private fields, nothing left over', () => {
    const all = Object.keys(Settings.shape).sort();
    expect([...publicFields('settings')!, ...SETTINGS_PRIVATE_FIELDS].sort()).toEqual(all);
  });

  it('keeps wholesale prices and recipes out of the public products', () => {
    expect(publicFields('products')).not.toContain('b2bPrice');
    expect(publicFields('products')).not.toContain('recipeId');
  });

  it('lets a system_admin do everything and a customer nothing in the back office', () => {
    for (const r of RESOURCE_NAMES) {
      for (const a of ['read', 'create', 'update', 'delete'] as const) {
        if (r !== 'settings' || a === 'read' || a === 'update') expect(can('system_admin', r, a)).toBe(true);
        // A customer's own orders are the one exception (docs/design.md §5): it reads them and may cancel one.
        if (r !== 'orders') expect(grantOf('company_customer', r, a)).toBeNull();
      }
    }
    expect(POLICY.orders.read.company_customer).toBe('own');
    expect(POLICY.orders.writable.company_customer).toEqual(['status', 'cancelReason']);
    expect(grantOf('company_customer', 'orders', 'create')).toBeNull();
    expect(ROLES.filter((role) => can(role, 'settings', 'update'))).toEqual(['system_admin', 'company_admin']);
    expect(POLICY.users.read.company_staff).toBe('customers');
  });
});

describe('a guest’s live stream', () => {
  it('follows exactly the resources the table opens to guests', () => {
    const open = RESOURCE_NAMES.filter((r) => 'public' in POLICY[r]).sort();
    expect([...GUEST_LIVE_RESOURCES].sort()).toEqual(open);
  });
});
