import { PASSWORD_MAX, PASSWORD_MIN, passwordLength } from '@hornada/domain/identity';
import type { FieldValues, Path, Resolver, UseFormSetError } from 'react-hook-form';
import { nitCheckDigit } from '@hornada/domain/schemas/nit';
import type { z } from 'zod';
import { errorText } from './api/error-texts';
import { ApiError } from './api/http';

/**
 * Forms checked with the domain's zod schemas (style.md habit 2), in Spanish: the schemas' own messages are
 * the API's English, so each issue is said again here from its code and limits. Only lazy screens import
 * this module (it brings zod).
 */

/** The password rules of packages/domain, said plainly. */
export const PASSWORD_RULES_ES = `Al menos ${PASSWORD_MIN} caracteres (hasta ${PASSWORD_MAX}). Puedes usar espacios, frases y cualquier símbolo; evita las contraseñas comunes.`;

/** What is wrong with a password by the domain's length rules, in Spanish; null when it passes them. */
export function passwordProblem(value: unknown): string | null {
  const n = typeof value === 'string' ? passwordLength(value) : 0;
  if (n < PASSWORD_MIN) return `La contraseña debe tener al menos ${PASSWORD_MIN} caracteres.`;
  if (n > PASSWORD_MAX) return `La contraseña debe tener como máximo ${PASSWORD_MAX} caracteres.`;
  return null;
}

export type Issue = z.core.$ZodIssue;

const NIT_FORMAT = 'Escribe el NIT con su dígito de verificación, por ejemplo 900123456-8.';

/** What is wrong with a NIT (the domain's check is a refinement with an English text), in Spanish. */
export function nitProblem(value: unknown): string {
  const m = typeof value === 'string' ? /^(\d{5,15})-(\d)$/.exec(value.replace(/[.\s]/g, '')) : null;
  if (!m) return NIT_FORMAT;
  return `El dígito de verificación no corresponde a este NIT: debería ser ${nitCheckDigit(m[1]!)}.`;
}

const REQUIRED = 'Este campo es obligatorio.';
const EMAIL = 'Escribe un correo válido, por ejemplo nombre@correo.com.';

function valueAt(values: unknown, path: readonly PropertyKey[]): unknown {
  let current = values;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const isPasswordPath = (path: string) => /password$/i.test(path);

/** The Spanish text for one zod issue on the value the schema was given. */
export function issueMessageEs(issue: Issue, value: unknown): string {
  const path = issue.path.map(String).join('.');
  // The domain's password rules are refinements (code `custom`) with English texts.
  if (issue.code === 'custom' && isPasswordPath(path)) return passwordProblem(value) ?? 'Revisa la contraseña.';
  // A domain refinement may carry its own Spanish text (`params.es`), e.g. overlapping delivery windows.
  if (issue.code === 'custom' && typeof issue.params?.es === 'string') return issue.params.es;
  if (issue.code === 'custom' && path === 'taxId') return nitProblem(value);
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1 ? REQUIRED : `Debe tener al menos ${issue.minimum} caracteres.`;
      }
      if (issue.origin === 'number') return `Debe ser como mínimo ${issue.minimum}.`;
      return `Agrega al menos ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Debe tener como máximo ${issue.maximum} caracteres.`;
      if (issue.origin === 'number') return `Debe ser como máximo ${issue.maximum}.`;
      return `Puedes guardar hasta ${issue.maximum}.`;
    case 'invalid_format':
      return issue.format === 'email' ? EMAIL : 'El formato no es válido.';
    case 'invalid_type':
      if (issue.expected === 'number') return 'Escribe un número.';
      return value === undefined || value === null || value === '' ? REQUIRED : 'El valor no es válido.';
    default:
      return 'El valor no es válido.';
  }
}

type FieldErrorMap = Record<string, { type: string; message: string }>;

/** Nests `{"a.0.b": err}` into `{a: [{b: err}]}`, the shape react-hook-form reads errors in. */
function nest(flat: FieldErrorMap): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, error] of Object.entries(flat)) {
    const keys = path.split('.');
    let node: Record<string, unknown> = root;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) {
        node[key] = error;
        return;
      }
      const nextIsIndex = /^\d+$/.test(keys[i + 1] ?? '');
      node[key] ??= nextIsIndex ? [] : {};
      node = node[key] as Record<string, unknown>;
    });
  }
  return root;
}

/** What a form adds to its domain schema: its own words for some issues, and checks the schema cannot make. */
export interface ResolverExtras<TForm> {
  /** The form's own text for an issue at `path` (e.g. "Escribe tu nombre."); null: the generic Spanish. */
  message?: (path: string, issue: Issue) => string | null;
  /** Problems only the screen knows (a day no longer offered), by path: checked after the schema's. */
  check?: (form: TForm) => Record<string, string>;
}

/**
 * A react-hook-form resolver from a domain schema. `toInput` turns the form's strings into what the API takes
 * (empty text to null, numbers parsed), so the check is the server's own; the form's field names must be the
 * API's, so that issue paths name the fields.
 */
export function domainResolver<TForm extends FieldValues>(
  schema: z.ZodType,
  toInput: (form: TForm) => unknown = (form) => form,
  extras: ResolverExtras<TForm> = {},
): Resolver<TForm> {
  return (values) => {
    const input = toInput(values);
    const result = schema.safeParse(input);
    const flat: FieldErrorMap = {};
    for (const issue of result.success ? [] : result.error.issues) {
      const path = issue.path.map(String).join('.');
      // The first problem of a field is the one shown.
      flat[path] ??= {
        type: issue.code,
        message: extras.message?.(path, issue) ?? issueMessageEs(issue, valueAt(input, issue.path)),
      };
    }
    for (const [path, message] of Object.entries(extras.check?.(values) ?? {})) {
      flat[path] ??= { type: 'screen', message };
    }
    if (Object.keys(flat).length === 0) return { values, errors: {} };
    return { values: {}, errors: nest(flat) as never };
  };
}

/** The Spanish for one of the server's `details` (English, docs/design.md §3), by the error's code and the text. */
function detailMessageEs(code: string | undefined, message: string): string {
  if (code && code !== 'validation') return errorText(code);
  const atLeast = /at least (\d+)/i.exec(message);
  if (atLeast) return `Debe tener al menos ${atLeast[1]} caracteres.`;
  const atMost = /at most (\d+)/i.exec(message);
  if (atMost) return `Debe tener como máximo ${atMost[1]} caracteres.`;
  if (/email/i.test(message)) return EMAIL;
  if (/\bNIT\b/.test(message)) return 'El NIT o su dígito de verificación no es válido.';
  if (/required/i.test(message)) return REQUIRED;
  return 'Revisa este campo.';
}

/**
 * Puts a failed request's per-field `details` under the form's fields (`isField` says which paths it has). Returns the message for the whole
 * form: null when every problem landed on a field it names, else the error's Spanish text.
 */
export function applyServerErrors<TForm extends FieldValues>(
  err: unknown,
  isField: (path: string) => boolean,
  setError: UseFormSetError<TForm>,
): string | null {
  if (!(err instanceof ApiError)) return errorText(undefined);
  let unplaced = err.details.length === 0;
  let focused = false;
  for (const detail of err.details) {
    if (!isField(detail.path)) {
      unplaced = true;
      continue;
    }
    setError(
      detail.path as Path<TForm>,
      { type: 'server', message: detailMessageEs(err.code, detail.message) },
      { shouldFocus: !focused },
    );
    focused = true;
  }
  return unplaced ? err.userMessage : null;
}
