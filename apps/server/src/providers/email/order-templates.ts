import { formatMoney } from '@hornada/domain/format';
import { escapeHtml, mailHeading, type Mail } from './templates';
import { endSentence } from '@hornada/domain/text';

/** What an order's mail says to its customer: an order's own facts and its bakery's words, never a stranger's. */
export type OrderMailKind =
  'placed' | 'changed' | 'confirmed' | 'out_for_delivery' | 'delivered' | 'cancelled' | 'refunded';

export interface OrderMailFacts {
  /** The order's bakery (its settings' name), never the market's or the demo's. */
  bakery: string;
  /** The bakery's logo, absolute on its shop's origin (a mail is read far from the site); null without one. */
  logoUrl: string | null;
  number: number;
  /** Names and prices as the order copied them from the bakery's catalogue. */
  lines: readonly { name: string; quantity: number; lineTotal: number }[];
  subtotal: number;
  discount: number;
  deliveryFee: number;
  total: number;
  pickup: boolean;
  /** 'jueves 26 de nov.' and 'En la mañana (8:00 a 11:00)': the bakery's labels. */
  day: string;
  window: string;
  paymentMethod: string;
  paid: boolean;
  /** The bakery's transfer instructions, for an unpaid order paid by transfer. */
  transferInstructions: string | null;
  /** Where the order is followed (the confirmation page, by its unguessable link). */
  link: string;
  /** A cancellation's reason when the bakery wrote it; null when the customer cancelled or none was given. */
  cancelReason: string | null;
  /** What a paid order owes since it grew (packages/domain's balanceDue). */
  balanceDue: number;
  /** The refund just recorded (a `refunded` mail): how much, how the money returns, and what was refunded in all. */
  refund: { amount: number; how: string; refundedInAll: number } | null;
}

const SUBJECTS: Record<OrderMailKind, (f: OrderMailFacts) => string> = {
  placed: (f) => `Recibimos tu pedido #${f.number} · ${f.bakery}`,
  changed: (f) => `Actualizamos tu pedido #${f.number} · ${f.bakery}`,
  confirmed: (f) => `Tu pedido #${f.number} está confirmado · ${f.bakery}`,
  out_for_delivery: (f) => `Tu pedido #${f.number} va en camino · ${f.bakery}`,
  delivered: (f) => `Tu pedido #${f.number} fue entregado · ${f.bakery}`,
  cancelled: (f) => `Tu pedido #${f.number} fue cancelado · ${f.bakery}`,
  refunded: (f) => `Reembolso de tu pedido #${f.number} · ${f.bakery}`,
};

function lead(kind: OrderMailKind, f: OrderMailFacts): string[] {
  const when = `${f.day}${f.window ? ` · ${f.window}` : ''}`;
  switch (kind) {
    case 'placed':
      return [
        `Recibimos tu pedido #${f.number}. ${endSentence(`${f.pickup ? 'Lo recoges' : 'Lo entregamos'} el ${when}`)}`,
      ];
    case 'changed':
      return [
        `Actualizamos tu pedido #${f.number}, como lo acordamos. ${endSentence(`${f.pickup ? 'Lo recoges' : 'Lo entregamos'} el ${when}`)}`,
        ...(f.balanceDue > 0 ? [`Ya lo pagaste; queda por pagar la diferencia: ${formatMoney(f.balanceDue)}.`] : []),
      ];
    case 'confirmed':
      return [
        `Confirmamos tu pedido #${f.number}. ${endSentence(`${f.pickup ? 'Lo recoges' : 'Lo entregamos'} el ${when}`)}`,
      ];
    case 'out_for_delivery':
      return [
        `Tu pedido #${f.number} va en camino. ${endSentence(`Llega hoy${f.window ? `, ${f.window.toLowerCase()}` : ''}`)}`,
      ];
    case 'delivered':
      return [
        f.pickup ? `Recogiste tu pedido #${f.number}.` : `Entregamos tu pedido #${f.number}.`,
        '¡Gracias por comprarnos!',
      ];
    case 'cancelled':
      return [`Tu pedido #${f.number} fue cancelado.`, ...(f.cancelReason ? [`Motivo: ${f.cancelReason}`] : [])];
    case 'refunded': {
      const r = f.refund;
      if (!r) return [`Registramos un reembolso de tu pedido #${f.number}.`];
      return [
        `Registramos un reembolso de ${formatMoney(r.amount)} de tu pedido #${f.number}.`,
        r.how,
        ...(r.refundedInAll > r.amount
          ? [`En total te hemos reembolsado ${formatMoney(r.refundedInAll)} de ${formatMoney(f.total)}.`]
          : []),
      ];
    }
  }
}

/**
 * An order's mail to its customer, in Spanish, as HTML and plain text: what happened, the lines and
 * totals, the day and window, how to pay by transfer when that is pending, and the link to follow the order.
 * Every text is the order's or its bakery's; whatever comes from outside is escaped in the HTML.
 */
export function orderMail(kind: OrderMailKind, f: OrderMailFacts): Mail {
  const subject = SUBJECTS[kind](f);
  const intro = lead(kind, f);
  const totals: [string, string][] = [
    ['Subtotal', formatMoney(f.subtotal)],
    ...(f.discount ? ([['Descuento', `-${formatMoney(f.discount)}`]] as [string, string][]) : []),
    ...(f.pickup
      ? []
      : ([['Domicilio', f.deliveryFee === 0 ? 'Gratis' : formatMoney(f.deliveryFee)]] as [string, string][])),
    ['Total', formatMoney(f.total)],
  ];
  const payment = `Pago: ${f.paymentMethod}${f.paid ? ' (pagado)' : ''}`;
  const transfer =
    kind === 'placed' && !f.paid && f.transferInstructions
      ? [f.transferInstructions, `Escribe el número #${f.number} en la referencia del pago.`]
      : [];
  const showLines = kind === 'placed' || kind === 'changed' || kind === 'confirmed';
  const text = [
    'Hola:',
    '',
    ...intro,
    '',
    ...(showLines ? f.lines.map((l) => `${l.quantity} × ${l.name}: ${formatMoney(l.lineTotal)}`) : []),
    ...(showLines ? [...totals.map(([k, v]) => `${k}: ${v}`), ''] : []),
    payment,
    ...(transfer.length ? ['', 'Cómo pagar por transferencia:', ...transfer] : []),
    '',
    `Ver tu pedido: ${f.link}`,
    '',
    f.bakery,
  ].join('\n');
  const cell = 'padding:6px 0;border-bottom:1px solid #e7e5e4';
  const html = `<!doctype html>
<html lang="es-CO"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1c1917;max-width:560px;margin:0 auto;padding:24px">
${mailHeading({ name: f.bakery, logoUrl: f.logoUrl })}
<p>Hola:</p>
${intro.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${
  showLines
    ? `<table role="presentation" style="width:100%;border-collapse:collapse">
${f.lines
  .map(
    (l) =>
      `<tr><td style="${cell}">${l.quantity} × ${escapeHtml(l.name)}</td><td style="${cell};text-align:right">${formatMoney(l.lineTotal)}</td></tr>`,
  )
  .join('\n')}
${totals
  .map(
    ([k, v]) =>
      `<tr><td style="padding:4px 0${k === 'Total' ? ';font-weight:700' : ''}">${k}</td><td style="padding:4px 0;text-align:right${k === 'Total' ? ';font-weight:700' : ''}">${v}</td></tr>`,
  )
  .join('\n')}
</table>`
    : ''
}
<p>${escapeHtml(payment)}</p>
${
  transfer.length
    ? `<div style="border:1px solid #fcd34d;background:#fffbeb;border-radius:8px;padding:12px"><p style="margin:0 0 6px;font-weight:600">Cómo pagar por transferencia</p>${transfer
        .map((t) => `<p style="margin:0 0 6px;white-space:pre-line">${escapeHtml(t)}</p>`)
        .join('')}</div>`
    : ''
}
<p><a href="${escapeHtml(f.link)}" style="display:inline-block;background:#92400e;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">Ver mi pedido</a></p>
<p style="font-size:14px">Si el botón no funciona, copia este enlace en tu navegador:<br><span style="word-break:break-all">${escapeHtml(f.link)}</span></p>
<p>${escapeHtml(f.bakery)}</p>
</body></html>`;
  return { subject, text, html };
}

/** What the bakery reads of a new web order: its customer's own details, for the people who prepare it. */
export interface NewOrderParty {
  name: string;
  phone: string;
  address: { line: string; neighborhood?: string | null; city?: string | null } | null;
  notes: string | null;
  /** The order in the back office. */
  link: string;
}

/**
 * The bakery's notice of a new web order (its setting `newOrderEmail`): the same facts, and who ordered. The
 * customer's words go only to the bakery's own address, and are escaped in the HTML like everything else.
 */
export function newOrderNoticeMail(f: OrderMailFacts, p: NewOrderParty): Mail {
  const subject = `Nuevo pedido #${f.number} · ${f.bakery}`;
  const address = p.address ? [p.address.line, p.address.neighborhood, p.address.city].filter(Boolean).join(', ') : '';
  const facts = [
    `${f.pickup ? 'Recoge' : 'Entrega'}: ${f.day}${f.window ? ` · ${f.window}` : ''}`,
    `Cliente: ${p.name} · ${p.phone}`,
    ...(address && !f.pickup ? [`Dirección: ${address}`] : []),
    ...(p.notes ? [`Notas: ${p.notes}`] : []),
    ...f.lines.map((l) => `${l.quantity} × ${l.name}: ${formatMoney(l.lineTotal)}`),
    `Total: ${formatMoney(f.total)} · ${f.paymentMethod}${f.paid ? ' (pagado)' : ''}`,
  ];
  const text = [`Llegó el pedido #${f.number} por la tienda en línea.`, '', ...facts, '', `Verlo: ${p.link}`].join(
    '\n',
  );
  const html = `<!doctype html>
<html lang="es-CO"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1c1917;max-width:560px;margin:0 auto;padding:24px">
${mailHeading({ name: f.bakery, logoUrl: f.logoUrl })}
<p>Llegó el pedido #${f.number} por la tienda en línea.</p>
${facts.map((l) => `<p style="margin:4px 0">${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(p.link)}" style="display:inline-block;background:#92400e;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">Ver el pedido</a></p>
</body></html>`;
  return { subject, text, html };
}
