import { z } from 'zod';
import {
	listVersions,
	publishDraft,
	readDraft,
	readPublished,
	rollBackTo,
	saveDraft
} from '../../events/catalogue.repository.ts';
import { assignKiosks, listKioskChoices } from '../../events/event-kiosks.repository.ts';
import {
	createEvent,
	endEvent,
	findEvent,
	listEvents,
	startEvent,
	updateEvent
} from '../../events/events.repository.ts';
import { eventSummary } from '../../events/event-summary.ts';
import { DomainError } from '../../errors/domain-error.ts';
import { eventFieldsSchema } from '../../../schemas/event.ts';
import { refuseCaptionsThatCannotFit } from '../../events/caption-check.ts';
import { operatorProcedure, router } from '../init.ts';

const eventId = z.object({ eventId: z.number().int().positive() });

/** Events and their outfit catalogues (docs/console.md, Events). Viewers read; changes need operator or owner. */
export const eventsRouter = router({
	list: operatorProcedure.query(({ ctx }) => listEvents(ctx.db)),

	detail: operatorProcedure.input(eventId).query(async ({ ctx, input }) => {
		const event = await findEvent(ctx.db, input.eventId);
		if (!event) throw new DomainError({ code: 'EventNotFound' });
		const [kiosks, draft, published, versions] = await Promise.all([
			listKioskChoices(ctx.db, input.eventId),
			readDraft(ctx.db, input.eventId),
			readPublished(ctx.db, input.eventId),
			listVersions(ctx.db, input.eventId)
		]);
		return { event, kiosks, draft, published, versions };
	}),

	summary: operatorProcedure.input(eventId).query(async ({ ctx, input }) => {
		const event = await findEvent(ctx.db, input.eventId);
		if (!event) throw new DomainError({ code: 'EventNotFound' });
		return { event, summary: await eventSummary(ctx.db, input.eventId) };
	}),

	create: operatorProcedure.input(eventFieldsSchema).mutation(async ({ ctx, input }) => {
		await refuseCaptionsThatCannotFit(input.captions);
		return createEvent(ctx.db, ctx.clock, ctx.actor, input);
	}),

	update: operatorProcedure.input(eventId.extend({ fields: eventFieldsSchema })).mutation(async ({ ctx, input }) => {
		await refuseCaptionsThatCannotFit(input.fields.captions);
		return updateEvent(ctx.db, ctx.clock, ctx.actor, input.eventId, input.fields);
	}),

	start: operatorProcedure
		.input(eventId)
		.mutation(({ ctx, input }) => startEvent(ctx.db, ctx.clock, ctx.actor, input.eventId)),

	end: operatorProcedure
		.input(eventId)
		.mutation(({ ctx, input }) => endEvent(ctx.db, ctx.clock, ctx.actor, input.eventId)),

	assignKiosks: operatorProcedure
		.input(eventId.extend({ kioskIds: z.array(z.number().int().positive()).max(200) }))
		.mutation(({ ctx, input }) => assignKiosks(ctx.db, ctx.clock, ctx.actor, input.eventId, input.kioskIds)),

	// Every outfit rule is checked by saveDraft, so a problem comes back as one sentence naming the outfit's place.
	saveDraft: operatorProcedure
		.input(eventId.extend({ revision: z.number().int().min(0), outfits: z.array(z.unknown()).max(24) }))
		.mutation(({ ctx, input }) =>
			saveDraft(ctx.db, ctx.clock, ctx.actor, input.eventId, input.revision, input.outfits)
		),

	publish: operatorProcedure
		.input(eventId.extend({ revision: z.number().int().min(0) }))
		.mutation(({ ctx, input }) => publishDraft(ctx.db, ctx.clock, ctx.actor, input.eventId, input.revision)),

	rollBack: operatorProcedure
		.input(eventId.extend({ version: z.number().int().positive() }))
		.mutation(({ ctx, input }) => rollBackTo(ctx.db, ctx.clock, ctx.actor, input.eventId, input.version))
});
