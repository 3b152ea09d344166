import { UsersList } from './users-list';

/** Dashboard › Usuarios. */
export function Component() {
  return <UsersList active={false} />;
}
