import { useSyncExternalStore } from 'react';

/**
 * The bakery a system admin acts on (the company switcher): chosen in the dashboard's header, kept
 * for this tab (session storage), and read by every back-office screen through useCompanyId, so each call
 * goes to that company's path. Other roles act on their own company and never read this.
 */

const KEY = 'hornada.acting-company';

export interface ActingCompany {
  id: string;
  name: string;
}

const listeners = new Set<() => void>();
let cached: { raw: string | null; value: ActingCompany | null } = { raw: null, value: null };

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

function parse(raw: string | null): ActingCompany | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<ActingCompany>;
    return typeof v.id === 'string' && typeof v.name === 'string' ? { id: v.id, name: v.name } : null;
  } catch {
    return null;
  }
}

/** The chosen company, or null (then the market's). Stable between changes, as useSyncExternalStore needs. */
export function actingCompany(): ActingCompany | null {
  const raw = storage()?.getItem(KEY) ?? null;
  if (raw !== cached.raw) cached = { raw, value: parse(raw) };
  return cached.value;
}

export function chooseActingCompany(company: ActingCompany | null): void {
  const s = storage();
  if (company) s?.setItem(KEY, JSON.stringify(company));
  else s?.removeItem(KEY);
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function useActingCompany(): ActingCompany | null {
  return useSyncExternalStore(subscribe, actingCompany, () => null);
}
