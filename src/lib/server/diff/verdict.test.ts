// The diff's one verdict and its kinds of difference, on real offline runs: identical twins; a
// weights-only fork of Smallville whose prompts differ while nobody acts differently (the pair a
// user found the header calling "Behaviour differs"); a weights-only fork whose reflections differ
// while nobody moves differently (where "Next difference" had nowhere to go); and an inner-voice
// fork whose first differing call is another template, not another version of one.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BEHAVIOUR_KINDS, type DifferenceKind, type RunDiff } from '../../api/diff';
import type { StepEvent } from '../../engine/state';
import { readLogLines } from '../journal/log';
import { openRun, startRun } from '../run/runner';
import { computeDiff } from './diff';
import { formatDiff } from './format';

const home = mkdtempSync(path.join(tmpdir(), 'verdict-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const kinds = (d: RunDiff): DifferenceKind[] => d.differences.map((x) => x.kind);
const framesOf = (d: RunDiff, kind: DifferenceKind) => d.differences.find((x) => x.kind === kind)?.frames ?? [];
const within = (frames: [number, number][], frame: number) => frames.some(([a, b]) => frame >= a && frame <= b);

/**
 * What each agent's lane says agrees with its counts and with the lists: an agent with no
 * difference of any kind (the lane's "the same in both runs") visited as many places, talked and
 * reflected as often, and holds the same memories in both runs; an agent whose counts differ
 * names that kind.
 */
function expectLanesAgree(d: RunDiff): void {
	for (const ag of d.agents) {
		const mine = ag.differences.map((x) => x.kind);
		const memories = d.memories.agents.find((m) => m.id === ag.id);
		if (ag.differingSteps > 0) expect(mine).toContain('moves');
		if (ag.a.reflections !== ag.b.reflections) expect(mine, ag.id).toContain('reflections');
		if (ag.a.conversations !== ag.b.conversations) expect(mine, ag.id).toContain('conversations');
		if ((memories?.reflections.onlyATotal ?? 0) + (memories?.reflections.onlyBTotal ?? 0) > 0) expect(mine, ag.id).toContain('reflections');
		if ((memories?.onlyATotal ?? 0) + (memories?.onlyBTotal ?? 0) > 0) expect(mine.some((k) => k === 'memories' || k === 'reflections'), ag.id).toBe(true);
		if (mine.length === 0) {
			expect(ag.differingSteps).toBe(0);
			expect(ag.a).toEqual(ag.b);
			expect((memories?.onlyATotal ?? 0) + (memories?.onlyBTotal ?? 0)).toBe(0);
		}
		for (const x of ag.differences) {
			expect(x.count, `${ag.id} ${x.kind}`).toBeGreaterThan(0);
			expect(within(framesOf(d, x.kind), x.first)).toBe(true);
		}
	}
	// the town's kinds are the union of the agents' (every kind found concerns someone)
	for (const x of d.differences) {
		expect(x.agents.length).toBeGreaterThan(0);
		expect(x.frames.length).toBeGreaterThan(0);
		for (const [a, b] of x.frames) {
			expect(a).toBeGreaterThanOrEqual(d.timeline.from);
			expect(b).toBeLessThanOrEqual(d.steps.end);
		}
	}
}

/** Per step and agent, the reflection memories of each run's commit lines. */
function reflectionEvents(run: string): Map<string, string> {
	const out = new Map<string, string>();
	for (const line of readLogLines(openRun(run, home).dir, 'steps')) {
		const c = JSON.parse(line) as { step: number; events: StepEvent[] };
		for (const e of c.events) if (e.kind === 'reflection') out.set(`${c.step}|${e.agent}`, e.memories.join(','));
	}
	return out;
}

describe('the verdict of a diff', () => {
	it('identical twins: "Identical", no kind of difference, every lane the same in both runs', async () => {
		const twins = { world: 'the-ville-3', seed: 7, home, steps: 200 };
		const a = (await startRun(twins)).run;
		const b = (await startRun(twins)).run;
		const d = await computeDiff(a, b, { home });
		expect(d.verdict).toEqual({ kind: 'identical', title: 'Identical', detail: 'No model call and no recorded step differs over frames 0–200.' });
		expect(d.identical).toBe(true);
		expect(d.differences).toEqual([]);
		expect(d.agents.every((ag) => ag.differences.length === 0)).toBe(true);
		expectLanesAgree(d);
		expect(formatDiff(d)).toContain('verdict: Identical. No model call and no recorded step differs over frames 0–200.');
	}, 120_000);

	it('a weights-only fork of Smallville whose prompts differ and nobody acts differently: "Same behaviour, different model calls"', async () => {
		// the reported pair: Smallville seed 1, 200 steps, forked at step 100 with retrieval.weights.relevance=3
		const base = (await startRun({ world: 'smallville', seed: 1, home, steps: 200 })).run;
		const fork = (await startRun({ home, from: { run: base, step: 100 }, steps: 100, set: ['retrieval.weights.relevance=3'] })).run;
		const d = await computeDiff(base, fork, { home });
		// the page's own figures: nobody moves differently, the summaries and memories are the same
		expect(d.agents.every((ag) => ag.differingSteps === 0)).toBe(true);
		expect(d.summary.a).toEqual(d.summary.b);
		expect(d.memories.agents.every((m) => m.onlyATotal + m.onlyBTotal === 0)).toBe(true);
		expect(d.conversations.onlyATotal + d.conversations.onlyBTotal).toBe(0);
		expect(d.firstDivergence).toMatchObject({ reason: 'prompt' });

		expect(d.identical).toBe(false);
		expect(d.verdict.kind).toBe('same-behaviour');
		expect(d.verdict.title).toBe('Same behaviour, different model calls');
		expect(d.verdict.detail).toMatch(/^No agent moves or acts differently, and no conversation, memory or reflection differs; \d+ model calls? differs? \(prompt, answer or template\), the first at step \d+\.$/);
		expect(kinds(d)).toEqual(['calls']);
		expect(kinds(d).some((k) => BEHAVIOUR_KINDS.includes(k))).toBe(false);
		// the calls start where the first divergence shows, and are somewhere to step to
		expect(framesOf(d, 'calls')[0][0]).toBe(d.firstDivergence?.frame);
		const calls = d.differences[0];
		expect(d.agents.filter((ag) => ag.differences.length > 0).map((ag) => ag.id)).toEqual(calls.agents);
		expect(d.agents.reduce((n, ag) => n + (ag.differences.find((x) => x.kind === 'calls')?.count ?? 0), 0)).toBe(calls.count);
		expectLanesAgree(d);
		const text = formatDiff(d);
		expect(text).toContain('verdict: Same behaviour, different model calls.');
		expect(text).not.toContain('Behaviour differs');
	}, 120_000);

	it('a weights-only fork whose reflections differ while nobody moves differently: "Behaviour differs", with the reflections to step to', async () => {
		// reflections come early with a low threshold; without relevance, retrieval picks other evidence
		const base = (await startRun({ world: 'smallville', seed: 1, home, steps: 500, set: ['reflection.threshold=40'] })).run;
		const fork = (await startRun({ home, from: { run: base, step: 100 }, steps: 400, set: ['retrieval.weights.relevance=0'] })).run;
		const d = await computeDiff(base, fork, { home });
		expect(d.agents.every((ag) => ag.differingSteps === 0)).toBe(true);
		expect(d.summary.a.reflections).not.toBe(d.summary.b.reflections);

		expect(d.verdict.kind).toBe('behaviour');
		expect(d.verdict.title).toBe('Behaviour differs');
		expect(kinds(d)).not.toContain('moves');
		expect(kinds(d)).toContain('reflections');
		const reflections = d.differences.find((x) => x.kind === 'reflections');
		const n = reflections?.count ?? 0;
		expect(d.verdict.detail).toContain(n === 1 ? '1 reflection differs' : `${n} reflections differ`);
		// every step at which the commit lines record another reflection is a place to step to
		const ea = reflectionEvents(base);
		const eb = reflectionEvents(fork);
		const differing = [...new Set([...ea.keys(), ...eb.keys()])].filter((k) => Number(k.split('|')[0]) >= 100 && ea.get(k) !== eb.get(k));
		expect(differing.length).toBeGreaterThan(0);
		for (const k of differing) {
			const [step, agent] = k.split('|');
			expect(within(reflections?.frames ?? [], Number(step) + 1), k).toBe(true);
			expect(d.agents.find((ag) => ag.id === agent)?.differences.map((x) => x.kind)).toContain('reflections');
		}
		// an agent that reflected more often in one run says so, though it moves the same
		const more = d.agents.filter((ag) => ag.a.reflections !== ag.b.reflections);
		expect(more.length).toBeGreaterThan(0);
		for (const ag of more) expect(ag.differences.find((x) => x.kind === 'reflections')?.first).toBeGreaterThan(100);
		expectLanesAgree(d);
		expect(formatDiff(d)).toMatch(/verdict: Behaviour differs\. .*\d+ reflections? differs?/);
	}, 180_000);

	it('an inner-voice fork: the first differing call is another template ("different calls"), and behaviour differs', async () => {
		// at step 180 Klaus's first call decomposes his next hour; the fork's is the whisper's inner voice
		const base = (await startRun({ world: 'the-ville-3', seed: 7, home, steps: 240 })).run;
		const at = openRun(base, home)
			.calls()
			.find((c) => c.key === '180/klaus-mueller/0');
		expect(at?.template).toBe('decompose_task');
		const fork = (
			await startRun({ home, from: { run: base, step: 180 }, steps: 60, inputs: [{ type: 'whisper', agent: 'klaus-mueller', text: 'You should visit the cafe' }] })
		).run;
		const d = await computeDiff(base, fork, { home });
		const f = d.firstDivergence;
		expect(f).toMatchObject({ step: 180, reason: 'call', agent: 'klaus-mueller', callId: '180/klaus-mueller/0', template: null });
		expect(f?.a?.template).toBe('decompose_task');
		expect(f?.b?.template).toBe('inner_voice');
		expect(formatDiff(d)).toContain('first divergence: step 180, call 180/klaus-mueller/0: different calls were made (A decompose_task, B inner_voice)');

		expect(d.verdict.kind).toBe('behaviour');
		expect(d.verdict.detail).toMatch(/^1 agent of 3 moves or acts differently; \d+ memories differ; \d+ model calls differ/);
		expect(kinds(d)).toEqual(['moves', 'memories', 'calls']);
		const klaus = d.agents.find((ag) => ag.id === 'klaus-mueller');
		expect(klaus?.differences.map((x) => x.kind)).toEqual(['moves', 'memories', 'calls']);
		expect(klaus?.differences[0]).toEqual({ kind: 'moves', count: klaus?.differingSteps, first: klaus?.firstDifferentStep });
		expectLanesAgree(d);
	}, 120_000);
});
