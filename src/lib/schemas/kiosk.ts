import { z } from 'zod';
import type { JobStatus } from './job-status.ts';
import type { KioskTheme } from './brand-colours.ts';

/**
 * What the kiosk page and the server agree on: session tokens, the statuses and reasons of the
 * session state machine, and the live view the page renders.
 * Shared by browser and server code, so nothing here imports from src/lib/server.
 */

/** 24 random bytes as base64url: 192 bits, and within Telegram's deep-link alphabet and length. */
export const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;
export const sessionTokenSchema = z.string().regex(SESSION_TOKEN_PATTERN);

export const SESSION_STATUSES = ['idle', 'linked', 'consented', 'template_chosen', 'photo_taken', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
/** Statuses a session can still leave (everything but the two final ones). */
export const OPEN_STATUSES = [
	'idle',
	'linked',
	'consented',
	'template_chosen'
] as const satisfies readonly SessionStatus[];
export type OpenStatus = (typeof OPEN_STATUSES)[number];

export const CLOSED_REASONS = [
	'idle_timeout',
	'qr_timeout',
	'cancel',
	'kiosk_cancel',
	'staff_reset',
	'camera_error',
	'kiosk_reset'
] as const;
export type ClosedReason = (typeof CLOSED_REASONS)[number];

/** Why the pack limit closed a session on link (sessions.notice). */
export const SESSION_NOTICES = ['pack_ready', 'pack_in_progress'] as const;
export type SessionNotice = (typeof SESSION_NOTICES)[number];

/**
 * What a kiosk may close a session for itself (the others come from the guest, staff or the clock):
 * the guest pressed Cancel on the kiosk, the camera failed, or the page is leaving.
 */
export const KIOSK_CLOSE_REASONS = [
	'kiosk_cancel',
	'camera_error',
	'kiosk_reset'
] as const satisfies readonly ClosedReason[];
export const kioskCloseSchema = z.object({ reason: z.enum(KIOSK_CLOSE_REASONS) });

export const staffResetSchema = z.object({ pin: z.string().regex(/^\d{4,12}$/) });

export const kioskKeySchema = z.object({ key: z.string().trim().min(20).max(200) });

/** Where the guest's job stands after the photo: "you are #N, about M s". */
export interface QueueView {
	/** 0 = being drawn right now. */
	position: number;
	etaSeconds: number;
	status: JobStatus;
}

/** One push to the kiosk: everything a screen needs, nothing personal (no names, no ids). */
export interface KioskSessionView {
	token: string;
	status: SessionStatus;
	closedReason: ClosedReason | null;
	notice: SessionNotice | null;
	outfitId: string | null;
	/**
	 * The chosen outfit as the session's event publishes it; `preview` is the address of its picture
	 * (the operator's upload, else the costume drawn in its colours: what the bot shows too).
	 */
	outfit: { emoji: string; title: Record<'ru' | 'uz' | 'en', string>; preview: string } | null;
	/** When the QR stops being accepted (idle only), and when a stalled guest times out. */
	qrExpiresAt: string | null;
	idleExpiresAt: string | null;
	serverNow: string;
	queue: QueueView | null;
	paused: boolean;
}

/** Whether the kiosk may start sessions: pushed on every change, and in the hello. */
export interface KioskPauseView {
	paused: boolean;
	/** When the queue expects to be back (ISO), when known. */
	pausedUntil: string | null;
	/** The operator's words for guests ("Back at 14:00"), when they gave some. */
	pauseNote: string | null;
}

export interface StartedSession {
	token: string;
	deepLink: string;
	/** Demo mode only: the emulator's chat page opened with this start parameter. */
	emulatorLink: string | null;
	qrSvg: string;
	view: KioskSessionView;
}

/** The Start screen's look: the event's name (null for the default event), colours and a sample of its outfits. */
export interface KioskStartScreen {
	eventName: string | null;
	theme: KioskTheme;
	/** The event chose a background colour: the page paints it flat instead of its own gradient. */
	branded: boolean;
	/** Up to 6 of the event's outfits, as pictures (never guests' stickers: docs/kiosk.md, "The Start screen"). */
	sample: { id: string; emoji: string; title: Record<'ru' | 'uz' | 'en', string>; picture: string }[];
}

/** One sticker of the guest's delivered pack, for the "your pack is ready" moment. */
export interface ReadySticker {
	/** 1–12, the sticker's place in the pack. */
	number: number;
	kind: 'image' | 'video';
	url: string;
}
