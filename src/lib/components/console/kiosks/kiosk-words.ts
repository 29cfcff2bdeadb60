import type { OpenStatus } from '$lib/schemas/kiosk';

/** What a kiosk's open session means, in an operator's words (no status names). */
export const SESSION_WORDS: Record<OpenStatus, string> = {
	idle: 'Showing a guest’s QR code',
	linked: 'Guest opened Telegram',
	consented: 'Guest accepted the privacy terms',
	template_chosen: 'Guest at the camera'
};

/** Online when its stream beat within the window, by the server's clock (`now` already corrected). */
export function isOnline(lastSeenAt: string | null, now: number, withinSeconds: number): boolean {
	return lastSeenAt !== null && now - Date.parse(lastSeenAt) <= withinSeconds * 1000;
}
