import { describe, expect, it } from 'vitest';
import { paths } from '../config/paths';
import { signUpTarget } from './sign-in-screens';

const shopper = { uid: 'u1', role: 'company_customer', companyId: 'c1' } as const;

/** `/registro` follows its `?redirect=` with /login's check, never a weaker one of its own. */
describe('where /registro goes after the account is made', () => {
  it('follows a path of ours the new shopper may open', () => {
    expect(signUpTarget(shopper, paths.orderSummary('cart1'))).toBe(paths.orderSummary('cart1'));
    expect(signUpTarget(shopper, `${paths.collection('panes')}?orden=precio`)).toBe('/productos/panes?orden=precio');
  });

  it('never leaves the origin, however the path is spelled', () => {
    const away = [
      '/\\evil.example',
      '/\\/evil.example',
      '//evil.example',
      '/%2F/evil.example',
      '/%5Cevil.example',
      '/\t/evil.example',
      'https://evil.example/x',
      'evil.example',
    ];
    for (const target of away) expect(signUpTarget(shopper, target), target).toBe('/');
  });

  it('lands on the shop without a target, or with one the shopper may not open', () => {
    expect(signUpTarget(shopper, null)).toBe('/');
    expect(signUpTarget(shopper, '/dashboard/orders')).toBe('/');
  });
});
