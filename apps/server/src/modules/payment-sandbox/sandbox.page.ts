import { formatMoney } from '@hornada/domain';
import type { CheckoutProblem, CheckoutRequest, SandboxTransaction } from './sandbox.service';

/**
 * The sandbox's pages: small self-contained HTML, Spanish, phone first. No script at all, and the style
 * sheet is its own file (the app's CSP allows neither inline <style> nor inline <script>): plain forms post
 * back and the server redirects.
 */

export const CSS_PATH = '/pasarela-de-prueba/estilos.css';
/** The page's own icon, linked so a browser never asks for /favicon.ico (a 404 in its console). */
export const ICON_PATH = '/pasarela-de-prueba/icono.svg';
/** A card with a check mark, in the badge's colours: the sandbox's, not the bakery's. */
export const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="4" y="12" width="56" height="40" rx="8" fill="#5c4400"/><rect x="4" y="20" width="56" height="8" fill="#fff3c4"/><path d="M22 40l6 6 14-14" stroke="#fff3c4" stroke-width="5" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>
`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Cents as the app shows money (whole pesos when whole), with the currency. */
export function amountText(amountInCents: number, currency: string): string {
  const pesos = amountInCents / 100;
  return `${Number.isInteger(pesos) ? formatMoney(pesos) : `$${pesos.toFixed(2)}`} ${currency}`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es-CO">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Pasarela de prueba</title>
<link rel="icon" href="${ICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="${CSS_PATH}">
</head>
<body>
<main>
<p class="badge">Pasarela de prueba · sin dinero real</p>
${body}
</main>
</body>
</html>
`;
}

function summary(rows: [string, string][]): string {
  return `<dl class="summary">${rows
    .map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`)
    .join('')}</dl>`;
}

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

/** The checkout: who is paid, how much, the reference, and the buyer's three choices. */
export function checkoutPage(req: CheckoutRequest, bakery: string | null): string {
  const fields = [
    hidden('public-key', req.publicKey),
    hidden('currency', req.currency),
    hidden('amount-in-cents', String(req.amountInCents)),
    hidden('reference', req.reference),
    hidden('signature:integrity', req.signature),
    hidden('redirect-url', req.redirectUrl),
    req.expirationTime === undefined ? '' : hidden('expiration-time', req.expirationTime),
  ].join('');
  return page(
    'Pagar',
    `<h1>${bakery ? `Pagar a ${escapeHtml(bakery)}` : 'Pagar tu pedido'}</h1>
<p class="amount">${escapeHtml(amountText(req.amountInCents, req.currency))}</p>
${summary([['Referencia', req.reference]])}
<form method="post" action="/pasarela-de-prueba" class="choices">
${fields}
<p class="hint">Elige qué respuesta dará el banco a este pago de prueba.</p>
<button type="submit" name="decision" value="APPROVED" class="approve">Aprobar</button>
<button type="submit" name="decision" value="DECLINED" class="decline">Rechazar</button>
<button type="submit" name="decision" value="PENDING" class="pending">Dejar pendiente</button>
</form>`,
  );
}

const STATUS_TEXT: Record<string, string> = {
  PENDING: 'Pendiente',
  APPROVED: 'Aprobada',
  DECLINED: 'Rechazada',
  VOIDED: 'Anulada',
  ERROR: 'Con error',
};

/** The URL Wompi sends the buyer back to: `redirect-url` with `id` added to its query. */
export function returnUrl(t: Pick<SandboxTransaction, 'id' | 'redirectUrl'>): string {
  const url = new URL(t.redirectUrl);
  url.searchParams.set('id', t.id);
  return url.toString();
}

/** A transaction: its status, and for a pending one the choice to approve or decline it now. */
export function transactionPage(t: SandboxTransaction, bakery: string | null): string {
  const status = STATUS_TEXT[t.status] ?? t.status;
  const actions =
    t.status === 'PENDING'
      ? `<form method="post" action="/pasarela-de-prueba/transacciones/${encodeURIComponent(t.id)}" class="choices">
<p class="hint">Este pago sigue pendiente. Puedes decidirlo ahora.</p>
<button type="submit" name="decision" value="APPROVED" class="approve">Aprobar</button>
<button type="submit" name="decision" value="DECLINED" class="decline">Rechazar</button>
</form>`
      : '';
  return page(
    `Transacción ${status.toLowerCase()}`,
    `<h1>Transacción ${escapeHtml(status.toLowerCase())}</h1>
<p class="amount">${escapeHtml(amountText(t.amountInCents, t.currency))}</p>
${summary([
  ...(bakery ? ([['Comercio', bakery]] as [string, string][]) : []),
  ['Referencia', t.reference],
  ['Transacción', t.id],
  ['Estado', status],
])}
${actions}
<p><a class="back" href="${escapeHtml(returnUrl(t))}">Volver al comercio</a></p>`,
  );
}

const PROBLEM_TEXT: Record<CheckoutProblem | 'invalid' | 'redirect' | 'not-found' | 'decided', [string, string]> = {
  'public-key': ['Comercio no reconocido', 'La llave pública de este enlace no es la del comercio.'],
  signature: ['Enlace de pago no válido', 'La firma de integridad no corresponde a este pago. No se cobró nada.'],
  expired: ['El enlace de pago venció', 'Vuelve al comercio y genera un nuevo enlace de pago.'],
  invalid: ['Enlace de pago incompleto', 'A este enlace le faltan datos del pago o tienen un formato no válido.'],
  redirect: [
    'Enlace de pago no permitido',
    'Este enlace te enviaría a otro sitio al terminar el pago. Por seguridad no lo seguimos: vuelve a la tienda y paga desde allí.',
  ],
  'not-found': ['Transacción no encontrada', 'No existe una transacción de prueba con ese número.'],
  decided: ['La transacción ya se decidió', 'Esta transacción ya no está pendiente.'],
};

/** A refusal, in plain Spanish, with nothing to pay. */
export function problemPage(problem: keyof typeof PROBLEM_TEXT): string {
  const [title, text] = PROBLEM_TEXT[problem];
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p role="alert" class="problem">${escapeHtml(text)}</p>`);
}

/** System fonts, large tap targets, a single column at 375 px that stays narrow on a desktop. */
export const CSS = `*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f3ee;color:#1f1a14;line-height:1.5}
main{max-width:28rem;margin:0 auto;padding:1.25rem 1rem 2rem}
.badge{display:inline-block;margin:0 0 1rem;padding:.25rem .6rem;border-radius:999px;background:#fff3c4;color:#5c4400;font-size:.85rem;font-weight:600}
h1{font-size:1.4rem;line-height:1.25;margin:0 0 .5rem}
.amount{font-size:2rem;font-weight:700;margin:0 0 1rem;font-variant-numeric:tabular-nums}
.summary{margin:0 0 1.25rem;padding:.75rem 1rem;background:#fff;border:1px solid #e2dbd0;border-radius:.75rem}
.summary div{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.25rem 1rem;padding:.35rem 0}
.summary div+div{border-top:1px solid #efe9df}
dt{color:#5d544a}
dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.hint{margin:0 0 .75rem;color:#5d544a}
.choices{display:grid;gap:.75rem;margin:0 0 1.25rem}
button{font:inherit;font-weight:600;min-height:3rem;padding:.75rem 1rem;border-radius:.75rem;border:2px solid transparent;cursor:pointer;width:100%}
button:focus-visible,a:focus-visible{outline:3px solid #1f5fbf;outline-offset:2px}
.approve{background:#1b6e3a;color:#fff}
.decline{background:#fff;color:#9b1c1c;border-color:#9b1c1c}
.pending{background:#fff;color:#1f1a14;border-color:#8a8176}
.problem{padding:.75rem 1rem;background:#fdecec;border:1px solid #e8b4b4;border-radius:.75rem;color:#7a1414}
.back{color:#1f4f99;font-weight:600}
`;
