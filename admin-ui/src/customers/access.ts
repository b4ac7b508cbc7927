import { useSessionUser } from '../session/sessionStore';

/** Roles that may change customers (the server's `customerWriters`); `compliance` only reads. */
const writerRoles = ['admin', 'staff', 'user'];

export function useCanChangeCustomers(): boolean {
  const user = useSessionUser();
  return user?.role.some((role) => writerRoles.includes(role)) ?? false;
}
