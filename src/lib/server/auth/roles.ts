import { API_SCOPES, type ApiScope } from '../../schemas/api-token.ts';

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

/**
 * The /api/v1 scopes a role may use. Owners and operators may use every scope; a viewer none — they
 * cannot make tokens, and a token of someone demoted to viewer keeps no access. Checked on every API
 * request against the operator's current role, so a role change takes effect at the next request.
 */
const ROLE_SCOPES: Record<Role, readonly ApiScope[]> = {
	owner: API_SCOPES,
	operator: API_SCOPES,
	viewer: []
};

export function roleAllowsScope(role: Role, scope: ApiScope): boolean {
	return ROLE_SCOPES[role].includes(scope);
}

export function scopesOfRole(role: Role): readonly ApiScope[] {
	return ROLE_SCOPES[role];
}
