/**
 * Stable error codes of the API (design §3) and the Spanish text a person reads for each.
 * The API's `message` stays English (the spec's texts word for word); the web shows these.
 */
export const ERROR_TEXTS_ES = {
  validation: 'Revisa los datos: hay campos con errores.',
  bad_request: 'La solicitud no es válida.',
  invalid_json: 'La solicitud no es un JSON válido.',
  unsupported_media_type: 'El tipo de contenido no es compatible.',
  payload_too_large: 'La solicitud es demasiado grande.',
  unauthenticated: 'Inicia sesión para continuar.',
  forbidden: 'No tienes permiso para hacer esto.',
  not_found: 'No encontramos lo que buscas.',
  conflict: 'Hubo un conflicto con otro cambio. Intenta de nuevo.',
  business_rule: 'No se puede hacer este cambio.',
  rate_limited: 'Demasiados intentos. Espera un momento e intenta de nuevo.',
  internal: 'Algo salió mal de nuestro lado. Intenta de nuevo.',
  'auth/invalid-credential': 'Correo o contraseña incorrectos.',
  'auth/user-disabled': 'Esta cuenta está deshabilitada.',
  'auth/operation-not-allowed': 'El inicio de sesión con correo y contraseña no está habilitado. Contacta a soporte.',
  'auth/invalid-token': 'Tu sesión expiró. Inicia sesión de nuevo.',
  'auth/email-mismatch': 'El correo no coincide con la sesión.',
  'auth/weak-password': 'Esa contraseña es muy común. Elige otra.',
  'auth/email-in-use': 'Ya existe una cuenta con ese correo.',
  'auth/wrong-password': 'La contraseña actual no es correcta.',
  unavailable: 'El servicio no está disponible en este momento.',
} as const;
export type ErrorCode = keyof typeof ERROR_TEXTS_ES;

export const GENERIC_ERROR_ES = 'No pudimos completar la solicitud. Intenta de nuevo.';

export function errorTextEs(code: string | undefined): string {
  return (code && (ERROR_TEXTS_ES as Record<string, string>)[code]) || GENERIC_ERROR_ES;
}

/** The error envelope of design §3. */
export interface ApiErrorBody {
  message: string;
  error: string;
  code: string;
  details?: { path: string; message: string }[];
}
