import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RequestError } from '../errors';
import { ExperimentDefError, experimentId, parseExperiment } from './definition';
import { experimentView, startExperiment } from './manager';
import { resolveExperiment } from './pool';
import { openExperiment, writeProgress } from './store';

const home = mkdtempSync(path.join(tmpdir(), 'simulacra-exp-manager-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('experiments from the IDE', () => {
	it('refuses a bad definition with the field named', async () => {
		await expect(startExperiment({ world: 'the-ville-3', steps: 5, arms: [] }, home)).rejects.toThrow(/replicates: missing[\s\S]*arms: a list of at least one arm/);
	});

	it('refuses misspelt or ill-typed settings, an unknown world or base run and a missing prompt set before starting', async () => {
		const raw = { name: 'typo', world: 'the-ville-3', steps: 5, replicates: 1, arms: [{ name: 'A', set: ['retrieval.weights.relevanse=3'] }, { name: 'B', set: ['conversation.maxTurns=lots'], prompts: 'no-such-label' }] };
		await expect(startExperiment(raw, home)).rejects.toThrow(ExperimentDefError);
		const message = await startExperiment(raw, home).catch((e: Error) => e.message);
		expect(message).toContain('arms[0].set[0] (arm "A"): unknown setting "retrieval.weights.relevanse" (did you mean "retrieval.weights.relevance"?)');
		expect(message).toContain('arms[1].set[0] (arm "B"): setting "conversation.maxTurns" takes a number, not "lots"');
		expect(message).toMatch(/arms\[1\]\.prompts \(arm "B"\): no prompt-set version or label "no-such-label"/);
		expect(existsSync(path.join(home, 'experiments', experimentId(parseExperiment({ ...raw, arms: [{ name: 'A' }, { name: 'B' }] }, 'definition'))))).toBe(false);
		expect(readdirSync(home).includes('experiments') ? readdirSync(path.join(home, 'experiments')) : []).toEqual([]);
		await expect(startExperiment({ ...raw, world: 'no-such-world', arms: [{ name: 'A' }] }, home)).rejects.toThrow(/world: cannot load "no-such-world"/);
		await expect(startExperiment({ ...raw, world: undefined, base: { run: 'no-such-run', step: 1 }, arms: [{ name: 'A' }] }, home)).rejects.toThrow(/base\.run: cannot read run "no-such-run"/);
	});

	it('turns game hours into steps of the world', async () => {
		const { steps: _s, ...rest } = { name: 'hours', world: 'the-ville-3', steps: 0, replicates: 1, arms: [{ name: 'A' }] };
		const def = await resolveExperiment({ ...rest, hours: 0.5 }, 'hours.json', home);
		expect(def.steps).toBe(180);
	});

	it('answers 404 for an unknown experiment and for a malformed id', () => {
		for (const id of ['nothing-here-0123456789', '../etc']) {
			try {
				experimentView(id, home);
				expect.unreachable();
			} catch (e) {
				expect(e).toBeInstanceOf(RequestError);
				expect((e as RequestError).status).toBe(404);
			}
		}
	});

	it('refuses to start an experiment that is already running, and reads a dead one as interrupted', async () => {
		const raw = { name: 'busy', world: 'the-ville-3', steps: 5, replicates: 1, arms: [{ name: 'A' }] };
		const def = parseExperiment(raw, 'definition');
		const id = experimentId(def);
		openExperiment(id, def, null, home);
		const progress = { id, state: 'running' as const, pid: process.pid, started: '', updated: '', stepsDone: 0, stepsTotal: 5, etaSeconds: null, jobs: [] };
		writeProgress(id, progress, home);
		await expect(startExperiment(raw, home)).rejects.toThrow(/already running/);
		expect(experimentView(id, home).report.state).toBe('running');
		// a process id that is not alive: the experiment was interrupted
		writeProgress(id, { ...progress, pid: 2 ** 22 + 12345 }, home);
		expect(experimentView(id, home).progress?.state).toBe('interrupted');
		expect(experimentView(id, home).report.state).toBe('interrupted');
	});
});
