import { canAct, canManageOperators } from '../../auth/roles.ts';
import { operatorProcedure, router } from '../init.ts';

/** Who is signed in and what they may do (the UI mirrors it; the server enforces it anyway). */
export const authRouter = router({
	me: operatorProcedure.query(({ ctx }) => ({
		...ctx.operator,
		canAct: canAct(ctx.operator.role),
		canManageOperators: canManageOperators(ctx.operator.role)
	}))
});
