import { CHANNEL_ES, type SalesReport } from '@hornada/domain';

/** Excel reads a UTF-8 file's accents only when it starts with the byte-order mark. */
const BOM = '\uFEFF';

/**
 * One text cell: a value a spreadsheet would run as a formula (it begins with `=`, `+`, `-`, `@`, a tab
 * or a carriage return: a product named `=HYPERLINK(…)`) gets a leading `'` (design §3); a cell with a
 * comma, a quote or a line break is quoted (RFC 4180).
 */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

type Cell = string | number | null;
const row = (cells: Cell[]) =>
  cells.map((c) => (c === null ? '' : typeof c === 'number' ? String(c) : csvText(c))).join(',');

/**
 * The report as one table a spreadsheet opens: a section column (Resumen, Día, Producto, Colección,
 * Canal, Cliente B2B), then the figures; money as plain integers of pesos, Spanish headers, CRLF lines.
 */
export function salesReportCsv(report: SalesReport): string {
  const lines: string[] = [
    row(['Sección', 'Concepto', 'Pedidos', 'Unidades', 'Ventas', 'Pagado', 'Por cobrar']),
    row([
      'Resumen',
      `${report.from} a ${report.to}`,
      report.totals.orders,
      null,
      report.totals.revenue,
      report.totals.paid,
      report.totals.unpaid,
    ]),
    row(['Ticket promedio', null, null, null, report.totals.averageTicket, null, null]),
    // Refunds are not in the sales above (issue 39): their own row, with how many orders, even when none.
    row(['Reembolsado', null, report.totals.refundedOrders, null, report.totals.refunded, null, null]),
  ];
  for (const d of report.byDay) lines.push(row(['Día', d.date, d.orders, null, d.revenue, null, null]));
  for (const p of report.byProduct)
    lines.push(row(['Producto', p.name, null, p.quantity, p.revenue, p.paid, p.unpaid]));
  for (const c of report.byCollection) {
    lines.push(row(['Colección', c.name, null, c.quantity, c.revenue, c.paid, c.unpaid]));
  }
  for (const c of report.byChannel) {
    lines.push(row(['Canal', CHANNEL_ES[c.channel], c.orders, null, c.revenue, c.paid, c.unpaid]));
  }
  for (const b of report.byB2bClient)
    lines.push(row(['Cliente B2B', b.name, b.orders, null, b.revenue, b.paid, b.unpaid]));
  return `${BOM}${lines.join('\r\n')}\r\n`;
}
