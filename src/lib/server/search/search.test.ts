// Searching a run: memories by meaning and by words, calls by prompt and answer, lines of
// conversations; the ranked list, its filters, the indexes kept with the run and extended as
// it grows, a fork's history, and the API route.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../memory/lance-store';
import { openRun, resumeRun, startRun } from '../run/runner';
import { fuse, parseKinds, RunSearcher, searchRun, snippet } from './search';
import { TextIndex, journalTexts, SEARCH_DIR } from './text-index';
import type { SearchAnswer } from '../../api/search';
import * as searchRoute from '../../../routes/api/runs/[id]/search/+server';
import { call, fails, ok } from '../ide/testing';
import { closeSearchers } from './searchers';
import { runQueries } from '../read/queries';

const home = mkdtempSync(path.join(tmpdir(), 'search-'));
process.env.SIMULACRA_HOME = home;

afterAll(() => {
	closeSearchers();
	runQueries().release();
	rmSync(home, { recursive: true, force: true });
});

/** The word of `text` (6 letters or more) that the fewest texts of `corpus` hold. */
function rareWord(text: string, corpus: readonly string[]): string {
	const words = [...new Set(text.toLowerCase().match(/[a-z]{6,}/g) ?? [])];
	const df = (w: string) => corpus.filter((t) => t.toLowerCase().includes(w)).length;
	return words.sort((a, b) => df(a) - df(b) || (a < b ? -1 : 1))[0];
}

describe('searching a run', () => {
	let id = '';

	beforeAll(async () => {
		id = (await startRun({ world: 'the-ville-3', steps: 1500, seed: 4, home })).run;
	}, 120_000);

	it('finds a memory by meaning (its own words as the query come first) and by words, with agent, kind, id, step', async () => {
		const reader = openRun(id, home);
		const store = await MemoryStore.open(reader.dir, reader.meta.dimensions);
		const memories = await store.load();
		store.close();
		const target = memories.filter((m) => m.kind === 'observation').at(-7)!;
		const searcher = await RunSearcher.open(id, { home });
		try {
			const byMeaning = await searcher.search(target.description, { filter: parseKinds('memory'), limit: 10 });
			// exactly this text: cosine similarity 1 puts a memory with this description first
			expect(byMeaning.results[0].text).toBe(target.description);
			expect(byMeaning.results[0].matched).toContain('meaning');
			const hit = byMeaning.results.find((r) => r.id === target.id);
			expect(hit).toMatchObject({ agent: target.agent, kind: 'memory', step: target.step, memoryKind: 'observation', importance: target.importance });

			const word = rareWord(target.description, memories.map((m) => m.description));
			const byWords = await searcher.search(word, { filter: parseKinds('memory'), limit: 50 });
			const worded = byWords.results.filter((r) => r.matched.includes('words'));
			expect(worded.length).toBeGreaterThan(0);
			// every match by words holds the word (stemmed: its first letters)
			for (const r of worded) expect(r.text.toLowerCase()).toContain(word.slice(0, 4));
			expect(worded.map((r) => r.id)).toContain(target.id);
		} finally {
			searcher.close();
		}
	}, 60_000);

	it('finds model calls by the words of their prompt and answer, and conversations by line', async () => {
		const reader = openRun(id, home);
		const texts = journalTexts(reader, -1, reader.committed());
		const calls = texts.filter((t) => t.kind === 'call');
		const lines = texts.filter((t) => t.kind === 'conversation');
		expect(calls.length).toBe(reader.calls().length);
		expect(lines.length).toBeGreaterThan(0);
		expect(lines.length).toBe(reader.steps().reduce((n, l) => n + l.conversations.reduce((m, c) => m + c.lines.length, 0), 0));

		const line = lines[Math.floor(lines.length / 2)];
		const lineAnswer = await searchRun(id, line.text, { home, filter: parseKinds('conversation'), limit: 20 });
		expect(lineAnswer.results.find((r) => r.id === line.id)).toMatchObject({ kind: 'conversation', agent: line.agent, with: line.with, step: line.step, text: line.text });
		expect(lineAnswer.results.every((r) => r.kind === 'conversation')).toBe(true);

		// a call found by a word of its answer that few other texts hold
		const corpus = texts.map((t) => t.text);
		const answerOf = (t: string) => t.slice(t.lastIndexOf('\n\n') + 2);
		const target = calls.find((c) => {
			const w = rareWord(answerOf(c.text), corpus);
			return w !== undefined && corpus.filter((t) => t.toLowerCase().includes(w)).length <= 5;
		});
		expect(target).toBeDefined();
		const word = rareWord(answerOf(target!.text), corpus);
		const callAnswer = await searchRun(id, word, { home, filter: parseKinds('call'), limit: 20 });
		const found = callAnswer.results.find((r) => r.id === target!.id);
		expect(found).toMatchObject({ kind: 'call', agent: target!.agent, step: target!.step, template: target!.template });
		// the text shown is the part of the call around the word
		expect(found!.text.toLowerCase()).toContain(word.slice(0, 4));
		expect(found!.text.length).toBeLessThanOrEqual(245);
	}, 60_000);

	it('one ranked list over every kind, filtered by agent and kind; the indexes are made once and kept with the run', async () => {
		const dir = openRun(id, home).dir;
		const all = await searchRun(id, 'Klaus', { home, limit: 30 });
		// the best of each kind lead the list, then the kinds interleave
		expect(all.results.slice(0, 3).map((r) => r.kind)).toEqual(['memory', 'conversation', 'call']);
		for (let i = 1; i < all.results.length; i++) expect(all.results[i - 1].score).toBeGreaterThanOrEqual(all.results[i].score);
		for (const r of all.results) expect(Object.keys(r)).toEqual(expect.arrayContaining(['agent', 'kind', 'id', 'step', 'text', 'score']));
		expect(existsSync(path.join(dir, SEARCH_DIR, 'index.json'))).toBe(true);
		expect(all.indexes.memories.indexedRows).toBeGreaterThan(0);

		const klaus = await searchRun(id, 'Hobbs Cafe', { home, agent: 'Klaus Mueller', limit: 30 });
		expect(klaus.results.length).toBeGreaterThan(0);
		for (const r of klaus.results) expect(r.agent === 'klaus-mueller' || r.with === 'klaus-mueller').toBe(true);
		const planned = await searchRun(id, 'Hobbs Cafe', { home, filter: parseKinds('reflection,plan'), limit: 30 });
		expect(planned.results.length).toBeGreaterThan(0);
		for (const r of planned.results) expect(['reflection', 'plan']).toContain(r.memoryKind);

		// a second search builds nothing
		const again = await searchRun(id, 'Klaus', { home, limit: 30 });
		expect(again.indexes.memories.created).toBe(false);
		expect(again.indexes.texts.map((t) => t.added)).toEqual([0]);
		expect(again.results).toEqual(all.results);

		await expect(searchRun(id, '   ', { home })).rejects.toThrow(/empty/);
		await expect(searchRun(id, 'cafe', { home, agent: 'Nobody Here' })).rejects.toThrow(/has no agent/);
		expect(() => parseKinds('memory,banana')).toThrow(/kind "banana"/);
	}, 60_000);

	it("a run that grows: the next search adds its new steps to the text index; a fork finds its parent's lines before the fork step only", async () => {
		const grown = (await startRun({ world: 'the-ville-3', steps: 700, seed: 5, home })).run;
		const first = await searchRun(grown, 'Hobbs Cafe', { home, limit: 5 });
		const rowsBefore = first.indexes.texts[0].rows;
		await resumeRun(grown, { steps: 500, home });
		const reader = openRun(grown, home);
		const second = await searchRun(grown, 'Hobbs Cafe', { home, limit: 5 });
		const added = second.indexes.texts[0].added;
		expect(added).toBe(journalTexts(reader, 700, 1200).length);
		expect(added).toBeGreaterThan(0);
		expect(second.indexes.texts[0].rows).toBe(rowsBefore + added);
		const index = await TextIndex.open(reader.dir);
		expect(index.manifest?.indexedTo).toBe(1200);
		index.close();

		const line = journalTexts(reader, -1, 1200).find((t) => t.kind === 'conversation');
		expect(line).toBeDefined();
		const later = (await startRun({ from: { run: grown, step: line!.step + 5 }, steps: 20, home })).run;
		const earlier = (await startRun({ from: { run: grown, step: line!.step - 5 }, steps: 3, home })).run;
		const found = await searchRun(later, line!.text, { home, filter: parseKinds('conversation'), limit: 50 });
		expect(found.results.find((r) => r.id === line!.id)).toMatchObject({ run: grown, step: line!.step, agent: line!.agent });
		const notYet = await searchRun(earlier, line!.text, { home, filter: parseKinds('conversation'), limit: 50 });
		expect(notYet.results.find((r) => r.id === line!.id)).toBeUndefined();
		expect(notYet.results.every((r) => r.run !== grown || r.step < line!.step - 5)).toBe(true);
	}, 120_000);

	it('the API answers the ranked list, and 400/404 for a bad query, agent or run', async () => {
		const a = await ok<SearchAnswer>(call(searchRoute.GET, { id }, 'q=Hobbs%20Cafe&kind=memory&limit=7'));
		expect(a.results).toHaveLength(7);
		expect(a.results.every((r) => r.kind === 'memory')).toBe(true);
		await fails(call(searchRoute.GET, { id }, 'q='), 400, /^q is required$/);
		await fails(call(searchRoute.GET, { id }, 'q=cafe&kind=nonsense'), 400, /kind "nonsense"/);
		await fails(call(searchRoute.GET, { id }, 'q=cafe&limit=100000'), 400, /limit/);
		await fails(call(searchRoute.GET, { id }, 'q=cafe&agent=Nobody'), 404, /has no agent/);
		await fails(call(searchRoute.GET, { id: 'no-such-run' }, 'q=cafe'), 404, /no run/);
	}, 60_000);
});

describe('fusion and snippets', () => {
	const item = (key: string, how: 'meaning' | 'words', kind: 'memory' | 'call' = 'memory') => ({
		key,
		how,
		result: { agent: 'a', kind, id: key, step: 1, text: key }
	});

	it('reciprocal-rank fusion: within a kind, found in two lists beats first in one; across kinds, rank against rank', () => {
		const out = fuse(
			[
				[
					[item('x', 'meaning'), item('both', 'meaning')],
					[item('y', 'words'), item('both', 'words')]
				],
				[[item('c1', 'words', 'call'), item('c2', 'words', 'call')]]
			],
			10,
			'q'
		);
		expect(out.map((r) => r.id)).toEqual(['both', 'c1', 'x', 'c2', 'y']);
		expect(out[0].matched).toEqual(['meaning', 'words']);
		expect(out[0].score).toBeCloseTo(1 / 61, 6);
		expect(out[2].score).toBeCloseTo(1 / 62, 6);
		expect(fuse([[[item('a', 'words'), item('b', 'words')]]], 1, 'q').map((r) => r.id)).toEqual(['a']);
	});

	it('a snippet is the part around the first query word (stem-like: "parties" finds "party")', () => {
		const text = 'x'.repeat(500) + ' she heard about the party at the cafe ' + 'y'.repeat(500);
		const s = snippet(text, 'who heard of parties', 120);
		expect(s).toContain('heard about the party');
		expect(s.startsWith('…')).toBe(true);
		expect(s.length).toBeLessThanOrEqual(122);
		expect(snippet('short text', 'zzz')).toBe('short text');
	});
});
