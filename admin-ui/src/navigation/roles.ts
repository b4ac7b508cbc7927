/** Seed section 6: role groups; the platform operator is a role of its own. */
export const authRoles = {
  admin: ['admin'],
  staff: ['admin', 'staff'],
  user: ['admin', 'staff', 'user'],
  onlyGuest: [],
  operator: ['operator'],
  /** A company's reviewer: reads customers and their histories, changes nothing. */
  customerReaders: ['admin', 'staff', 'user', 'compliance'],
  /** Who reads the company's audit log. */
  auditReaders: ['admin', 'compliance'],
  signedIn: ['admin', 'staff', 'user', 'operator', 'compliance'],
} as const satisfies Record<string, readonly string[]>;

/**
 * No rule: open to all. An empty rule: only a user with no role (a guest). Otherwise the user
 * needs at least one of the rule's roles.
 */
export function satisfiesAuth(auth: readonly string[] | undefined, roles: readonly string[]) {
  if (auth === undefined) return true;
  if (auth.length === 0) return roles.length === 0;
  return roles.some((role) => auth.includes(role));
}
