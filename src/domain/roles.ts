/** Roles are ordered reader < agent < reviewer < admin; runner stands outside the order (docs/protocol.md#credentials-and-roles). */
export const ORDERED_ROLES = ['reader', 'agent', 'reviewer', 'admin'] as const;
export type OrderedRole = (typeof ORDERED_ROLES)[number];
export type Role = OrderedRole | 'runner';
export const ROLES: readonly Role[] = [...ORDERED_ROLES, 'runner'];

/** A runner key ranks below every ordered role for ordinary verbs: it may call runner verbs only. */
export function roleRank(role: Role): number {
  return role === 'runner' ? -1 : ORDERED_ROLES.indexOf(role);
}

export function atLeast(role: Role, required: OrderedRole): boolean {
  return roleRank(role) >= roleRank(required);
}
