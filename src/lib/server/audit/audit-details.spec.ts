import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditDetailWords } from './audit-details.ts';
import { AUDIT_ACTIONS, type AuditAction } from './audit-log.ts';

/**
 * The details each writer stores (grep `action: '<name>'` in src/): the shapes the Audit page must
 * put into words. `undefined` = the writer stores no details.
 */
const WRITTEN: Record<AuditAction, Record<string, unknown> | undefined> = {
	grant_extra_pack: { extraPacksAllowed: 1 },
	reset_user: {
		deleted: { users: 1, sessions: 2, jobs: 1 },
		backup: 'app.db.bak-20261203-140200-reset',
		packLinks: ['https://t.me/addstickers/boris_1_by_bot'],
		packNames: ['boris_1_by_bot']
	},
	retry_job: { previousError: 'deadline passed', previousAttempts: 3, previousCreatedAt: '2026-12-03T14:00:00.000Z' },
	sticker_redraw: { sticker: 2, packName: 'boris_1_by_bot', requestId: 7 },
	set_balance_override: { value: 250, previous: { value: 100, set_at: '2026-12-01T10:00:00.000Z' } },
	pause: { reason: 'printer jam', via: 'console', guestNote: 'Back in 10 minutes' },
	resume: { was: { source: 'admin', reason: 'printer jam', at: '2026-12-03T14:00:00.000Z' }, via: 'bot' },
	setup_owner: { username: 'ayla' },
	add_operator: { username: 'oskar', role: 'operator' },
	change_operator_role: { username: 'oskar', from: 'operator', to: 'viewer', sessionsEnded: 2, tokensTrimmed: 1 },
	remove_operator: { username: 'oskar', role: 'viewer', sessionsEnded: 1 },
	sign_in: undefined,
	sign_out: undefined,
	lead_status: { leadId: 5, status: 'contacted', outcome: 'changed', via: 'api', tokenId: 3 },
	lead_erase: { leadId: 5, outcome: 'erased', via: 'bot' },
	api_token_create: { tokenId: 3, name: 'CRM', scopes: ['leads:read'], expiresAt: '2027-01-01T00:00:00.000Z' },
	api_token_revoke: { tokenId: 3 },
	operator_telegram_code: { expiresAt: '2026-12-03T14:10:00.000Z' },
	operator_telegram_verified: { via: 'bot /link' },
	operator_telegram_unlink: undefined,
	broadcast_create: { broadcastId: 4, eventId: 2 },
	broadcast_send: { broadcastId: 4, sendAt: '2026-12-03T18:00:00.000Z' },
	broadcast_test_send: { broadcastId: 4 },
	broadcast_test_refused: { broadcastId: 4, reason: 'rate_limited', per: 'minute', retryAfterSeconds: 40 },
	broadcast_pause: { broadcastId: 4 },
	broadcast_resume: { broadcastId: 4 },
	broadcast_cancel: { broadcastId: 4 },
	kiosk_add: { kioskId: 3, name: 'Hall A' },
	kiosk_rename: { kioskId: 3, from: 'Hall A', to: 'Hall B' },
	kiosk_revoke: { kioskId: 3, closedSessions: 1 },
	kiosk_reset: { kioskId: 3, closedSessions: 0 },
	staff_pin_set: undefined,
	staff_pin_clear: undefined,
	event_create: { eventId: 2, name: 'Gala' },
	event_update: { eventId: 2, name: 'Gala' },
	event_start: { eventId: 2 },
	event_end: { eventId: 2, jobsStillRunning: 3 },
	event_kiosks: { eventId: 2, kioskIds: [1, 3] },
	catalogue_save: { eventId: 2, revision: 4, outfits: ['suit', 'dress'] },
	catalogue_publish: { eventId: 2, version: 3, change: 'added dress', queuedWithRemovedOutfits: 2 },
	catalogue_rollback: { eventId: 2, version: 5, rolledBackFrom: 3 },
	setting_change: { setting: 'deadlineMinutes', before: '20', beforeFrom: 'environment', after: '30' },
	setting_reset: { setting: 'deadlineMinutes', before: '30', after: '20', afterFrom: 'environment' },
	secret_replace: { secret: 'geminiApiKey' },
	secret_clear: { secret: 'geminiApiKey' }
};

/** Every compound key a writer stores (packName, kioskId…), so no sentence shows a field's name. */
const KEYS = [...new Set(Object.values(WRITTEN).flatMap((d) => (d ? keysOf(d) : [])))].filter((k) => /[A-Z_]/.test(k));

function keysOf(value: object): string[] {
	return Object.entries(value).flatMap(([k, v]) => [k, ...(v && typeof v === 'object' ? keysOf(v) : [])]);
}

/** The action names the code writes: every `action: '…'` given to recordAudit (or the bot's lead helpers). */
function actionsWritten(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const file = path.join(dir, name);
		if (statSync(file).isDirectory())
			return name === 'generated' || name === 'generated-pg' ? [] : actionsWritten(file);
		if (!/\.ts$/.test(name) || /\.(spec|test)\.ts$/.test(name)) return [];
		const text = readFileSync(file, 'utf8');
		if (!text.includes('recordAudit')) return [];
		// `action: 'x'` (not a type's `'x' | …`), `hash ? 'x' : 'y'`, and broadcast-actions' audited(…, 'broadcast_x', …).
		const direct = text.matchAll(/action: (?:hash \? )?'([a-z_]+)'(?: : '([a-z_]+)')?(?!\s*\|)/g);
		const wrapped = text.matchAll(/audited\([^)]*?'(broadcast_[a-z_]+)'/g);
		return [...direct, ...wrapped].flatMap((m) => m.slice(1).filter(Boolean));
	});
}

describe('auditDetailWords', () => {
	it('knows every action the code writes', () => {
		const written = new Set(actionsWritten(path.resolve('src')));
		expect(written.size).toBeGreaterThan(30);
		for (const action of written) expect(AUDIT_ACTIONS, action).toContain(action);
	});

	it('puts every action’s details into words: no JSON, no stored names, no paths', () => {
		for (const action of AUDIT_ACTIONS) {
			const details = WRITTEN[action];
			const words = auditDetailWords(action, details === undefined ? null : JSON.stringify(details));
			if (details !== undefined) expect(words, action).not.toBe('');
			expect(words, action).not.toMatch(/[{}[\]]|undefined|null|NaN|object Object|\/|\.bak-/);
			expect(words, action).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
			for (const key of KEYS) expect(words, `${action} shows the key ${key}`).not.toMatch(new RegExp(`\\b${key}\\b`));
		}
	});

	it('says what was done in the operator’s words', () => {
		const words = (action: AuditAction) => auditDetailWords(action, JSON.stringify(WRITTEN[action]));
		expect(words('reset_user')).toBe(
			'2 kiosk visits and 1 sticker pack erased; 1 sticker set stays in their Telegram; a copy of the database was saved first'
		);
		expect(words('setting_change')).toContain('→ “30”');
		expect(words('secret_clear')).toMatch(/^Gemini API key/);
		expect(words('broadcast_test_refused')).toBe('broadcast #4; too many tests this minute — try again in 40 s');
		expect(words('retry_job')).toBe(
			'after 3 attempts; it had failed: it took longer than the time limit, so it was stopped'
		);
		expect(words('set_balance_override')).toBe('$250.00 (was $100.00)');
	});

	it('reads a row of an unknown action or an old shape without raw JSON', () => {
		expect(auditDetailWords('future_thing', '{"kioskId":3,"nested":{"a":1}}')).toBe('kiosk id 3');
		expect(auditDetailWords('kiosk_reset', 'not json')).toBe('');
		expect(auditDetailWords('pause', '{}')).toBe('');
	});
});
