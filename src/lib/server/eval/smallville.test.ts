// The paper's end-to-end scenario measured on two game days of Smallville, offline: the party and
// the election spread, the relationship network grows, the party is attended, and every agent
// counted as knowing is traced to memories it held at that step.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatIso } from '../../engine/clock';
import { mentionsAll } from '../../eval/classify';
import { loadState, openRun, startRun } from '../run/runner';
import { evaluateRun } from './metrics';

const home = mkdtempSync(path.join(tmpdir(), 'eval-smallville-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const TWO_DAYS = 2 * 8640;

describe('evaluating two game days of Smallville', () => {
	it('reports diffusion, density and attendance, every "knows" traced to memories', async () => {
		const summary = await startRun({ world: 'smallville', steps: TWO_DAYS, seed: 1, home });
		const report = await evaluateRun(summary.run, { home });
		console.log(`evaluation of ${TWO_DAYS} steps, 25 agents: ${JSON.stringify(report.timings)}`);
		expect(report.agents).toHaveLength(25);
		expect(report.samples).toHaveLength(49);

		const [party, election] = report.diffusion;
		expect(party.fact.id).toBe('valentines-party');
		expect(election.fact.id).toBe('mayor-election');
		expect(party.start).toEqual({ step: 0, knowers: 1, share: 0.04 });
		expect(election.start).toEqual({ step: 0, knowers: 1, share: 0.04 });
		expect(party.end.knowers).toBeGreaterThan(1);
		expect(election.end.knowers).toBeGreaterThan(1);
		expect(party.seedHolders).toEqual(['isabella-rodriguez']);
		expect(election.seedHolders).toEqual(['sam-moore']);

		// every knows-answer: supporting memories the agent held at that step, mentioning the fact
		const reader = openRun(summary.run, home);
		const { sim } = await loadState(summary.run, TWO_DAYS, { home });
		let checked = 0;
		for (const d of report.diffusion) {
			for (const at of d.answers) {
				const sizes = reader.snapshot(at.step).memory;
				for (const a of at.answers) {
					if (!a.knows) continue;
					expect(a.support.length, `${d.fact.id} ${a.agent} at ${at.step}`).toBeGreaterThan(0);
					expect(a.source).toBeDefined();
					for (const ref of [...a.support, a.source!.memory]) {
						const m = sim.stream(a.agent).records.find((r) => r.id === ref.id);
						expect(m, ref.id).toBeDefined();
						expect(m!.index).toBeLessThan(sizes[a.agent].size);
						expect(m!.description).toBe(ref.description);
						expect(mentionsAll(m!.description, d.fact.keywords)).toBe(true);
					}
					if (a.source!.conversation) {
						// the memory was made when the talk took effect and stored once rated: within 5 game
						// minutes (30 steps), or, when the agent was in another conversation by then (it
						// does not think while talking), when that one took effect (8 game minutes later)
						const made = sim.stream(a.agent).records.find((r) => r.id === a.source!.memory.id)!.created;
						expect(a.source!.conversation.time).toBe(formatIso(made));
						expect(a.source!.memory.step - a.source!.conversation.step).toBeGreaterThanOrEqual(0);
						expect(a.source!.memory.step - a.source!.conversation.step).toBeLessThanOrEqual(29 + 48);
						expect(a.source!.from).toBe(a.source!.conversation.with);
					}
					checked++;
				}
			}
		}
		expect(checked).toBeGreaterThan(49 * 2);

		const { start, end } = report.relationships;
		expect([start.step, end.step]).toEqual([0, TWO_DAYS]);
		expect(start.answers).toBe(600);
		expect(end.answers).toBe(600);
		expect(start.density).toBeGreaterThan(0);
		expect(end.density).toBeGreaterThan(start.density);
		expect(end.density).toBeLessThanOrEqual(1);
		expect(end.hallucinationRate).toBeGreaterThanOrEqual(0);
		expect(end.hallucinationRate).toBeLessThanOrEqual(1);

		const event = report.events.find((e) => e.fact === 'valentines-party')!;
		expect(event.status).toBe('complete');
		expect(event.counts.invited).toBeGreaterThan(0);
		expect(event.counts.attended).toBeGreaterThan(0);
		expect(event.hostPresent).not.toBeNull();
		expect(report.events.map((e) => e.fact)).toEqual(['valentines-party']);
	}, 900_000);
});
