/**
 * Console roles: the owner manages operators; operators act (pause, retry, reset, …); viewers see
 * everything and change nothing. The server enforces this in trpc/init.ts, the UI only mirrors it.
 */
export const ROLES = ['owner', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The signed-in person as the rest of the web process sees them (no hash, no token). */
export interface OperatorIdentity {
	id: number;
	username: string;
	displayName: string | null;
	role: Role;
}

export function isRole(value: string): value is Role {
	return (ROLES as readonly string[]).includes(value);
}

/** May change something (every console action). */
export function canAct(role: Role): boolean {
	return role === 'owner' || role === 'operator';
}

/** May add and remove operators. */
export function canManageOperators(role: Role): boolean {
	return role === 'owner';
}
