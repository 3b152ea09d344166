/** The error texts of the signed-in areas' screens: orders' moves and file storage (see errors-storefront.ts). */
export const BACK_OFFICE_ERROR_TEXTS_ES = {
  // A custom domain another bakery's shop answers at, or one of the deployment's own host names (docs/design.md §4).
  'shops/domain-taken': 'Ese dominio ya lo usa otra tienda.',
  // File storage (docs/product.md §8): the API's codes, then the two the web's uploader raises itself.
  'storage/quota-exceeded':
    'Se acabó el espacio para imágenes de tu panadería. Borra las que ya no uses e intenta de nuevo.',
  'storage/file-too-large': 'La imagen pesa más de 5 MB. Elige una más liviana.',
  'storage/image-too-large': 'La imagen tiene más de 40 megapíxeles. Elige una más pequeña.',
  'storage/unsupported-type': 'El archivo no es una imagen compatible. Usa una foto JPG, PNG, WebP, GIF o AVIF.',
  'storage/object-not-found': 'No encontramos ese archivo.',
  'storage/retry-limit-exceeded':
    'No pudimos completar la operación tras varios intentos. Revisa tu conexión e intenta de nuevo.',
  'storage/canceled': 'Se canceló la operación.',
  // Orders' moves on the staff's and the customer's screens.
  'orders/invalid-transition': 'Este pedido no puede pasar a ese estado.',
  'orders/invalid-payment': 'El pago de este pedido no puede pasar a ese estado.',
  'orders/locked': 'Este pedido ya no se puede modificar en su estado actual.',
  'orders/field-outside-move': 'Ese dato no se puede cambiar en este momento del pedido.',
  'reports/range-too-long': 'Elige un periodo de máximo 366 días.',
  'reports/invalid-range': 'La fecha inicial debe ser anterior o igual a la final.',
  // A report's or a day screen's day outside the years 2000 to 2100.
  'days/out-of-range': 'Elige una fecha entre el año 2000 y el 2100.',
  'orders/cancelled-not-payable': 'Un pedido cancelado no se puede marcar como pagado.',
  // Refunds, whole or partial: never more than what is left to refund, and only of a paid order.
  'orders/refund-too-large': 'El reembolso supera lo que queda por reembolsar de este pedido.',
  'orders/not-refundable': 'Este pedido no está pagado: no hay nada que reembolsar.',
  'orders/not-unpaid': 'Algunos pedidos ya no están pendientes de pago. Actualiza la lista e intenta de nuevo.',
  // Deliveries.
  'delivery/no-origin': 'Primero indica la ubicación de la panadería en Configuración: la ruta empieza allí.',
  // People: nobody locks themselves or their bakery out.
  'users/self-change': 'No puedes cambiar tu propio rol ni desactivar tu propia cuenta.',
  'users/last-admin': 'Tu panadería quedaría sin ningún administrador activo. Nombra otro administrador primero.',
  'users/not-invited': 'Esta persona ya eligió su contraseña o ya ingresó: no hay invitación pendiente que reenviar.',
  // Replay-safe writes: an Idempotency-Key reused with another request, a stale If-Match.
  idempotency_mismatch: 'Esta solicitud ya se usó con otros datos.',
  precondition_failed: 'Este registro cambió mientras tanto. Recarga para ver su estado actual e intenta de nuevo.',
} as const;
