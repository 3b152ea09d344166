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
  'auth/invalid-action-code': 'Este enlace no es válido o ya se usó. Pide uno nuevo.',
  'auth/expired-action-code': 'Este enlace venció. Pide uno nuevo.',
  'auth/google-failed': 'No pudimos iniciar sesión con Google. Intenta de nuevo.',
  'auth/google-other-browser':
    'Este inicio de sesión con Google se empezó en otro navegador. Vuelve a intentarlo desde este.',
  'auth/email-not-verified': 'Primero confirma tu correo con el enlace que te enviamos. Luego intenta de nuevo.',
  'cart/product-unavailable': 'Este producto ya no está disponible.',
  'cart/pickup-unavailable': 'Esta panadería no ofrece recogida en tienda.',
  // File storage (spec §8): the API's codes, then the two the web's uploader raises itself.
  'storage/quota-exceeded':
    'Se acabó el espacio para imágenes de tu panadería. Borra las que ya no uses e intenta de nuevo.',
  'storage/file-too-large': 'La imagen pesa más de 5 MB. Elige una más liviana.',
  'storage/image-too-large': 'La imagen tiene más de 40 megapíxeles. Elige una más pequeña.',
  'storage/unsupported-type': 'El archivo no es una imagen compatible. Usa una foto JPG, PNG, WebP, GIF o AVIF.',
  'storage/object-not-found': 'No encontramos ese archivo.',
  'storage/retry-limit-exceeded':
    'No pudimos completar la operación tras varios intentos. Revisa tu conexión e intenta de nuevo.',
  'storage/canceled': 'Se canceló la operación.',
  'orders/invalid-transition': 'Este pedido no puede pasar a ese estado.',
  'orders/invalid-payment': 'El pago de este pedido no puede pasar a ese estado.',
  'orders/locked': 'Este pedido ya no se puede modificar en su estado actual.',
  'orders/minimum-order': 'Tu pedido no alcanza el valor mínimo.',
  'orders/day-unavailable': 'Ese día u horario ya no está disponible. Elige otro.',
  'orders/window-full': 'Ese horario se llenó. Elige otro.',
  'orders/payment-method-unavailable': 'Ese medio de pago no está disponible.',
  'orders/product-unavailable': 'Un producto de tu pedido ya no está disponible.',
  'orders/cart-checked-out': 'Este carrito ya se convirtió en un pedido.',
  'orders/idempotency-mismatch': 'Esta solicitud ya se usó con otros datos.',
  // Replay-safe writes (issue 23): an Idempotency-Key reused with another request, a stale If-Match.
  idempotency_mismatch: 'Esta solicitud ya se usó con otros datos.',
  precondition_failed: 'Este registro cambió mientras tanto. Recarga para ver su estado actual e intenta de nuevo.',
  'orders/total-too-large': 'El total del pedido supera el máximo de $100,000,000. Divídelo en varios pedidos.',
  'orders/beyond-horizon': 'Solo se puede pedir para los próximos 62 días. Elige una fecha más cercana.',
  'orders/too-many-unpaid':
    'Ya hay varios pedidos sin pagar de hoy con estos datos. Para hacer otro, espera a que la panadería los confirme o comunícate con ella.',
  'orders/field-outside-move': 'Ese dato no se puede cambiar en este momento del pedido.',
  unavailable: 'El servicio no está disponible en este momento.',
  database_timeout: 'El servidor tardó demasiado en responder. Intenta de nuevo.',
  not_implemented: 'Esta acción no está disponible.',
  // Raised by the web client itself, never by the API (spec §8's client rows).
  timeout: 'La solicitud tardó demasiado. Intenta de nuevo.',
  network: 'No pudimos conectarnos. Revisa tu conexión e intenta de nuevo.',
  invalid_response: 'Recibimos una respuesta inesperada del servidor. Intenta de nuevo.',
  request_failed: 'No pudimos enviar la solicitud. Intenta de nuevo.',
} as const;
export type ErrorCode = keyof typeof ERROR_TEXTS_ES;

export const GENERIC_ERROR_ES = 'No pudimos completar la solicitud. Intenta de nuevo.';

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_TEXTS_ES, code);
}

/** The Spanish text for an error code; the general message for a missing or unknown one. */
export function errorTextEs(code: string | undefined): string {
  return isErrorCode(code) ? ERROR_TEXTS_ES[code] : GENERIC_ERROR_ES;
}

/**
 * The code to read when an error response carries none (a proxy's 502 page, say): the API's own
 * status-to-code pairs of design §3, any other 4xx a bad request and any other 5xx internal.
 */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthenticated';
    case 402:
      return 'storage/quota-exceeded';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 412:
      return 'precondition_failed';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'business_rule';
    case 429:
      return 'rate_limited';
    case 501:
      return 'not_implemented';
    case 502:
    case 503:
    case 504:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal' : 'bad_request';
  }
}

/** The error envelope of design §3. */
export interface ApiErrorBody {
  message: string;
  error: string;
  code: string;
  details?: { path: string; message: string }[];
}
