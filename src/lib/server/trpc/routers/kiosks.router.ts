import { z } from 'zod';
import { addKiosk, renameKiosk, resetKiosk, revokeKiosk } from '../../kiosk/kiosk-admin.ts';
import { kiosksChangeFeed, pairingLink, pairingQrSvg, readKiosksView } from '../../kiosk/kiosk-console.ts';
import { clearStaffPin, setStaffPin } from '../../kiosk/staff-pin-setting.ts';
import { kioskNameSchema } from '../../../schemas/kiosk-name.schema.ts';
import { staffPinSchema } from '../../../schemas/staff-pin.schema.ts';
import { operatorProcedure, router, type TrpcContext } from '../init.ts';
import { watchLive } from '../live-view.ts';

const kioskId = z.object({ kioskId: z.number().int().positive() });
const readView = (ctx: TrpcContext) => readKiosksView(ctx.db, ctx.clock, ctx.config.KIOSK_STAFF_PIN);

/**
 * The Kiosks page (docs/console.md, Kiosks). Everyone signed in sees it; owners and operators act
 * (the operator tier refuses viewers' mutations). Every action writes its audit row with the change.
 */
export const kiosksRouter = router({
	list: operatorProcedure.query(({ ctx }) => readView(ctx)),

	watch: operatorProcedure.subscription(({ ctx, signal }) =>
		watchLive(ctx, signal, kiosksChangeFeed(ctx.db, ctx.logger), () => readView(ctx))
	),

	/** The key is in this answer only (the database keeps its SHA-256), with the pairing link and its QR code. */
	add: operatorProcedure.input(z.object({ name: kioskNameSchema })).mutation(async ({ ctx, input }) => {
		const { kiosk, key } = await addKiosk(ctx.db, ctx.clock, ctx.actor, input.name);
		ctx.logger.info({ kiosk: kiosk.name, by: ctx.actor.name }, 'kiosk added in the console');
		const link = pairingLink(ctx.config.publicBaseUrl, key);
		return { kiosk, key, pairingLink: link, qrSvg: await pairingQrSvg(link) };
	}),

	rename: operatorProcedure
		.input(kioskId.extend({ name: kioskNameSchema }))
		.mutation(({ ctx, input }) => renameKiosk(ctx.db, ctx.clock, ctx.actor, input.kioskId, input.name)),

	revoke: operatorProcedure.input(kioskId).mutation(async ({ ctx, input }) => {
		const outcome = await revokeKiosk(ctx.db, ctx.clock, ctx.actor, input.kioskId);
		ctx.logger.info({ kioskId: input.kioskId, by: ctx.actor.name, ...outcome }, 'kiosk revoked in the console');
		return outcome;
	}),

	reset: operatorProcedure
		.input(kioskId)
		.mutation(({ ctx, input }) => resetKiosk(ctx.db, ctx.clock, ctx.actor, input.kioskId)),

	setStaffPin: operatorProcedure.input(z.object({ pin: staffPinSchema })).mutation(async ({ ctx, input }) => {
		await setStaffPin(ctx.db, ctx.clock, ctx.actor, input.pin);
		return { set: true };
	}),

	clearStaffPin: operatorProcedure.mutation(async ({ ctx }) => {
		await clearStaffPin(ctx.db, ctx.clock, ctx.actor);
		return { set: false };
	})
});
