/**
 * The error texts any page can meet, the storefront's own among them: the API's general codes, the web client's,
 * and those of carts and checkout. The storefront's first load carries only these; the other areas'
 * texts are in errors-auth.ts and errors-back-office.ts, and errors.ts joins all three for the server.
 */
export const STOREFRONT_ERROR_TEXTS_ES = {
  validation: 'Revisa los datos: hay campos con errores.',
  bad_request: 'La solicitud no es válida.',
  invalid_json: 'La solicitud no es un JSON válido.',
  unsupported_media_type: 'El tipo de contenido no es compatible.',
  payload_too_large: 'La solicitud es demasiado grande.',
  unauthenticated: 'Inicia sesión para continuar.',
  forbidden: 'No tienes permiso para hacer esto.',
  not_found: 'No encontramos lo que buscas.',
  // A host name that names no bakery (docs/design.md §4: every bakery a shop).
  'shops/unknown-host': 'No encontramos ninguna panadería en esta dirección.',
  // A shop whose setup checklist lacks its minimum: it says "Abrimos pronto" and takes no orders yet.
  'shops/opening': 'Esta panadería todavía no recibe pedidos en línea. Abrimos pronto.',
  conflict: 'Hubo un conflicto con otro cambio. Intenta de nuevo.',
  business_rule: 'No se puede hacer este cambio.',
  rate_limited: 'Demasiados intentos. Espera un momento e intenta de nuevo.',
  internal: 'Algo salió mal de nuestro lado. Intenta de nuevo.',
  unavailable: 'El servicio no está disponible en este momento.',
  database_timeout: 'El servidor tardó demasiado en responder. Intenta de nuevo.',
  not_implemented: 'Esta acción no está disponible.',
  // Raised by the web client itself, never by the API (docs/product.md §8's client rows).
  timeout: 'La solicitud tardó demasiado. Intenta de nuevo.',
  network: 'No pudimos conectarnos. Revisa tu conexión e intenta de nuevo.',
  invalid_response: 'Recibimos una respuesta inesperada del servidor. Intenta de nuevo.',
  request_failed: 'No pudimos enviar la solicitud. Intenta de nuevo.',
  // Carts and checkout.
  'cart/product-unavailable': 'Este producto ya no está disponible.',
  'cart/pickup-unavailable': 'Esta panadería no ofrece recogida en tienda.',
  'cart/reorder-unavailable': 'Ninguno de los productos de este pedido está disponible hoy.',
  'orders/minimum-order': 'Tu pedido no alcanza el valor mínimo.',
  'orders/day-unavailable': 'Ese día u horario ya no está disponible. Elige otro.',
  'orders/window-full': 'Ese horario se llenó. Elige otro.',
  'orders/payment-method-unavailable': 'Ese medio de pago no está disponible.',
  // A gateway's event whose checksum does not verify (POST /api/payments/events): no person reads it, but every code has its text.
  'payments/invalid-signature': 'No pudimos verificar el aviso de la pasarela de pago.',
  // An event whose checksum leaves out the transaction's id, status or amount: also no person's.
  'payments/uncovered-event': 'El aviso de la pasarela de pago no está firmado completo.',
  // A transaction id sent again with another reference than its first.
  'payments/transaction-reference': 'Esta transacción pertenece a otro pago.',
  'payments/not-payable': 'Este pedido ya no admite un nuevo intento de pago.',
  'orders/product-unavailable': 'Un producto de tu pedido ya no está disponible.',
  'orders/cart-checked-out': 'Este carrito ya se convirtió en un pedido.',
  'orders/idempotency-mismatch': 'Esta solicitud ya se usó con otros datos.',
  // Bounds on what one holder books: checkout meets them too.
  'orders/total-too-large': 'El total del pedido supera el máximo de $100,000,000. Divídelo en varios pedidos.',
  'orders/beyond-horizon': 'Solo se puede pedir para los próximos 62 días. Elige una fecha más cercana.',
  // One network address holding its share of a window's places.
  'orders/window-share-taken':
    'Desde esta conexión ya se reservó la mitad de los cupos de este horario. Elige otro horario, o paga o cancela uno de esos pedidos.',
  'orders/too-many-unpaid':
    'Ya hay varios pedidos sin pagar de hoy con estos datos. Para hacer otro, espera a que la panadería los confirme o comunícate con ella.',
} as const;

export const GENERIC_ERROR_ES = 'No pudimos completar la solicitud. Intenta de nuevo.';
