import { UsersList } from './users-list';

export { activeUsersLoader as loader } from './users-list';

/** Dashboard › Usuarios activos: signed in within the last 30 days. */
export function Component() {
  return <UsersList active />;
}
