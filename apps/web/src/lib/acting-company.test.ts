import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingCompany, chooseActingCompany } from './acting-company';

describe('acting company (the system admin switcher)', () => {
  let data: Map<string, string>;
  beforeEach(() => {
    data = new Map();
    vi.stubGlobal('window', {
      sessionStorage: {
        getItem: (k: string) => data.get(k) ?? null,
        setItem: (k: string, v: string) => void data.set(k, v),
        removeItem: (k: string) => void data.delete(k),
      },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the chosen company for the tab, the same object until it changes, and forgets it', () => {
    expect(actingCompany()).toBeNull();
    chooseActingCompany({ id: 'c1', name: 'Horno de Carlos' });
    const first = actingCompany();
    expect(first).toEqual({ id: 'c1', name: 'Horno de Carlos' });
    // useSyncExternalStore needs a stable snapshot between changes.
    expect(actingCompany()).toBe(first);
    chooseActingCompany(null);
    expect(actingCompany()).toBeNull();
  });

  it('reads a damaged or foreign stored value as no choice', () => {
    data.set('hornada.acting-company', '{not json');
    expect(actingCompany()).toBeNull();
    data.set('hornada.acting-company', JSON.stringify({ id: 7 }));
    expect(actingCompany()).toBeNull();
  });
});
