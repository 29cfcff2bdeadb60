import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { createApiTokenInput } from '../../../schemas/api-token.ts';
import { createApiToken, listApiTokens, revokeApiToken } from '../../api-tokens/api-tokens.repository.ts';
import { recordAudit } from '../../audit/audit-log.ts';
import { canManageOperators } from '../../auth/roles.ts';
import { operatorProcedure, router } from '../init.ts';

/**
 * The console's API tokens page. Owners and operators make tokens for themselves (viewers are
 * refused by the mutation tier); the owner sees and revokes everyone's. The secret is in the
 * create answer only.
 */
const viewerOf = (operator: { id: number; role: Parameters<typeof canManageOperators>[0] }) => ({
	id: operator.id,
	seesAll: canManageOperators(operator.role)
});

export const apiTokensRouter = router({
	list: operatorProcedure.query(({ ctx }) => listApiTokens(ctx.db, ctx.clock.now(), viewerOf(ctx.operator))),

	create: operatorProcedure.input(createApiTokenInput).mutation(async ({ ctx, input }) => {
		const created = await createApiToken(ctx.db, ctx.clock, ctx.operator.id, input);
		await recordAudit(ctx.db, ctx.clock, ctx.actor, {
			action: 'api_token_create',
			details: { tokenId: created.id, name: input.name, scopes: input.scopes, expiresAt: created.expiresAt }
		});
		ctx.logger.info({ tokenId: created.id, by: ctx.operator.username }, 'API token created');
		return created;
	}),

	revoke: operatorProcedure.input(z.object({ id: z.number().int().positive() })).mutation(async ({ ctx, input }) => {
		const revoked = await revokeApiToken(ctx.db, ctx.clock, input.id, viewerOf(ctx.operator));
		if (!revoked)
			throw new TRPCError({ code: 'NOT_FOUND', message: `There is no active token #${input.id} of yours.` });
		await recordAudit(ctx.db, ctx.clock, ctx.actor, { action: 'api_token_revoke', details: { tokenId: input.id } });
		ctx.logger.info({ tokenId: input.id, by: ctx.operator.username }, 'API token revoked');
		return { revoked };
	})
});
