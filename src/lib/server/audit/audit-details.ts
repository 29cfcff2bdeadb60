import { failureReasonOf, failureWords } from '../../components/console/job/job-words.ts';
import { formatUsd, pauseSourceText } from '../../components/console/format.ts';
import { SECRET_DEFS } from '../settings/console-secrets.ts';
import { SETTING_DEFS } from '../settings/runtime-setting-defs.ts';
import type { AuditAction } from './audit-log.ts';

/**
 * What an audit row's details say, in an operator's words: the Audit page shows this sentence,
 * never the stored JSON, its keys or a server path. Each action reads the details its writer
 * stores (grep `action: '<name>'`); a field missing from an old row is left out of the sentence,
 * and a row of an action this server does not know is read key by key in words.
 */
type Details = Record<string, unknown>;
type Describe = (d: Details) => string;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const quoted = (v: unknown): string => (str(v) ? `“${str(v)}”` : '');
const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
const sentence = (...parts: (string | null | false | undefined)[]): string =>
	parts.filter((p): p is string => Boolean(p)).join('; ');
/** A stored moment as "2026-12-03 14:02 UTC" (the server has no operator's zone; the row's own time is local). */
const moment = (v: unknown): string | null => {
	const at = str(v);
	return at && !Number.isNaN(Date.parse(at)) ? `${at.slice(0, 10)} ${at.slice(11, 16)} UTC` : null;
};
const via = (v: unknown): string | null => {
	if (v === 'bot' || v === 'bot /link') return 'from the Telegram bot';
	if (v === 'api') return 'through the API';
	if (v === 'console') return 'from the console';
	return null;
};
const settingLabel = (name: unknown): string =>
	(SETTING_DEFS as Record<string, { label: string }>)[String(name)]?.label ?? humanKey(String(name));
const secretLabel = (name: unknown): string =>
	(SECRET_DEFS as Record<string, { label: string }>)[String(name)]?.label ?? humanKey(String(name));
const event = (d: Details) => (num(d.eventId) !== null ? `event #${d.eventId}` : 'the default event');
const kiosk = (d: Details) => sentence(`kiosk #${d.kioskId}`, closed(d.closedSessions));
const closed = (v: unknown) => (num(v) ? `${plural(num(v)!, 'open visit', 'open visits')} closed` : null);
const broadcast = (d: Details) => `broadcast #${d.broadcastId}`;

const TEST_REFUSALS: Record<string, string> = {
	opted_out: 'your chat opted out of news',
	blocked: 'your chat has blocked the bot'
};

const DESCRIBE: Record<AuditAction, Describe> = {
	grant_extra_pack: (d) => (num(d.extraPacksAllowed) !== null ? `now ${d.extraPacksAllowed} extra allowed` : ''),
	reset_user: describeReset,
	retry_job: (d) =>
		sentence(
			num(d.previousAttempts) !== null && `after ${plural(num(d.previousAttempts)!, 'attempt', 'attempts')}`,
			str(d.previousError) &&
				`it had failed: ${failureWords(failureReasonOf([], str(d.previousError)), { attempts: num(d.previousAttempts) ?? 0, error: str(d.previousError) })}`
		),
	sticker_redraw: (d) => `sticker #${d.sticker} drawn again and swapped into the guest’s set`,
	set_balance_override: (d) => {
		const previous = num((d.previous as Details | null)?.value);
		return `${formatUsd(num(d.value))}${previous !== null ? ` (was ${formatUsd(previous)})` : ''}`;
	},
	pause: (d) => sentence(quoted(d.reason), via(d.via), str(d.guestNote) && `guests are told: ${quoted(d.guestNote)}`),
	resume: (d) => {
		const was = (d.was ?? {}) as Details;
		return sentence(
			via(d.via),
			str(was.source) && `it had been paused ${pauseSourceText(String(was.source))}`,
			quoted(was.reason)
		);
	},
	setup_owner: (d) => `owner ${quoted(d.username)} created with the setup link`,
	add_operator: (d) => `${quoted(d.username)} as ${d.role}`,
	change_operator_role: (d) =>
		sentence(
			`${quoted(d.username)}: ${d.from} → ${d.to}`,
			num(d.sessionsEnded) ? `signed out of ${plural(num(d.sessionsEnded)!, 'session', 'sessions')}` : null,
			num(d.tokensTrimmed) ? `${plural(num(d.tokensTrimmed)!, 'API token', 'API tokens')} lost rights` : null
		),
	remove_operator: (d) =>
		sentence(
			`${quoted(d.username)} (${d.role})`,
			num(d.sessionsEnded) ? `signed out of ${plural(num(d.sessionsEnded)!, 'session', 'sessions')}` : null
		),
	sign_in: () => '',
	sign_out: () => '',
	lead_status: (d) =>
		sentence(
			d.outcome === 'unchanged' ? `lead #${d.leadId} was already “${d.status}”` : `lead #${d.leadId} → “${d.status}”`,
			via(d.via),
			num(d.tokenId) !== null && `token #${d.tokenId}`
		),
	lead_erase: (d) =>
		sentence(d.outcome === 'already_erased' ? `lead #${d.leadId} was already erased` : `lead #${d.leadId}`, via(d.via)),
	api_token_create: (d) =>
		sentence(
			`token #${d.tokenId} ${quoted(d.name)}`,
			Array.isArray(d.scopes) && `may ${d.scopes.join(', ')}`,
			moment(d.expiresAt) ? `until ${moment(d.expiresAt)}` : 'never expires'
		),
	api_token_revoke: (d) => `token #${d.tokenId}`,
	operator_telegram_code: (d) => (moment(d.expiresAt) ? `the code works until ${moment(d.expiresAt)}` : ''),
	operator_telegram_verified: (d) => sentence('the operator sent the code to the bot', via(d.via)),
	operator_telegram_unlink: () => '',
	broadcast_create: (d) => `${broadcast(d)} for the guests of ${event(d)}`,
	broadcast_send: (d) => sentence(broadcast(d), moment(d.sendAt) && `goes out ${moment(d.sendAt)}`),
	broadcast_test_send: (d) => `${broadcast(d)} sent to the operator’s own chat`,
	broadcast_test_refused: (d) =>
		sentence(
			broadcast(d),
			d.reason === 'rate_limited'
				? `too many tests this ${d.per === 'day' ? 'day' : 'minute'}${num(d.retryAfterSeconds) !== null ? ` — try again in ${d.retryAfterSeconds} s` : ''}`
				: (TEST_REFUSALS[String(d.reason)] ?? null)
		),
	broadcast_pause: broadcast,
	broadcast_resume: broadcast,
	broadcast_cancel: broadcast,
	kiosk_add: (d) => `${quoted(d.name)} (kiosk #${d.kioskId})`,
	kiosk_rename: (d) => `kiosk #${d.kioskId}: ${quoted(d.from)} → ${quoted(d.to)}`,
	kiosk_revoke: kiosk,
	kiosk_reset: kiosk,
	staff_pin_set: () => '',
	staff_pin_clear: () => '',
	event_create: (d) => `${quoted(d.name)} (event #${d.eventId})`,
	event_update: (d) => `${quoted(d.name)} (event #${d.eventId})`,
	event_start: event,
	event_end: (d) =>
		sentence(
			event(d),
			num(d.jobsStillRunning) ? `${plural(num(d.jobsStillRunning)!, 'pack', 'packs')} still being made finish` : null
		),
	event_kiosks: (d) =>
		Array.isArray(d.kioskIds) && d.kioskIds.length
			? `${event(d)} uses kiosks ${d.kioskIds.map((id) => `#${id}`).join(', ')}`
			: `${event(d)} uses no kiosk`,
	catalogue_save: (d) =>
		sentence(
			`draft of ${event(d)}, revision ${d.revision}`,
			Array.isArray(d.outfits) && `outfits ${d.outfits.join(', ')}`
		),
	catalogue_publish: (d) =>
		sentence(
			`${event(d)}, version ${d.version}`,
			str(d.change),
			num(d.queuedWithRemovedOutfits)
				? `${plural(num(d.queuedWithRemovedOutfits)!, 'queued pack uses', 'queued packs use')} a removed outfit and finish as ordered`
				: null
		),
	catalogue_rollback: (d) => `${event(d)}: the outfits of version ${d.rolledBackFrom} again, as version ${d.version}`,
	setting_change: (d) =>
		`${settingLabel(d.setting)}: ${quoted(d.before) || 'nothing'} → ${quoted(d.after) || 'nothing'}${d.beforeFrom === 'environment' ? ' (was the server’s default)' : ''}`,
	setting_reset: (d) =>
		`${settingLabel(d.setting)} back to the server’s default ${quoted(d.after) || '(none)'}, was ${quoted(d.before) || 'nothing'}`,
	secret_replace: (d) => secretLabel(d.secret),
	secret_clear: (d) => `${secretLabel(d.secret)}; the server’s own value (if any) is used again`
};

function describeReset(d: Details): string {
	const deleted = (d.deleted ?? {}) as Details;
	const visits = num(deleted.sessions) ?? 0;
	const packs = num(deleted.jobs) ?? 0;
	const sets = Array.isArray(d.packNames) ? d.packNames.length : 0;
	return sentence(
		`${plural(visits, 'kiosk visit', 'kiosk visits')} and ${plural(packs, 'sticker pack', 'sticker packs')} erased`,
		sets > 0 && `${plural(sets, 'sticker set stays', 'sticker sets stay')} in their Telegram`,
		d.backup ? 'a copy of the database was saved first' : null
	);
}

/** The details of one audit row as a short sentence ('' when the action has none to tell). */
export function auditDetailWords(action: string, detailsJson: string | null): string {
	const details = parseDetails(detailsJson);
	if (details === null) return '';
	const describe = (DESCRIBE as Record<string, Describe>)[action];
	return describe ? describe(details) : genericWords(details);
}

function parseDetails(json: string | null): Details | null {
	if (!json) return null;
	try {
		const parsed: unknown = JSON.parse(json);
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Details) : null;
	} catch {
		return null;
	}
}

/** A newer server's action: each plain value with its key in words ("kiosk id 3"), nested ones left out. */
function genericWords(details: Details): string {
	return sentence(
		...Object.entries(details)
			.filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
			.map(([k, v]) => `${humanKey(k)} ${String(v)}`)
	);
}

function humanKey(key: string): string {
	return key
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.replaceAll('_', ' ')
		.toLowerCase();
}
