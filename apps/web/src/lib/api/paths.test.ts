import { describe, expect, it } from 'vitest';
import { companyPath } from './paths';

describe('companyPath', () => {
  it('builds a company’s path with every part encoded', () => {
    expect(companyPath('la-espiga')).toBe('/companies/la-espiga');
    expect(companyPath('la-espiga', 'orders', 'a/b c')).toBe('/companies/la-espiga/orders/a%2Fb%20c');
    expect(companyPath('x?y', 'reports', 'sales')).toBe('/companies/x%3Fy/reports/sales');
  });
});
