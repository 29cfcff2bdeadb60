import type { Outfit } from '../../schemas/outfit.ts';

/** What a new catalogue version changed against the one before, in words for the history list. */
export function describeCatalogueChange(before: readonly Outfit[] | null, after: readonly Outfit[]): string {
	if (!before) return `First catalogue: ${after.length} outfit${after.length === 1 ? '' : 's'}.`;
	const old = new Map(before.map((o) => [o.id, o]));
	const now = new Map(after.map((o) => [o.id, o]));
	const parts: string[] = [];
	const added = after.filter((o) => !old.has(o.id)).map((o) => o.id);
	const removed = before.filter((o) => !now.has(o.id)).map((o) => o.id);
	const edited = after
		.filter((o) => old.has(o.id) && JSON.stringify(old.get(o.id)) !== JSON.stringify(o))
		.map((o) => o.id);
	if (added.length) parts.push(`added ${added.join(', ')}`);
	if (removed.length) parts.push(`removed ${removed.join(', ')}`);
	if (edited.length) parts.push(`edited ${edited.join(', ')}`);
	const kept = (list: readonly Outfit[]) =>
		list
			.filter((o) => old.has(o.id) && now.has(o.id))
			.map((o) => o.id)
			.join();
	if (kept(before) !== kept(after)) parts.push('reordered');
	if (parts.length === 0) return 'No change in the outfits.';
	const text = parts.join('; ');
	return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}
