import { paths } from '../../config/paths';

/** The B2B screens' addresses: one route, the client's page and the create form by query (see the page). */
export const b2bLinks = {
  list: paths.dashboard.b2bClients,
  create: `${paths.dashboard.b2bClients}?nuevo`,
  client: (id: string) => `${paths.dashboard.b2bClients}?cliente=${encodeURIComponent(id)}`,
};
