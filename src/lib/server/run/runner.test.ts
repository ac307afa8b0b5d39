import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listRuns, loadState, openRun, startRun, stateHash } from './runner';

const home = mkdtempSync(path.join(tmpdir(), 'runner-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const base = { world: 'the-ville-3', seed: 7, home, snapshotEvery: 50 };

describe('runs are replayable', () => {
	it('same seed, same hash; any step restores exactly; a fork continues identically', async () => {
		const a = await startRun({ ...base, steps: 120 });
		const b = await startRun({ ...base, steps: 120 });
		expect(a.stateHash).toMatch(/^[0-9a-f]{64}$/);
		expect(b.stateHash).toBe(a.stateHash);
		expect(a.agents).toBe(3);
		expect(a.llmCalls).toBeGreaterThan(0);

		const short = await startRun({ ...base, steps: 75 });
		const { sim: at75 } = await loadState(a.run, 75, { home });
		expect(stateHash(at75)).toBe(short.stateHash);

		const fork = await startRun({ home, from: { run: a.run, step: 75 }, steps: 45 });
		expect(fork.steps).toBe(120);
		expect(fork.stateHash).toBe(a.stateHash);
		// a fork's earlier steps come from its parent
		const { sim: fork10 } = await loadState(fork.run, 10, { home });
		const { sim: a10 } = await loadState(a.run, 10, { home });
		expect(stateHash(fork10)).toBe(stateHash(a10));

		const listed = listRuns(home).find((r) => r.id === fork.run);
		expect(listed?.parent).toEqual({ run: a.run, step: 75 });
		expect(listed?.world).toBe('the-ville-3');
		expect(fork.run.startsWith('the-ville-3-')).toBe(true);
		expect(listed?.status).toBe('done');
	}, 120_000);

	it('a fork with other retrieval weights changes retrievals only from the fork on', async () => {
		// Smallville: 25 agents meet and talk within the first hours, so retrievals follow the fork
		const a = await startRun({ ...base, world: 'smallville', steps: 400 });
		const parentTraces = openRun(a.run, home).traces();
		// fork just before the first retrieval after the morning's planning
		const next = parentTraces.find((t) => t.step > 1);
		expect(next).toBeDefined();
		const at = (next?.step ?? 1) - 1;
		const fork = await startRun({ home, from: { run: a.run, step: at }, steps: 400 - at, set: ['retrieval.weights.relevance=3'] });
		const forkTraces = openRun(fork.run, home).traces();
		expect(forkTraces.length).toBeGreaterThan(0);
		expect(forkTraces.every((t) => t.step >= at && t.weights.relevance === 3)).toBe(true);
		expect(parentTraces.every((t) => t.weights.relevance === 1)).toBe(true);
		expect(openRun(fork.run, home).meta.overrides).toEqual(['retrieval.weights.relevance=3']);
		await expect(startRun({ home, from: { run: a.run, step: at }, steps: 1, set: ['retrieval.weights.nope=1'] })).rejects.toThrow(/unknown setting/);
	}, 120_000);

	it('refuses steps a run does not have', async () => {
		const a = await startRun({ ...base, steps: 5 });
		await expect(loadState(a.run, 6, { home })).rejects.toThrow(/not among them/);
		expect(() => openRun('../etc', home)).toThrow(/no run/);
	}, 60_000);
});
