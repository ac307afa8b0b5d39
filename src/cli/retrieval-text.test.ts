import { describe, expect, it } from 'vitest';
import type { RetrievalTable, TableRow } from '../lib/api/traces';
import { formatRetrievalTable, rowsInRankOrder } from './retrieval-text';

function row(id: string, score: number, rank: number): TableRow {
	return { id, kind: 'thought', description: `memory ${id}`, created: 0, lastAccess: 0, recency: 1, importance: 1, relevance: 1, recencyNorm: score, importanceNorm: 0, relevanceNorm: 0, score, rank };
}

const table = (candidates: TableRow[]): RetrievalTable => ({
	id: 'ana/r1',
	run: 'r',
	agent: 'ana',
	step: 3,
	time: 0,
	purpose: 'interview',
	query: 'q',
	weights: { recency: 1, importance: 0, relevance: 0 },
	decay: 0.995,
	k: 3,
	candidates,
	selected: [],
	matchesRecord: true
});

describe('the retrieval table', () => {
	it('orders by score, tied rows in rank order (the newer memory first, as the engine picks), unranked after', () => {
		// stream order, oldest first: the engine ranked the tied newer memories first
		const t = table([row('m0', 0.5, 0), row('m1', 0.5, 3), row('m2', 0.5, 2), row('m3', 0.9, 1), row('m4', 0.5, 0), row('m5', 0.1, 0)]);
		expect(rowsInRankOrder(t).map((r) => r.id)).toEqual(['m3', 'm2', 'm1', 'm4', 'm0', 'm5']);
	});

	it('prints column headers above aligned rows', () => {
		const text = formatRetrievalTable(table([row('m0', 0.5, 2), row('m1', 0.5, 1), row('m2', 0.25, 0)]));
		const lines = text.split('\n');
		expect(lines[0]).toBe('ana/r1 at step 3, interview: "q"');
		expect(lines[2]).toBe('rank  score  recency  importance  relevance  memory');
		expect(lines.slice(3)).toEqual(['   1  0.500     0.50        0.00       0.00  memory m1', '   2  0.500     0.50        0.00       0.00  memory m0', '   -  0.250     0.25        0.00       0.00  memory m2']);
	});
});
