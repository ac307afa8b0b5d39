// CSV writing, in one place, for every export (evaluations, experiments, statistics, rankings):
// RFC 4180 fields and rows with a header row.

export type CsvCell = string | number | boolean | null | undefined;

/**
 * One field: empty for a missing value or a number that is not finite (NaN, Infinity); quoted,
 * with quotes doubled, when it holds a comma, a quote or a line break, begins or ends with
 * white space, or is a text a spreadsheet would run as a formula (beginning with =, +, -, @ or
 * a tab, and not a number).
 */
export function csvField(v: CsvCell): string {
	if (v === null || v === undefined) return '';
	if (typeof v === 'number' && !Number.isFinite(v)) return '';
	const s = typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v);
	const formula = typeof v === 'string' && /^[=+\-@\t]/.test(s) && Number.isNaN(Number(s));
	return formula || /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row: its fields joined by commas. */
export function csvRow(cells: readonly CsvCell[]): string {
	return cells.map(csvField).join(',');
}

/** A table: the header row, then the rows, each ended by `eol` (CRLF, as RFC 4180 says, unless told). */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[], eol: '\r\n' | '\n' = '\r\n'): string {
	return [header, ...rows].map(csvRow).join(eol) + eol;
}
