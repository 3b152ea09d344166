import { UsersList } from './users-list';

export { usersLoader as loader } from './users-list';

/** Dashboard › Usuarios. */
export function Component() {
  return <UsersList active={false} />;
}
