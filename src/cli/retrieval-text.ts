// The `retrieval` command's text: one retrieval's score table, best first, with column headers.

import type { RetrievalTable, TableRow } from '../lib/api/traces';

/**
 * The rows best first: by score, then by rank among the selected (ties broken as the engine's
 * top k breaks them: the newer memory first), so a tie never prints out of rank order; rows not
 * selected follow by score, newer first.
 */
export function rowsInRankOrder(table: RetrievalTable): TableRow[] {
	const at = new Map(table.candidates.map((r, i) => [r, i]));
	return [...table.candidates].sort((a, b) => {
		if (b.score !== a.score) return b.score - a.score;
		if (a.rank && b.rank) return a.rank - b.rank;
		if (a.rank || b.rank) return a.rank ? -1 : 1;
		// candidates are in stream order: the later one is the newer memory
		return at.get(b)! - at.get(a)!;
	});
}

const COLUMNS = ['rank', 'score', 'recency', 'importance', 'relevance', 'memory'] as const;

export function formatRetrievalTable(table: RetrievalTable): string {
	const w = table.weights;
	const head = [
		`${table.id} at step ${table.step}, ${table.purpose}: "${table.query}"`,
		`weights recency ${w.recency}, importance ${w.importance}, relevance ${w.relevance}; decay ${table.decay}; top ${table.k}` +
			' (recency, importance and relevance normalised to 0..1; score = their weighted sum)'
	];
	const rows = rowsInRankOrder(table).map((r) => [r.rank ? String(r.rank) : '-', r.score.toFixed(3), r.recencyNorm.toFixed(2), r.importanceNorm.toFixed(2), r.relevanceNorm.toFixed(2), r.description.slice(0, 70)]);
	const widths = COLUMNS.map((c, i) => (i === COLUMNS.length - 1 ? 0 : Math.max(c.length, ...rows.map((row) => row[i].length))));
	const line = (cells: readonly string[]) =>
		cells
			.map((c, i) => (i === cells.length - 1 ? c : c.padStart(widths[i])))
			.join('  ')
			.trimEnd();
	return [...head, line(COLUMNS), ...rows.map(line)].join('\n');
}
