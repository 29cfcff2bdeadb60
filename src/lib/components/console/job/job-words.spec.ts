import { describe, expect, it } from 'vitest';
import { en as guestTexts } from '../../../i18n/generation/en.ts';
import {
	FAILURE_REASONS,
	FAILURE_WORDS,
	failureReasonOf,
	jobHeadline,
	jobProblemWords,
	photoToLinkWords,
	stageName,
	stageTimeline,
	toldWords,
	type HeadlineFacts
} from './job-words.ts';

const clockTime = (iso: string) => iso.slice(11, 16);
const base: HeadlineFacts = {
	status: 'done',
	guestName: 'Ali',
	attempts: 1,
	error: null,
	linkSentAt: '2026-12-03T14:02:10.000Z',
	updatedAt: '2026-12-03T14:02:11.000Z',
	stageNow: null,
	notices: []
};
// Every stage the worker records (jobs/job-progress.ts JobStage) and every stage a provider call is booked under.
const RECORDED_STAGES = [
	'queued',
	'passport',
	'anchor',
	'anchor_verify',
	'sheet',
	'cut',
	'regen',
	'heads',
	'qa',
	'animate',
	'delivering',
	'uploading',
	'ready',
	'done',
	'failed',
	'sheet_figure',
	'qa_sheet',
	'qa_pack',
	'qa_regen',
	'vision'
];

describe('the job headline', () => {
	it('says who got the pack and when', () => {
		expect(jobHeadline(base, clockTime)).toBe('Sent to Ali at 14:02');
	});

	it('says what went wrong and whether the guest was told, from the failure notice', () => {
		const failed = { ...base, status: 'failed', linkSentAt: null };
		const noFace = [{ kind: 'failure', textKey: 'no_face', state: 'sent' }];
		expect(jobHeadline({ ...failed, notices: noFace }, clockTime)).toBe(
			'Failed: the picture had no face — the guest was told'
		);
		const refused = [{ kind: 'failure', textKey: 'refused', state: 'queued' }];
		expect(jobHeadline({ ...failed, notices: refused }, clockTime)).toBe(
			'Failed: the image service refused to draw this photo — the guest is being told'
		);
		const generic = [{ kind: 'failure', textKey: 'failed', state: 'failed' }];
		expect(jobHeadline({ ...failed, attempts: 3, notices: generic }, clockTime)).toBe(
			'Failed: drawing kept failing (3 attempts) — telling the guest failed'
		);
	});

	it('reads an older failure without a notice from its stored error', () => {
		const failed = { ...base, status: 'failed', linkSentAt: null };
		expect(jobHeadline({ ...failed, error: 'deadline passed' }, clockTime)).toBe(
			'Failed: it took longer than the time limit, so it was stopped'
		);
		expect(jobHeadline({ ...failed, error: 'SelfieMissing: the selfie is no longer on disk' }, clockTime)).toBe(
			'Failed: the guest’s photo was already deleted, so there was nothing to draw'
		);
		expect(failureReasonOf([], 'NoFaceFound: no face found in the photo')).toBe('no_face');
		expect(failureReasonOf([{ kind: 'deadline', textKey: 'deadline', state: 'sent' }], 'x')).toBe('deadline');
	});

	it('names what a running or waiting job is doing', () => {
		expect(jobHeadline({ ...base, status: 'processing', stageNow: 'cut' }, clockTime)).toBe('Cutting out for Ali now');
		expect(jobHeadline({ ...base, status: 'queued', attempts: 0 }, clockTime)).toBe('Waiting in the queue for Ali');
		expect(jobHeadline({ ...base, status: 'queued', attempts: 2 }, clockTime)).toBe(
			'Waiting to try again for Ali (2 attempts so far)'
		);
		expect(jobHeadline({ ...base, status: 'delivering' }, clockTime)).toBe('Making the Telegram set for Ali');
	});

	it('gives the Live jobs table the same failure sentence, never the stored error', () => {
		const noFace = [{ kind: 'failure', textKey: 'no_face', state: 'sent' }];
		const error = 'NoFaceFound: changed by hand at /srv/kiosk/selfies/1.jpg';
		expect(jobProblemWords({ status: 'failed', attempts: 1, error, notices: noFace })).toBe(
			'the picture had no face — the guest was told'
		);
		expect(jobProblemWords({ status: 'failed', attempts: 1, error, notices: [] })).toBe('the picture had no face');
		expect(jobProblemWords({ status: 'failed', attempts: 2, error: 'changed by hand', notices: [] })).toBe(
			'drawing kept failing (2 attempts)'
		);
		expect(jobProblemWords({ status: 'queued', attempts: 1, error: 'HTTP 503 at /v1beta', notices: [] })).toBe(
			'an attempt failed; it is being tried again'
		);
		expect(jobProblemWords({ status: 'done', attempts: 2, error: 'HTTP 503', notices: [] })).toBe('');
	});

	it('has operator words for every failure the guest has a text for', () => {
		for (const reason of FAILURE_REASONS) {
			expect(guestTexts, reason).toHaveProperty(reason);
			expect(FAILURE_WORDS[reason]).toMatch(/^[a-z]/);
		}
		expect(toldWords('sent')).toBe('the guest was told');
		expect(toldWords(null)).toBeNull();
	});
});

describe('stage names and the timeline', () => {
	it('gives every recorded stage a human name with no stored name in it', () => {
		for (const stage of RECORDED_STAGES) {
			const name = stageName(stage);
			expect(name, stage).not.toContain('_');
			expect(name, stage).not.toBe(stage);
			expect(name, stage).toMatch(/^[A-Z]/);
		}
		expect(stageName('new_stage')).toBe('New stage');
	});

	it('lists the steps in order with the time spent in each over all its rounds', () => {
		const t = (s: number) => new Date(Date.UTC(2026, 11, 3, 14, 0, s)).toISOString();
		const log = [
			{ stage: 'queued', at: t(0) },
			{ stage: 'passport', at: t(2) },
			{ stage: 'sheet', at: t(5) },
			{ stage: 'cut', at: t(25) },
			{ stage: 'sheet', at: t(27) },
			{ stage: 'cut', at: t(47) },
			{ stage: 'uploading', at: t(50) },
			{ stage: 'done', at: t(58) }
		];
		const steps = stageTimeline(log, { createdAt: t(0), status: 'done', linkSentAt: t(58), updatedAt: t(58) });
		expect(steps.map((s) => [s.name, s.seconds, s.visits])).toEqual([
			['Photo received', 2, 1],
			['Reading the face', 3, 1],
			['Drawing', 40, 2],
			['Cutting out', 5, 2],
			['Making the Telegram set', 8, 1],
			['Link sent', null, 1]
		]);
	});

	it('draws the photo, the link and the failure from the job when the stage log lacks them', () => {
		const job = { createdAt: '2026-12-03T14:00:00.000Z', linkSentAt: null, updatedAt: '2026-12-03T14:20:00.000Z' };
		const failed = stageTimeline([], { ...job, status: 'failed' });
		expect(failed.map((s) => [s.name, s.seconds])).toEqual([
			['Photo received', 1200],
			['Failed', null]
		]);
		const retried = stageTimeline(
			[
				{ stage: 'queued', at: '2026-12-03T14:00:00.000Z' },
				{ stage: 'sheet', at: '2026-12-03T14:00:10.000Z' },
				{ stage: 'queued', at: '2026-12-03T14:00:30.000Z' }
			],
			{ ...job, status: 'queued' }
		);
		expect(retried.map((s) => [s.name, s.seconds])).toEqual([
			['Photo received', 10],
			['Drawing', 20],
			['Waiting to try again', null]
		]);
	});

	it('says the photo→link time, or why there is none', () => {
		const createdAt = '2026-12-03T14:00:00.000Z';
		expect(photoToLinkWords({ createdAt, linkSentAt: '2026-12-03T14:04:10.000Z', status: 'done' })).toBe('4 min 10 s');
		expect(photoToLinkWords({ createdAt, linkSentAt: null, status: 'failed' })).toBe('no link: the job failed');
		expect(photoToLinkWords({ createdAt, linkSentAt: null, status: 'processing' })).toBe('not sent yet');
	});
});
