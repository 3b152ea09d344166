import type { ErrorCode } from '@hornada/domain/errors';
import { GENERIC_ERROR_ES, STOREFRONT_ERROR_TEXTS_ES } from '@hornada/domain/errors-storefront';

/**
 * The Spanish texts of the error codes this page knows (docs/design.md §3). The storefront's first load carries only the
 * codes a visitor can meet (packages/domain/src/errors-storefront.ts); the other areas add theirs when their code
 * loads: the auth store and the auth pages the sign-in texts, the signed-in areas' layout the back office's. A
 * code whose texts are not here yet reads as the general message.
 */
const known: Partial<Record<ErrorCode, string>> = { ...STOREFRONT_ERROR_TEXTS_ES };

/** Makes an area's texts known (idempotent): call it at the top of the module whose screens meet them. */
export function addErrorTexts(texts: Partial<Record<ErrorCode, string>>): void {
  Object.assign(known, texts);
}

/** The Spanish text for an error code; the general message for a missing, unknown or not yet loaded one. */
export function errorText(code: string | undefined): string {
  return (code !== undefined && Object.hasOwn(known, code) ? known[code as ErrorCode] : undefined) ?? GENERIC_ERROR_ES;
}
