// The memory table's full-text index and the searches over a whole run: made once and kept,
// memories appended after it still found (by a scan) until a compaction merges them into it,
// filters by agent and kind, and the nearest memories across agents by cosine similarity.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryKind, MemoryRecord } from '../../engine/memory';
import { hashEmbed } from '../model/providers/embed';
import { MemoryStore, TEXT_INDEX } from './lance-store';

const dir = mkdtempSync(path.join(tmpdir(), 'simulacra-fts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function memory(agent: string, index: number, description: string, kind: MemoryKind = 'observation'): MemoryRecord {
	return {
		id: `${agent}/m${index}`,
		agent,
		index,
		kind,
		source: kind === 'reflection' ? 'reflected' : 'observed',
		description,
		created: index * 10_000,
		step: index,
		importance: 1 + (index % 9),
		embedding: hashEmbed(description)
	};
}

describe('memory full-text index', () => {
	it('made once, kept, extended by compaction; searches by words and by meaning across agents', async () => {
		const store = await MemoryStore.open(dir, 256);
		try {
			expect((await store.ensureTextIndex()).created).toBe(false); // nothing to index yet
			expect(await store.searchText('party', { limit: 5 })).toEqual([]);
			await store.append([
				memory('ann', 0, 'Ann is planning a party at the cafe'),
				memory('ann', 1, 'Ann is reading a book'),
				memory('bob', 0, 'Bob heard about the parties from Ann', 'reflection'),
				memory('bob', 1, 'Bob is sleeping')
			]);
			const made = await store.ensureTextIndex();
			expect(made).toMatchObject({ created: true, indexedRows: 4, unindexedRows: 0 });
			expect(made.bytes).toBeGreaterThan(0);
			expect((await store.ensureTextIndex()).created).toBe(false);

			// stemmed: "parties" and "party" are one word; stop words are not
			expect((await store.searchText('party', { limit: 10 })).map((h) => h.id).sort()).toEqual(['ann/m0', 'bob/m0']);
			expect(await store.searchText('the', { limit: 10 })).toEqual([]);
			expect((await store.searchText('party', { agent: 'bob', limit: 10 })).map((h) => h.id)).toEqual(['bob/m0']);
			expect((await store.searchText('party', { kinds: ['observation'], limit: 10 })).map((h) => h.id)).toEqual(['ann/m0']);
			expect(await store.searchText('party', { kinds: [], limit: 10 })).toEqual([]);

			// appended after the index: found by a scan, then merged by a compaction
			await store.append([memory('ann', 2, 'Ann decorates the cafe for the party')]);
			expect((await store.searchText('decorates', { limit: 10 })).map((h) => h.id)).toEqual(['ann/m2']);
			expect((await store.ensureTextIndex()).unindexedRows).toBe(1);
			await store.compact({ force: true });
			expect(await store.ensureTextIndex()).toMatchObject({ created: false, indexedRows: 5, unindexedRows: 0 });
			expect((await store.searchText('decorates', { limit: 10 })).map((h) => h.id)).toEqual(['ann/m2']);

			// by meaning: the nearest memories of every agent, the exact text first with similarity 1
			const near = await store.nearest(hashEmbed('Bob is sleeping'), { limit: 3 });
			expect(near[0]).toMatchObject({ id: 'bob/m1', agent: 'bob', kind: 'observation', step: 1 });
			expect(near[0].score).toBeCloseTo(1, 5);
			expect(near.map((h) => h.score)).toEqual([...near.map((h) => h.score)].sort((a, b) => b - a));
			expect((await store.nearest(hashEmbed('Bob is sleeping'), { agent: 'ann', limit: 3 })).every((h) => h.agent === 'ann')).toBe(true);
		} finally {
			store.close();
		}
		// kept with the table: a new handle finds it
		const again = await MemoryStore.open(dir, 256);
		try {
			expect((await again.ensureTextIndex()).created).toBe(false);
			expect(TEXT_INDEX).toBe('description_idx');
			expect((await again.searchText('party', { limit: 10 })).length).toBe(3);
		} finally {
			again.close();
		}
	});
});
