import type { AuditAction } from '../../server/audit/audit-log.ts';

/**
 * What each audited action was, in an operator's words (the Audit log page and a job's history):
 * the stored action names stay in the database, the filter's values and the rows' data attributes.
 */
export const AUDIT_WORDS: Record<AuditAction, string> = {
	grant_extra_pack: 'extra pack granted',
	reset_user: 'guest reset',
	retry_job: 'job retried',
	sticker_redraw: 'sticker redrawn',
	set_balance_override: 'balance set',
	pause: 'queue paused',
	resume: 'queue resumed',
	setup_owner: 'first owner created',
	add_operator: 'operator added',
	change_operator_role: 'operator’s role changed',
	remove_operator: 'operator removed',
	sign_in: 'signed in',
	sign_out: 'signed out',
	lead_status: 'lead’s status set',
	lead_erase: 'lead erased',
	api_token_create: 'API token created',
	api_token_revoke: 'API token revoked',
	operator_telegram_code: 'Telegram link code shown',
	operator_telegram_verified: 'Telegram chat linked',
	operator_telegram_unlink: 'Telegram chat unlinked',
	broadcast_create: 'broadcast created',
	broadcast_send: 'broadcast sent',
	broadcast_test_send: 'broadcast test sent',
	broadcast_test_refused: 'broadcast test refused',
	broadcast_pause: 'broadcast paused',
	broadcast_resume: 'broadcast resumed',
	broadcast_cancel: 'broadcast cancelled',
	kiosk_add: 'kiosk added',
	kiosk_rename: 'kiosk renamed',
	kiosk_revoke: 'kiosk revoked',
	kiosk_reset: 'kiosk reset',
	staff_pin_set: 'staff PIN set',
	staff_pin_clear: 'staff PIN removed',
	event_create: 'event created',
	event_update: 'event changed',
	event_start: 'event started',
	event_end: 'event ended',
	event_kiosks: 'event’s kiosks changed',
	catalogue_save: 'outfits saved',
	catalogue_publish: 'outfits published',
	catalogue_rollback: 'outfits rolled back',
	setting_change: 'setting changed',
	setting_reset: 'setting reset to default',
	secret_replace: 'secret replaced',
	secret_clear: 'secret removed'
};

/** An action's words; an action this console does not know yet (a newer server) shows as stored. */
export function auditWords(action: string): string {
	return (AUDIT_WORDS as Record<string, string>)[action] ?? action.replaceAll('_', ' ');
}
