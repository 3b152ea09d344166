import { describe, expect, it } from 'vitest';
import { currentLink } from './area-layout';

const items = [
  { to: '/dashboard/orders' },
  { to: '/dashboard/orders/production/grouped' },
  { to: '/dashboard/orders/production/single' },
  { to: '/dashboard/recipes' },
];

describe('currentLink', () => {
  it('lights only the deepest link the page is under', () => {
    expect(currentLink(items, '/dashboard/orders/production/grouped')).toBe('/dashboard/orders/production/grouped');
    expect(currentLink(items, '/dashboard/orders/production/single')).toBe('/dashboard/orders/production/single');
    expect(currentLink(items, '/dashboard/orders')).toBe('/dashboard/orders');
    expect(currentLink(items, '/dashboard/orders/create')).toBe('/dashboard/orders');
    expect(currentLink(items, '/dashboard/recipes/update/r1')).toBe('/dashboard/recipes');
  });
  it('lights none for a page under no link, nor for a name that only starts alike', () => {
    expect(currentLink(items, '/dashboard/settings')).toBeNull();
    expect(currentLink(items, '/dashboard/recipes-old')).toBeNull();
  });
});
