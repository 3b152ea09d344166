// The reports module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { ReceivablesService } from './receivables.service';
export { registerReportRoutes } from './reports.routes';
export { SalesReportService } from './sales.service';
