import { AUTH_ERROR_TEXTS_ES } from './errors-auth';
import { BACK_OFFICE_ERROR_TEXTS_ES } from './errors-back-office';
import { GENERIC_ERROR_ES, STOREFRONT_ERROR_TEXTS_ES } from './errors-storefront';

export { GENERIC_ERROR_ES };

/**
 * Stable error codes of the API (docs/design.md §3) and the Spanish text a person reads for each: every code is spelled
 * once, in the file of the area that meets it (storefront, auth, back office), so that the web loads each area's
 * texts with that area; the server and this union see them all.
 * The API's `message` stays English (the spec's texts word for word); the web shows these.
 */
export const ERROR_TEXTS_ES = {
  ...STOREFRONT_ERROR_TEXTS_ES,
  ...AUTH_ERROR_TEXTS_ES,
  ...BACK_OFFICE_ERROR_TEXTS_ES,
} as const;
export type ErrorCode = keyof typeof ERROR_TEXTS_ES;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_TEXTS_ES, code);
}

/** The Spanish text for an error code; the general message for a missing or unknown one. */
export function errorTextEs(code: string | undefined): string {
  return isErrorCode(code) ? ERROR_TEXTS_ES[code] : GENERIC_ERROR_ES;
}
