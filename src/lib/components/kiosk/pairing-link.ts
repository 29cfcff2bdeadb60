/**
 * The console's pairing link carries the kiosk key in the fragment (`/kiosk#pair=KEY`), which the
 * browser never sends to the server. The kiosk page takes it once and then removes it from the
 * address bar, so it is not left in the tablet's history or bookmarked.
 */
export function readPairingKey(hash: string): string | null {
	const params = new URLSearchParams(hash.replace(/^#/, ''));
	const key = params.get('pair')?.trim();
	return key ? key : null;
}
