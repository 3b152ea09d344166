import { useSearchParams } from 'react-router';
import { ClientForm } from './client-form';
import { ClientsList } from './clients-list';

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
