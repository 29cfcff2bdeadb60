/**
 * Runs a read model's independent reads at once and answers them under the names they were given:
 * each part is named once, where it is read, instead of once in a list of promises and again, in
 * the same order, in the list that takes their results apart.
 */
export async function readAll<Reads extends Record<string, Promise<unknown>>>(
	reads: Reads
): Promise<{ [Name in keyof Reads]: Awaited<Reads[Name]> }> {
	const names = Object.keys(reads);
	const values = await Promise.all(Object.values(reads));
	return Object.fromEntries(names.map((name, i) => [name, values[i]])) as {
		[Name in keyof Reads]: Awaited<Reads[Name]>;
	};
}
