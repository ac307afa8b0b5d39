// The whole architecture over two game days of the default town, offline: every agent
// observes, plans at three levels, talks and reflects; the scenario's news spreads through
// conversations, with no code that knows the news.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../engine/memory';
import { loadWorld } from '../world/load';
import { loadState, openRun, startRun } from './runner';

const home = mkdtempSync(path.join(tmpdir(), 'acceptance-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const TWO_DAYS = 2 * 8640;

describe('two game days of Smallville, offline', () => {
	it('shows the architecture at work and spreads the seeded news through conversations', async () => {
		const { def: world } = await loadWorld('smallville');
		const summary = await startRun({ world: 'smallville', steps: TWO_DAYS, seed: 1, home });
		expect(summary.steps).toBe(TWO_DAYS);
		const { sim } = await loadState(summary.run, TWO_DAYS, { home });
		const reader = openRun(summary.run, home);
		const conversations = reader.steps().flatMap((l) => l.conversations);
		expect(conversations.length).toBeGreaterThan(25);

		for (const agent of sim.state.agents) {
			const records = sim.stream(agent.id).records;
			const kinds = new Set(records.map((m) => m.kind));
			expect(kinds.has('observation'), agent.id).toBe(true);
			expect(kinds.has('conversation'), agent.id).toBe(true);
			// three levels of plans: the day, hour blocks, 5-15 minute steps
			const plans = records.filter((m) => m.kind === 'plan').map((m) => m.description);
			expect(plans.some((d) => /'s plan for /.test(d)), agent.id).toBe(true);
			expect(plans.some((d) => / from .* to /.test(d)), agent.id).toBe(true);
			expect(plans.some((d) => / at \d+:\d\d [ap]m on /.test(d)), agent.id).toBe(true);
			const reflections = records.filter((m) => m.kind === 'reflection');
			expect(reflections.length, agent.id).toBeGreaterThan(0);
			expect(reflections.some((r) => (r.evidence ?? []).length > 0), agent.id).toBe(true);
		}

		for (const fact of world.facts) {
			const mentions = (m: MemoryRecord) => fact.keywords.every((k) => m.description.toLowerCase().includes(k.toLowerCase()));
			const knewAtStart = sim.state.agents.filter((a) => sim.stream(a.id).records.some((m) => m.step === 0 && m.kind === 'thought' && mentions(m)));
			const knowsAtEnd = sim.state.agents.filter((a) => sim.stream(a.id).records.some(mentions));
			expect(knowsAtEnd.length, fact.id).toBeGreaterThan(knewAtStart.length);
			// every new knower first heard it in a conversation that the journal logged, or saw
			// another agent at it (a party under way, seen by someone who happened to be there)
			const names = world.personas.map((p) => p.name);
			for (const a of knowsAtEnd.filter((x) => !knewAtStart.includes(x))) {
				const first = sim.stream(a.id).records.find(mentions) as MemoryRecord;
				if (first.kind === 'observation') {
					expect(names.some((n) => n !== a.name && first.description.startsWith(`${n} is `)), `${a.id}: ${first.description}`).toBe(true);
					continue;
				}
				expect(['conversation', 'thought']).toContain(first.kind);
				expect(first.with, `${a.id}: ${first.description}`).toBeTruthy();
				const talked = conversations.some((c) => c.agents.includes(a.id) && c.agents.includes(first.with as string) && c.lines.some((l) => fact.keywords.some((k) => l.text.toLowerCase().includes(k.toLowerCase()))));
				expect(talked, `${a.id} heard "${fact.label}" from ${first.with}`).toBe(true);
			}
		}
	}, 900_000);
});
