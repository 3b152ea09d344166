import { useSearchParams } from 'react-router';
import { ClientForm, clientFormLoader } from './client-form';
import { ClientsList, clientsLoader } from './clients-list';
import * as standing from './standing-orders-read';

/** What the address shows: a client's page or the create form, else the list's page. */
export const loader = ({ request }: { request: Request }) => {
  const query = new URL(request.url).searchParams;
  return query.has('cliente') || query.has('nuevo') ? clientFormLoader({ request }) : clientsLoader({ request });
};

/** A client's standing orders (routes.ts names it): read when the client changes, not the list's view. */
export const parts = { standing };

/**
 * Dashboard › Clientes mayoristas (docs/design.md §4, b2bClients): one route, the list by default; `?cliente={id}`
 * opens a client's page (its form, balance and standing orders), `?nuevo` the create form.
 */
export function Component() {
  const [query] = useSearchParams();
  const id = query.get('cliente');
  if (id) return <ClientForm key={id} id={id} />;
  if (query.has('nuevo')) return <ClientForm key="new" />;
  return <ClientsList />;
}
