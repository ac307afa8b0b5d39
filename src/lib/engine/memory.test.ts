import { describe, expect, it } from 'vitest';
import { HOUR } from './clock';
import { FLAT_NORM, MemoryStream, hiddenMask, hiddenSources, normalise, selectTop, sourceOf, topK } from './memory';
import { tinyEmbed } from './testing';

const settings = { weights: { recency: 1, importance: 1, relevance: 1 }, decay: 0.995 };

function stream(items: [string, number, number][]) {
	const s = new MemoryStream('a', 64, 2); // tiny capacity: exercises growth
	for (const [text, importance, created] of items) {
		s.add({ kind: 'observation', description: text, created, step: 0, importance, embedding: tinyEmbed(text) });
	}
	return s;
}

describe('memory retrieval', () => {
	it('scores with the paper formula: decay^hours, min-max normalised, weighted sum', () => {
		const s = stream([
			['the stove is burning', 9, 0],
			['brushing teeth', 1, 10 * HOUR],
			['a party at the cafe', 5, 20 * HOUR]
		]);
		const now = 24 * HOUR;
		const rows = s.score(tinyEmbed('party cafe'), now, settings);
		expect(rows.map((r) => r.recency)).toEqual([0.995 ** 24, 0.995 ** 14, 0.995 ** 4].map((x) => expect.closeTo(x, 12)));
		expect(rows.map((r) => r.importanceNorm)).toEqual([1, 0, 0.5]);
		expect(rows[0].recencyNorm).toBe(0);
		expect(rows[2].recencyNorm).toBe(1);
		expect(rows[2].relevanceNorm).toBe(1);
		for (const r of rows) expect(r.score).toBeCloseTo(r.recencyNorm + r.importanceNorm + r.relevanceNorm, 12);
		expect(s.records[rows[topK(rows, 1)[0]].index].description).toBe('a party at the cafe');
	});

	it('weights change the winner', () => {
		const s = stream([
			['the stove is burning', 9, 0],
			['a party at the cafe', 2, 0]
		]);
		const q = tinyEmbed('party cafe');
		const byImportance = s.score(q, HOUR, { ...settings, weights: { recency: 0, importance: 1, relevance: 0 } });
		const byRelevance = s.score(q, HOUR, { ...settings, weights: { recency: 0, importance: 0, relevance: 1 } });
		expect(topK(byImportance, 1)).toEqual([0]);
		expect(topK(byRelevance, 1)).toEqual([1]);
	});

	it('flat columns normalise to a constant and ties go to the newer memory', () => {
		expect(Array.from(normalise(new Float64Array([3, 3, 3])))).toEqual([FLAT_NORM, FLAT_NORM, FLAT_NORM]);
		const s = stream([
			['alpha', 4, 0],
			['alpha', 4, 0],
			['alpha', 4, 0]
		]);
		const rows = s.score(tinyEmbed('alpha'), 0, settings);
		expect(new Set(rows.map((r) => r.score)).size).toBe(1);
		expect(topK(rows, 2).map((i) => rows[i].index)).toEqual([2, 1]);
	});

	it('selectTop equals a full sort for random scores', () => {
		let x = 7;
		const scores = Array.from({ length: 500 }, () => ((x = (x * 1103515245 + 12345) % 2 ** 31) % 50) / 7);
		const full = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || b - a);
		expect(selectTop(scores, 30, (p) => p)).toEqual(full.slice(0, 30));
		expect(selectTop(scores, 0, (p) => p)).toEqual([]);
		expect(selectTop([], 5, (p) => p)).toEqual([]);
	});

	it('a copy holds the first memories asked for, with their access times, and leaves the stream alone', () => {
		const s = stream([
			['alpha', 4, 0],
			['beta', 5, HOUR],
			['gamma', 6, 2 * HOUR]
		]);
		s.touch([0], 3 * HOUR);
		const c = s.copy(2);
		expect(c.records.map((r) => r.description)).toEqual(['alpha', 'beta']);
		expect(c.lastAccessList()).toEqual([3 * HOUR, HOUR]);
		c.add({ kind: 'observation', description: 'delta', created: 4 * HOUR, step: 0, importance: 1, embedding: tinyEmbed('delta') });
		c.touch([1], 5 * HOUR);
		expect(s.size).toBe(3);
		expect(s.lastAccessList()).toEqual([3 * HOUR, HOUR, 2 * HOUR]);
		expect(s.copy().size).toBe(3);
	});

	it('last access is kept per memory and can be restored', () => {
		const s = stream([
			['one', 1, 0],
			['two', 2, 0]
		]);
		s.touch([1], 5 * HOUR);
		expect(s.lastAccessList()).toEqual([0, 5 * HOUR]);
		s.setLastAccess([HOUR, 2 * HOUR]);
		expect(s.lastAccess(0)).toBe(HOUR);
		expect(() => s.setLastAccess([1])).toThrow(/2 memories/);
	});
});

describe('memory provenance', () => {
	it('a memory stored without a source gets the one its kind and content imply', () => {
		expect(sourceOf({ kind: 'observation', step: 4 })).toBe('observed');
		expect(sourceOf({ kind: 'plan', step: 4 })).toBe('planned');
		expect(sourceOf({ kind: 'reflection', step: 4 })).toBe('reflected');
		expect(sourceOf({ kind: 'conversation', step: 4, with: 'b' })).toBe('conversation');
		expect(sourceOf({ kind: 'thought', step: 4, with: 'b' })).toBe('conversation');
		expect(sourceOf({ kind: 'thought', step: 0 })).toBe('seed');
		expect(sourceOf({ kind: 'thought', step: 9 })).toBe('inner-voice');
		const s = new MemoryStream('a', 64);
		expect(s.add({ kind: 'thought', description: 'x', created: 0, step: 0, importance: 1, embedding: tinyEmbed('x') }).source).toBe('seed');
		expect(s.add({ kind: 'thought', source: 'inner-voice', description: 'y', created: 0, step: 0, importance: 1, embedding: tinyEmbed('y') }).source).toBe('inner-voice');
	});

	it('conditions hide sources; a reflection citing only hidden memories is hidden, however deep', () => {
		expect(hiddenSources({ reflection: false, planning: false, observation: false })).toEqual([]);
		expect(hiddenSources({ reflection: true, planning: true, observation: true }).sort()).toEqual(['conversation', 'interview', 'observed', 'planned', 'reflected']);
		const s = new MemoryStream('a', 64, 2);
		const add = (source: 'seed' | 'observed' | 'conversation' | 'reflected' | 'inner-voice', evidence?: number[]) =>
			s.add({
				kind: source === 'reflected' ? 'reflection' : source === 'observed' ? 'observation' : source === 'conversation' ? 'conversation' : 'thought',
				source,
				description: `m${s.size}`,
				created: 0,
				step: 1,
				importance: 1,
				embedding: tinyEmbed(`m${s.size}`),
				...(evidence ? { evidence: evidence.map((i) => `a/m${i}`) } : {})
			});
		add('seed'); // 0
		add('observed'); // 1
		add('conversation'); // 2
		add('reflected', [1, 2]); // 3: only hidden evidence
		add('reflected', [0, 1]); // 4: a visible one among them
		add('reflected', [3]); // 5: cites a hidden reflection
		add('reflected', []); // 6: cites nothing
		add('reflected', [99]); // 7: cites a memory not in the stream
		const hidden = hiddenSources({ reflection: false, planning: false, observation: true });
		const mask = hiddenMask(s.records, hidden);
		expect(Array.from(mask.subarray(0, s.size))).toEqual([0, 1, 1, 1, 0, 1, 0, 0]);
		expect(s.recent(10, mask).map((m) => m.index)).toEqual([0, 4, 6, 7]);
		// extending a mask as the stream grows gives what computing it afresh gives
		add('inner-voice'); // 8
		add('reflected', [5, 2]); // 9
		const grown = hiddenMask(s.records, hidden, 8, mask);
		expect(Array.from(grown.subarray(0, s.size))).toEqual(Array.from(hiddenMask(s.records, hidden).subarray(0, s.size)));
		expect(grown[8]).toBe(0);
		expect(grown[9]).toBe(1);
	});
});
