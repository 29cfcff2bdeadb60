import { recordAudit, type Actor, type AuditAction } from '../audit/audit-log.ts';
import type { FileStore } from '../files/file-store.ts';
import type { Db } from '../db/client.ts';
import type { Broadcast } from '../db/generated/client.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Clock } from '../time/clock.ts';
import type { z } from 'zod';
import type { composeBroadcastInput } from '../../schemas/broadcast.schema.ts';
import { resolveBroadcastImage } from './broadcast-image.ts';
import {
	cancelBroadcast,
	createBroadcast,
	pauseBroadcast,
	resumeBroadcast,
	scheduleBroadcast,
	type StateChange
} from './broadcasts.repository.ts';

/**
 * What an operator does with broadcasts, each audited (create in the same transaction; the others once the change has won)
 * — create, send, pause, resume, cancel (the test send: test-send.ts). The web process only writes rows; the worker
 * sends.
 */
export interface BroadcastActionDeps {
	db: Db;
	clock: Clock;
	actor: Actor;
	/** Where the pictures are: the process's one store. */
	fileStore: FileStore;
}

export type ComposedBroadcast = z.output<typeof composeBroadcastInput>;

export async function composeBroadcast(deps: BroadcastActionDeps, input: ComposedBroadcast): Promise<Broadcast> {
	if (
		input.eventId !== null &&
		!(await deps.db.event.findUnique({ where: { id: input.eventId }, select: { id: true } }))
	) {
		throw new DomainError({ code: 'BroadcastEventNotFound', eventId: input.eventId });
	}
	const imagePath = input.imageName ? await resolveBroadcastImage(deps.fileStore, input.imageName) : null;
	if (input.imageName && !imagePath) throw new DomainError({ code: 'BroadcastImageMissing' });
	const nowIso = deps.clock.now().toISOString();
	return deps.db.$transaction(async (tx) => {
		const broadcast = await createBroadcast(tx, nowIso, {
			eventId: input.eventId,
			text: input.text,
			imagePath,
			buttonText: input.buttonText || null,
			buttonUrl: input.buttonUrl || null,
			createdBy: deps.actor.name
		});
		await recordAudit(tx, deps.clock, deps.actor, {
			action: 'broadcast_create',
			details: { broadcastId: broadcast.id, eventId: input.eventId }
		});
		return broadcast;
	});
}

/** Send now (sendAt null) or at a moment; the worker chooses the audience when it starts. */
export async function sendBroadcast(deps: BroadcastActionDeps, id: number, sendAt: Date | null): Promise<Broadcast> {
	const nowIso = deps.clock.now().toISOString();
	const at = sendAt && sendAt.getTime() > deps.clock.now().getTime() ? sendAt.toISOString() : nowIso;
	return audited(deps, id, 'send', 'broadcast_send', { sendAt: at }, (db) => scheduleBroadcast(db, nowIso, id, at));
}

export function pauseBroadcastNow(deps: BroadcastActionDeps, id: number): Promise<Broadcast> {
	return audited(deps, id, 'pause', 'broadcast_pause', {}, (db) =>
		pauseBroadcast(db, deps.clock.now().toISOString(), id)
	);
}

export function resumeBroadcastNow(deps: BroadcastActionDeps, id: number): Promise<Broadcast> {
	return audited(deps, id, 'resume', 'broadcast_resume', {}, (db) =>
		resumeBroadcast(db, deps.clock.now().toISOString(), id)
	);
}

export function cancelBroadcastNow(deps: BroadcastActionDeps, id: number): Promise<Broadcast> {
	return audited(deps, id, 'cancel', 'broadcast_cancel', {}, (db) =>
		cancelBroadcast(db, deps.clock.now().toISOString(), id)
	);
}

async function audited(
	deps: BroadcastActionDeps,
	id: number,
	action: 'send' | 'pause' | 'resume' | 'cancel',
	auditAction: AuditAction,
	details: Record<string, unknown>,
	change: (db: Db) => Promise<StateChange>
): Promise<Broadcast> {
	const result = await change(deps.db);
	if (!result.won) {
		if (result.found === null) throw new DomainError({ code: 'BroadcastNotFound', broadcastId: id });
		throw new DomainError({ code: 'BroadcastStateRefused', broadcastId: id, state: result.found, action });
	}
	await recordAudit(deps.db, deps.clock, deps.actor, { action: auditAction, details: { broadcastId: id, ...details } });
	return result.broadcast;
}
