import type { JobStage } from '../../../server/jobs/job-progress.ts';
import { formatDuration } from '../format.ts';

/**
 * The Job page in an operator's words: the sentence that leads it, what went wrong, the stages by
 * human names. Pure (facts in, words out) so the page, its tests and any other console page say
 * the same thing; times are formatted by the caller's `clockTime` (the browser's zone).
 */

/**
 * Why a job failed for good: the guest's failure notice's text key (jobs/run/job-failure.ts picks
 * it, i18n/generation holds the guest's words for each), or `deadline` for the hard deadline.
 */
export const FAILURE_REASONS = ['no_face', 'refused', 'deadline', 'failed'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** What went wrong, said to the operator (the guest's own words for the same keys are in i18n/generation). */
export const FAILURE_WORDS: Record<FailureReason, string> = {
	no_face: 'the picture had no face',
	refused: 'the image service refused to draw this photo',
	deadline: 'it took longer than the time limit, so it was stopped',
	failed: 'drawing kept failing'
};

/** The guest's failure or deadline notice, as the job page reads it from the guest notices. */
export interface FailureNotice {
	kind: string;
	textKey: string;
	state: string;
}

/** The reason from the notice the failure queued; older jobs without one are read from the stored error. */
export function failureReasonOf(notices: FailureNotice[], error: string | null): FailureReason {
	const notice = notices.find((n) => n.kind === 'deadline' || n.kind === 'failure');
	if (notice?.kind === 'deadline') return 'deadline';
	if (notice && (FAILURE_REASONS as readonly string[]).includes(notice.textKey)) return notice.textKey as FailureReason;
	if (/^deadline\b/i.test(error ?? '')) return 'deadline';
	if (/NoFaceFound|no face found/i.test(error ?? '')) return 'no_face';
	return 'failed';
}

/** "drawing kept failing (3 attempts)", or the one cause we can name for a generic failure. */
export function failureWords(reason: FailureReason, job: { attempts: number; error: string | null }): string {
	if (reason !== 'failed') return FAILURE_WORDS[reason];
	if (/^SelfieMissing\b/.test(job.error ?? ''))
		return 'the guest’s photo was already deleted, so there was nothing to draw';
	return `${FAILURE_WORDS.failed} (${job.attempts === 1 ? '1 attempt' : `${job.attempts} attempts`})`;
}

/** Whether the guest heard about the failure, from the notice's outbox state. */
export function toldWords(state: string | null): string | null {
	switch (state) {
		case 'sent':
			return 'the guest was told';
		case 'queued':
		case 'sending':
			return 'the guest is being told';
		case 'blocked':
			return 'the guest has blocked the bot, so they were not told';
		case 'failed':
			return 'telling the guest failed';
		default:
			return null;
	}
}

export interface FailureFacts {
	attempts: number;
	error: string | null;
	notices: FailureNotice[];
}

/** What went wrong and whether the guest heard: "the picture had no face — the guest was told". */
export function failureSentence(facts: FailureFacts): string {
	const reason = failureReasonOf(facts.notices, facts.error);
	const notice = facts.notices.find((n) => n.kind === 'deadline' || n.kind === 'failure');
	const told = toldWords(notice?.state ?? null);
	return `${failureWords(reason, facts)}${told ? ` — ${told}` : ''}`;
}

/**
 * A jobs table's "what went wrong" cell (Live): a failed job's failure sentence, as its job page
 * says it; a job being tried again says so; the stored error itself is only on the job page's debug part.
 */
export function jobProblemWords(job: FailureFacts & { status: string }): string {
	if (job.status === 'failed') return failureSentence(job);
	if (job.error && job.status !== 'done') return 'an attempt failed; it is being tried again';
	return '';
}

/** Each stage the worker records (jobs/job-progress.ts) and each stage a provider call is booked under. */
export const STAGE_NAMES: Record<JobStage, string> & Record<string, string> = {
	queued: 'Photo received',
	passport: 'Reading the face',
	anchor: 'Sketching the character',
	anchor_verify: 'Checking the likeness',
	sheet: 'Drawing',
	sheet_figure: 'Drawing',
	vision: 'Checking the stickers',
	cut: 'Cutting out',
	regen: 'Redrawing a sticker',
	qa_regen: 'Redrawing a sticker',
	heads: 'Putting the face on',
	qa: 'Checking the stickers',
	qa_sheet: 'Checking the stickers',
	qa_pack: 'Checking the stickers',
	animate: 'Animating',
	delivering: 'Making the Telegram set',
	uploading: 'Making the Telegram set',
	ready: 'Making the Telegram set',
	done: 'Link sent',
	failed: 'Failed',
	redraw: 'Operator’s redraw',
	image: 'Drawing'
};

/** A stage's human name; one this console does not know (a newer worker) reads as its words. */
export function stageName(stage: string): string {
	const name = STAGE_NAMES[stage];
	if (name) return name;
	const words = stage.replaceAll('_', ' ');
	return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface StageEntry {
	stage: string;
	at: string;
}

export interface TimelineStep {
	name: string;
	startedAt: string;
	/** Time spent in it over all its visits; null while it runs, and for the end (link sent, failed). */
	seconds: number | null;
	/** How many separate times the job was in it (a sheet drawn, cut, the next drawn…). */
	visits: number;
}

const ENDS = new Set(['done', 'failed']);

/**
 * The stage log as steps by human name, in the order each first happened, with the time spent in
 * each. The photo's arrival (job created), the link and the failure are added when the log lacks
 * them (a job the log was trimmed for, or one written before the log existed); a later `queued`
 * is a retry's wait, not a second photo.
 */
export function stageTimeline(
	log: StageEntry[],
	job: { createdAt: string; status: string; linkSentAt: string | null; updatedAt: string }
): TimelineStep[] {
	const entries = [...log];
	if (entries[0]?.stage !== 'queued') entries.unshift({ stage: 'queued', at: job.createdAt });
	const last = entries.at(-1)!.stage;
	if (job.status === 'done' && job.linkSentAt && last !== 'done') entries.push({ stage: 'done', at: job.linkSentAt });
	if (job.status === 'failed' && last !== 'failed') entries.push({ stage: 'failed', at: job.updatedAt });
	const steps = new Map<string, TimelineStep>();
	entries.forEach((entry, i) => {
		const name = entry.stage === 'queued' && i > 0 ? 'Waiting to try again' : stageName(entry.stage);
		const next = entries[i + 1];
		const seconds = next && !ENDS.has(entry.stage) ? (Date.parse(next.at) - Date.parse(entry.at)) / 1000 : null;
		const step = steps.get(name);
		if (!step) steps.set(name, { name, startedAt: entry.at, seconds, visits: 1 });
		else {
			step.visits++;
			if (seconds !== null) step.seconds = (step.seconds ?? 0) + seconds;
		}
	});
	return [...steps.values()];
}

/** From the photo (the job is queued with it) to the link in the guest's chat; null until the link went. */
export function photoToLinkMs(job: { createdAt: string; linkSentAt: string | null }): number | null {
	if (!job.linkSentAt) return null;
	return Math.max(0, Date.parse(job.linkSentAt) - Date.parse(job.createdAt));
}

export interface HeadlineFacts {
	status: string;
	guestName: string;
	attempts: number;
	error: string | null;
	linkSentAt: string | null;
	updatedAt: string;
	/** The stage the worker is in now (job_progress), for a running job. */
	stageNow: string | null;
	notices: FailureNotice[];
}

/** The page's first sentence: "Sent to Ali at 14:02", "Failed: the picture had no face — the guest was told". */
export function jobHeadline(facts: HeadlineFacts, clockTime: (iso: string) => string): string {
	switch (facts.status) {
		case 'done':
			return `Sent to ${facts.guestName} at ${clockTime(facts.linkSentAt ?? facts.updatedAt)}`;
		case 'failed':
			return `Failed: ${failureSentence(facts)}`;
		case 'queued':
			return facts.attempts > 0
				? `Waiting to try again for ${facts.guestName} (${facts.attempts} ${facts.attempts === 1 ? 'attempt' : 'attempts'} so far)`
				: `Waiting in the queue for ${facts.guestName}`;
		case 'delivering':
			return `Making the Telegram set for ${facts.guestName}`;
		default:
			return `${facts.stageNow ? stageName(facts.stageNow) : 'Drawing'} for ${facts.guestName} now`;
	}
}

/** "4 min 10 s" from the photo to the link, or what stands instead of it. */
export function photoToLinkWords(job: { createdAt: string; linkSentAt: string | null; status: string }): string {
	const ms = photoToLinkMs(job);
	if (ms !== null) return formatDuration(ms);
	return job.status === 'failed' ? 'no link: the job failed' : 'not sent yet';
}
