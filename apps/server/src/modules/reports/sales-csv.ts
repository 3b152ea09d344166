import { CHANNEL_ES, type SalesReport } from '@hornada/domain';

/** Excel reads a UTF-8 file's accents only when it starts with the byte-order mark. */
const BOM = '\uFEFF';

/**
 * The cell separator: `,` (RFC 4180), or `;` for a spreadsheet in Spanish, which reads the comma as the
 * decimal mark and would open a comma file as one column; with `;` a number's decimals take a comma too.
 */
export type CsvSeparator = ',' | ';';

/**
 * One text cell: a value a spreadsheet would run as a formula (it begins with `=`, `+`, `-`, `@`, a tab
 * or a carriage return: a product named `=HYPERLINK(…)`) gets a leading `'` (docs/design.md §3); a cell with the
 * separator, a quote or a line break is quoted (RFC 4180).
 */
export function csvText(value: string, separator: CsvSeparator = ','): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  const quote = separator === ';' ? /[";\r\n]/ : /[",\r\n]/;
  return quote.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

type Cell = string | number | null;
const cell = (c: Cell, separator: CsvSeparator) =>
  c === null
    ? ''
    : typeof c === 'number'
      ? separator === ';'
        ? String(c).replace('.', ',')
        : String(c)
      : csvText(c, separator);

/**
 * The separator a request asks for: `semicolon` or `comma` when it names one, else `;` for a reader whose
 * first language is Spanish (`Accept-Language: es…`, as Excel in Spanish expects), `,` for anyone else.
 */
export function csvSeparatorFor(asked: 'semicolon' | 'comma' | undefined, acceptLanguage?: string): CsvSeparator {
  if (asked) return asked === 'semicolon' ? ';' : ',';
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first === 'es' || first.startsWith('es-') || first.startsWith('es;') ? ';' : ',';
}

/**
 * The report as one table a spreadsheet opens: a section column (Resumen, Día, Producto, Colección,
 * Canal, Cliente B2B), then the figures; money as plain integers of pesos, Spanish headers, CRLF lines, cells
 * split by `separator`.
 */
export function salesReportCsv(report: SalesReport, separator: CsvSeparator = ','): string {
  const row = (cells: Cell[]) => cells.map((c) => cell(c, separator)).join(separator);
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
    // Refunds are not in the sales above: their own row, with how many orders, even when none.
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
