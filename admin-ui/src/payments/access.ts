import { useSessionUser } from '../session/sessionStore';

/** Roles that may take payments, refund and cancel (the server's authRoles.user); compliance reads. */
const moneyRoles = ['admin', 'staff', 'user'];

export function useCanTakePayments(): boolean {
  const user = useSessionUser();
  return user?.role.some((role) => moneyRoles.includes(role)) ?? false;
}
