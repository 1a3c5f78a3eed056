/**
 * Catalog Record → Get Many's Search: a record matches when its ID or any column value contains
 * the text, ignoring case and white space ("DE 123 456 789" finds "DE123456789"). Vantage's
 * Processing API has no search of its own (GetRecords pages by offset only), so the node reads
 * the pages and keeps the matches.
 */
export type RecordMatcher = (record: { id: string; fields: Record<string, string[]> }) => boolean;

function normalised(text: string): string {
	return text.toLowerCase().replace(/\s+/g, '');
}

/** A matcher for the search text, or undefined when it is empty (every record). */
export function recordMatcher(search: unknown): RecordMatcher | undefined {
	const wanted = typeof search === 'number' ? String(search) : search;
	if (typeof wanted !== 'string' || normalised(wanted) === '') return undefined;
	const needle = normalised(wanted);
	return (record) =>
		normalised(record.id).includes(needle) ||
		Object.values(record.fields).some((values) =>
			values.some((value) => normalised(String(value)).includes(needle)),
		);
}
