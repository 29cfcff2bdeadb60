import { redirect } from '@sveltejs/kit';
import type { LayoutServerLoad } from './$types';
import { canAct, canManageOperators } from '$lib/server/auth/roles';

/** Every console page needs a signed-in operator; the role tells the UI which actions to offer. */
export const load: LayoutServerLoad = ({ locals, url }) => {
	const operator = locals.operator;
	if (!operator) redirect(303, `/console/login?next=${encodeURIComponent(url.pathname)}`);
	return {
		operator: { ...operator, canAct: canAct(operator.role), canManageOperators: canManageOperators(operator.role) }
	};
};
