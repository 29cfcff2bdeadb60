import type { Db, Tx } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/**
 * audit_log: one row per console or admin action, written in the same transaction as the change
 * it describes. actor = the operator's username (or `telegram:<id>` for a bot admin), ip = the
 * operator's client address (stored raw: it is staff's address, not a visitor's).
 */
export const AUDIT_ACTIONS = [
	'grant_extra_pack',
	'reset_user',
	'retry_job',
	'sticker_redraw',
	'set_balance_override',
	'pause',
	'resume',
	'setup_owner',
	'add_operator',
	'change_operator_role',
	'remove_operator',
	'sign_in',
	'sign_out',
	'lead_status',
	'lead_erase',
	'api_token_create',
	'api_token_revoke',
	'operator_telegram_code',
	'operator_telegram_verified',
	'operator_telegram_unlink',
	'broadcast_create',
	'broadcast_send',
	'broadcast_test_send',
	'broadcast_test_refused',
	'broadcast_pause',
	'broadcast_resume',
	'broadcast_cancel',
	'kiosk_add',
	'kiosk_rename',
	'kiosk_revoke',
	'kiosk_reset',
	'staff_pin_set',
	'staff_pin_clear',
	'event_create',
	'event_update',
	'event_start',
	'event_end',
	'event_kiosks',
	'catalogue_save',
	'catalogue_publish',
	'catalogue_rollback',
	'setting_change',
	'setting_reset',
	'secret_replace',
	'secret_clear'
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who did it and from where; every console action receives this. */
export interface Actor {
	name: string;
	ip: string | null;
}

export interface AuditEntryInput {
	action: AuditAction;
	telegramUserId?: bigint | null;
	jobId?: number | null;
	details?: unknown;
}

export async function recordAudit(db: Db | Tx, clock: Clock, actor: Actor, entry: AuditEntryInput): Promise<number> {
	const row = await db.auditLog.create({
		data: {
			ts: clock.now().toISOString(),
			actor: actor.name,
			ip: actor.ip,
			action: entry.action,
			telegramUserId: entry.telegramUserId ?? null,
			jobId: entry.jobId ?? null,
			details: entry.details === undefined ? null : JSON.stringify(entry.details)
		},
		select: { id: true }
	});
	return row.id;
}
