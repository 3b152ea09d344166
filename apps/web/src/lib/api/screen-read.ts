import { actingCompany } from '../acting-company';
import { authStore } from '../auth/auth-store';
import { failureText } from './failure-text';
import { storefrontApi } from './storefront-api';

/** What a screen's loader read: the data, or what to say (with a retry) when the read failed. */
export type ScreenRead<T> = { state: 'ready'; data: T } | { state: 'failed'; message: string };

/**
 * The company a screen's loader reads, as useCompanyId chooses it (outside React): the user's own, the one a
 * system admin chose, else the market's; null when signed out. Loaders run after the guard, so a user is known.
 */
export async function loaderCompanyId(): Promise<string | null> {
  const user = authStore.getState().user;
  if (!user) return null;
  return user.companyId ?? actingCompany()?.id ?? (await storefrontApi(null).config()).companyId;
}

/**
 * A screen loader's read: a failure (no signal, a refusal) is the screen's to say in Spanish with a retry, never
 * the router's error page. `failure` words it; by default the server's own message, or a general one.
 */
export async function screenRead<T>(
  read: () => Promise<T>,
  failure: (err: unknown) => string = failureText,
): Promise<ScreenRead<T>> {
  try {
    return { state: 'ready', data: await read() };
  } catch (err) {
    return { state: 'failed', message: failure(err) };
  }
}

/** A screen loader's read of its company's data (`companyId`, when the loader knows it already). */
export async function readForScreen<T>(
  read: (companyId: string) => Promise<T>,
  failure: (err: unknown) => string = failureText,
  companyId?: string | null,
): Promise<ScreenRead<T>> {
  return screenRead(async () => {
    const id = companyId === undefined ? await loaderCompanyId() : companyId;
    if (!id) throw new Error('no company');
    return read(id);
  }, failure);
}
