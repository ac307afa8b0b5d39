// What a step changed: checked against the journal (commit lines, calls), the memory table and
// restored states, for a plain step, a conversation's begin and end, an inner voice; and the
// API route, which restores through the IDE's state cache and must answer the same.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepChange, StepChanges } from '../../api/changes';
import { MemoryStore } from '../memory/lance-store';
import { loadState, openRun, startRun } from '../run/runner';
import { objectStates } from './objects';
import { call, fails, ok } from '../ide/testing';
import { stepChanges } from './changes';
import { runQueries } from './queries';
import * as changesRoute from '../../../routes/api/runs/[id]/changes/+server';

const home = mkdtempSync(path.join(tmpdir(), 'changes-'));
process.env.SIMULACRA_HOME = home;
afterAll(() => {
	runQueries().release();
	rmSync(home, { recursive: true, force: true });
});

const of = <K extends StepChange['kind']>(c: StepChanges, kind: K) => c.changes.filter((x): x is Extract<StepChange, { kind: K }> => x.kind === kind);

describe('what a step changed', () => {
	let id = '';
	let talk: { id: string; step: number; endStep: number; lines: number };

	beforeAll(async () => {
		id = (await startRun({ world: 'the-ville-3', steps: 700, seed: 5, home })).run;
		const line = openRun(id, home)
			.steps()
			.find((l) => l.conversations.length > 0)!;
		const c = line.conversations[0];
		talk = { id: c.id, step: c.step, endStep: line.step, lines: c.lines.length };
	}, 120_000);

	it('every move, memory and model call of the step, as the journal and the memory table have them', async () => {
		const reader = openRun(id, home);
		const store = await MemoryStore.open(reader.dir, reader.meta.dimensions);
		const memories = await store.load();
		store.close();
		// the step that stored the most memories
		const perStep = new Map<number, number>();
		for (const m of memories) if (m.step > 0) perStep.set(m.step, (perStep.get(m.step) ?? 0) + 1);
		const s = [...perStep.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
		const n = s + 1;
		const c = await stepChanges(id, n, { home });
		expect(c.step).toBe(n);
		const [before, after] = reader.steps({ from: n - 2, to: n });
		const moved = after.agents.filter((a) => {
			const b = before.agents.find((x) => x.id === a.id)!;
			return a.x !== b.x || a.y !== b.y;
		});
		expect(of(c, 'move').map((m) => [m.agent, m.to])).toEqual(moved.map((a) => [a.id, [a.x, a.y]]));

		const made = memories.filter((m) => m.step === s);
		expect(made.length).toBeGreaterThan(1);
		const stored = [...of(c, 'memory'), ...of(c, 'reflection')];
		expect(stored.map((m) => m.id).sort()).toEqual(made.map((m) => m.id).sort());
		for (const m of stored) expect(m.importance).toBe(made.find((x) => x.id === m.id)!.importance);

		const calls = reader.calls({ from: s, to: n }).filter((x) => x.s === s);
		expect(calls.length).toBeGreaterThan(0);
		expect(of(c, 'call').map((x) => x.key)).toEqual(calls.map((x) => x.key));
		expect(c.counts.call).toBe(calls.length);

		// the conversation committed by a step ended, with its lines
		const end = await stepChanges(id, talk.endStep + 1, { home });
		expect(of(end, 'conversation')).toEqual([expect.objectContaining({ change: 'ended', id: talk.id, lines: talk.lines })]);
	}, 60_000);

	it("a conversation begun; object states and actions as the restored states have them", async () => {
		const c = await stepChanges(id, talk.step + 1, { home });
		expect(of(c, 'conversation')).toEqual([expect.objectContaining({ change: 'begun', id: talk.id })]);

		// a step with new actions (seen in the commit lines): each object change is the restored states' difference
		const lines = openRun(id, home).steps();
		const i = lines.findIndex((l, k) => k > 300 && l.agents.some((a, j) => a.activity !== lines[k - 1].agents[j].activity));
		const n = lines[i].step + 1;
		const d = await stepChanges(id, n, { home });
		const [a, b] = [(await loadState(id, n - 1, { home })).sim, (await loadState(id, n, { home })).sim];
		const before = new Map(objectStates(a).map((o) => [o.address, o.state]));
		const changed = objectStates(b).filter((o) => before.get(o.address) !== o.state);
		expect(of(d, 'object').map((o) => [o.address, o.from, o.to])).toEqual(changed.map((o) => [o.address, before.get(o.address), o.state]));
		const acted = b.state.agents.filter((x) => {
			const p = a.state.agents.find((y) => y.id === x.id)!;
			return p.action.activity !== x.action.activity || p.action.start !== x.action.start || p.action.address !== x.action.address;
		});
		expect(of(d, 'action').map((x) => x.agent)).toEqual(acted.map((x) => x.id));
		expect(changed.length + acted.length).toBeGreaterThan(0);
		expect(await stepChanges(id, 0, { home })).toMatchObject({ step: 0, changes: [] });
	}, 60_000);

	it('an inner voice: the input applied, the thought it left', async () => {
		const fork = (await startRun({ from: { run: id, step: 200 }, steps: 2, home, inputs: [{ type: 'whisper', agent: 'klaus-mueller', text: 'You want to bake a cake tonight.' }] })).run;
		const c = await stepChanges(fork, 201, { home });
		expect(of(c, 'input')).toEqual([expect.objectContaining({ agent: 'klaus-mueller' })]);
		const thought = of(c, 'memory').find((m) => m.agent === 'klaus-mueller' && m.source === 'inner-voice');
		expect(thought?.description).toMatch(/bake a cake/);
		// the step before the fork is its parent's: the same as the parent's answer
		expect(await stepChanges(fork, 200, { home })).toEqual({ ...(await stepChanges(id, 200, { home })), run: fork });
	}, 60_000);

	it('the API answers what the command line does, through the kept states; moves step by step as the commit lines have them', async () => {
		// the 20 steps in which the most agents walk
		const lines = openRun(id, home).steps();
		const movedAt = (k: number) => lines[k].agents.filter((a, j) => a.x !== lines[k - 1].agents[j].x || a.y !== lines[k - 1].agents[j].y).map((a) => a.id);
		const movers = (k: number) => new Set(Array.from({ length: 20 }, (_, i) => movedAt(k + i)).flat()).size;
		let first = 1;
		for (let k = 1; k + 20 < lines.length; k++) if (movers(k) > movers(first)) first = k;
		expect(movers(first)).toBeGreaterThan(1);
		for (let k = first; k < first + 20; k++) {
			const c = await ok<StepChanges>(call(changesRoute.GET, { id }, `step=${lines[k].step + 1}`));
			expect(of(c, 'move').map((m) => m.agent)).toEqual(movedAt(k));
		}
		const n = talk.endStep + 1;
		const fromApi = await ok<StepChanges>(call(changesRoute.GET, { id }, `step=${n}`));
		expect(fromApi).toEqual(JSON.parse(JSON.stringify(await stepChanges(id, n, { home }))));
		await fails(call(changesRoute.GET, { id }, 'step=99999'), 404, /not among them/);
		await fails(call(changesRoute.GET, { id }, 'step=x'), 400, /whole number/);
	}, 60_000);
});
