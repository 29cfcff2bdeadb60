/** How the console names a guest: "First Last (@username)", else their Telegram id. */
export function guestLabel(
	user: { firstName: string | null; lastName: string | null; username: string | null } | undefined | null,
	telegramUserId: bigint | string
): string {
	if (!user) return `guest ${telegramUserId}`;
	const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
	const handle = user.username ? `@${user.username}` : '';
	if (name && handle) return `${name} (${handle})`;
	return name || handle || `guest ${telegramUserId}`;
}
