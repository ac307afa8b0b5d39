// The behaviour diff on real offline runs: identical twins, a fork with one template edited,
// a fork with an object set on fire (the offline agents change course), fail-safe counting on
// a doctored journal, memories of a run still being stepped, and the CLI's `diff --json`.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunDiff } from '../../api/diff';
import { LiveRun, openRun, startRun } from '../run/runner';
import { computeDiff } from './diff';
import { formatDiff } from './format';
import { JournalText } from './journal-text';
import { listBlocks, readLogLines } from '../journal/log';

const root = path.resolve(__dirname, '../../../..');
const home = mkdtempSync(path.join(tmpdir(), 'diff-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const ville = { world: 'the-ville-3', seed: 7, home, snapshotEvery: 50 };
const STEPS = 300;
let base = '';

beforeAll(async () => {
	base = (await startRun({ ...ville, steps: STEPS })).run;
}, 120_000);

/** Every lane covers the compared frames once, in order. */
function expectLanesCover(d: RunDiff): void {
	for (const ag of d.timeline.agents) {
		for (const lane of [ag.a, ag.b ?? ag.a]) {
			let next = d.timeline.from;
			for (const s of lane) {
				expect(s.from).toBe(next);
				expect(s.to).toBeGreaterThanOrEqual(s.from);
				next = s.to + 1;
			}
			expect(next - 1).toBe(d.timeline.to);
		}
	}
}

describe('journal text', () => {
	it('holds a log as Latin-1 chunks cut between lines, decodes UTF-8 and leaves out a torn last line', () => {
		const file = path.join(home, 'log.jsonl');
		writeFileSync(file, ['{"a":"☕ coffee"}', '{"b":1}', '', '{"c":"café"}'].join('\n') + '\n{"torn":');
		for (const chunk of [16, 1 << 20]) {
			const j = JournalText.read(file, chunk);
			expect(j.count).toBe(3);
			expect([0, 1, 2].map((i) => j.json(i))).toEqual([{ a: '☕ coffee' }, { b: 1 }, { c: 'café' }]);
			// offsets are byte offsets: the Latin-1 line has the UTF-8 line's length in bytes
			expect(j.line(0).length).toBe(Buffer.byteLength('{"a":"☕ coffee"}'));
			expect(j.line(1)).toBe('{"b":1}');
			expect(j.utf8(2, j.starts[2], j.ends[2])).toBe('{"c":"café"}');
		}
		expect(JournalText.read(path.join(home, 'missing.jsonl')).count).toBe(0);
	});
});

describe('behaviour diff', () => {
	it('two runs with the same seed and prompt set are identical', async () => {
		const twin = (await startRun({ ...ville, steps: STEPS })).run;
		const d = await computeDiff(base, twin, { home });
		expect(d.steps).toEqual({ start: 0, end: STEPS });
		expect(d.identical).toBe(true);
		expect(d.firstDivergence).toBeNull();
		expect(d.changes).toEqual([]);
		expect(d.agents.map((a) => a.id)).toEqual(['isabella-rodriguez', 'klaus-mueller', 'maria-lopez']);
		for (const a of d.agents) {
			expect(a.differingSteps).toBe(0);
			expect(a.firstDifferentStep).toBeNull();
			expect(a.a).toEqual(a.b);
			expect(a.a.placesVisited).toBeGreaterThan(0);
		}
		for (const t of d.timeline.agents) {
			expect(t.differs).toEqual([]);
			expect(t.b).toBeNull();
		}
		expect(d.timeline.agents.some((t) => t.a.length > 1)).toBe(true);
		expectLanesCover(d);
		expect(d.conversations.onlyATotal + d.conversations.onlyBTotal).toBe(0);
		expect(d.memories.step).toBe(STEPS);
		for (const m of d.memories.agents) {
			expect(m.onlyATotal + m.onlyBTotal).toBe(0);
			expect(m.a.total).toBe(m.b.total);
			expect(m.a.total).toBeGreaterThan(0);
		}
		// the seeded news: Isabella knows of her party from the start, in both runs
		const party = d.summary.facts.find((f) => f.id === 'valentines-party');
		expect(party?.a).toContain('isabella-rodriguez');
		expect(party?.a).toEqual(party?.b);
		expect(d.summary.a).toEqual(d.summary.b);
		// the creation's calls are compared too, and counted
		const calls = openRun(base, home).calls();
		expect(d.failsafe.reduce((n, r) => n + r.a.calls, 0)).toBe(calls.length);
		expect(d.failsafe.every((r) => r.a.calls === r.b.calls && r.a.failsafes === 0 && r.b.failsafes === 0)).toBe(true);

		// a run compared with itself has nothing to compare
		const self = await computeDiff(base, base, { home });
		expect(self.steps).toEqual({ start: STEPS, end: STEPS });
		expect(self.identical).toBe(true);
	}, 120_000);

	it('a fork with one template edited parts at the first call of that template after the fork', async () => {
		const prompts = path.join(home, 'edited-prompts');
		cpSync(path.join(openRun(base, home).dir, 'prompts'), prompts, { recursive: true });
		const file = path.join(prompts, 'importance.md');
		const text = readFileSync(file, 'utf8');
		const edited = text.replace('Rate each memory', 'Please rate each memory');
		expect(edited).not.toBe(text);
		writeFileSync(file, edited);
		const t = 100;
		const fork = (await startRun({ home, from: { run: base, step: t }, steps: STEPS - t, promptsDir: prompts })).run;
		const d = await computeDiff(base, fork, { home });
		expect(d.steps).toEqual({ start: t, end: STEPS });
		expect(d.changes).toContainEqual(expect.objectContaining({ kind: 'template', key: 'importance' }));
		expect(d.changes.filter((c) => c.kind === 'template')).toHaveLength(1);
		expect(d.changes).toContainEqual({ kind: 'parent', key: 'fork', a: null, b: `${base}@${t}` });
		expect(d.changes.some((c) => c.kind === 'prompt-set')).toBe(true);

		const f = d.firstDivergence;
		expect(f).not.toBeNull();
		expect(f?.reason).toBe('prompt');
		expect(f?.template).toBe('importance');
		expect(f?.step).toBeGreaterThanOrEqual(t);
		// the first importance call of the fork, as calls.jsonl has it, and the parent's at the same key
		const first = openRun(fork, home)
			.calls()
			.find((c) => c.s >= t && c.template === 'importance');
		expect(first).toBeDefined();
		expect(f?.callId).toBe(first?.key);
		expect(f?.step).toBe(first?.s);
		expect(f?.agent).toBe(first?.agent);
		expect(f?.b?.prompt).toBe(first?.prompt);
		expect(f?.b?.prompt).toContain('Please rate each memory');
		const parentCall = openRun(base, home)
			.calls()
			.find((c) => c.key === first?.key);
		expect(f?.a?.prompt).toBe(parentCall?.prompt);
		// the offline stand-in answers from the variables, not the wording: nobody behaves differently
		expect(f?.a?.answer).toBe(f?.b?.answer);
		expect(d.agents.every((a) => a.differingSteps === 0)).toBe(true);
		expect(d.memories.agents.every((m) => m.onlyATotal === 0 && m.onlyBTotal === 0)).toBe(true);
		expectLanesCover(d);
		expect(d.verdict.kind).toBe('same-behaviour');
		expect(d.differences.map((x) => x.kind)).toEqual(['calls']);
		expect(formatDiff(d)).toContain(`first divergence: step ${f?.step}, call ${f?.callId} (importance): the prompt differs`);
	}, 120_000);

	it('a fork with a garden set on fire changes where agents go (Smallville)', async () => {
		// At step 100 Ayesha Khan and Wolfgang Schulz work at the vegetable patch: both see the fire,
		// remember it (importance 9) and bring it up, so later talks and plans change course.
		const steps = 900;
		// the fast profile: a reaction is decided four game minutes after it is noticed
		const town = (await startRun({ world: 'smallville', seed: 1, home, steps, snapshotEvery: 100, profile: 'fast' })).run;
		const t = 100;
		const input = { type: 'set-object' as const, address: 'Johnson Park:garden:vegetable patch', state: 'on fire' };
		const fork = (await startRun({ home, from: { run: town, step: t }, steps: steps - t, inputs: [input] })).run;
		const d = await computeDiff(town, fork, { home });
		expect(d.steps).toEqual({ start: t, end: steps });
		// Ayesha sees the fire in the step it starts: no call yet (the new observation waits for its
		// batched rating, the reaction is decided four game minutes later), but the state differs
		expect(d.firstDivergence).toMatchObject({ step: t, frame: t + 1, reason: 'state' });
		// the decision about the fire is asked only in the fork, once its game time is over
		const onFire = (run: string) => openRun(run, home).calls().filter((c) => c.template === 'react' && JSON.stringify(c).includes('vegetable patch is on fire'));
		expect(onFire(fork).length).toBeGreaterThan(0);
		expect(Math.min(...onFire(fork).map((c) => c.s))).toBeGreaterThanOrEqual(t + 24);
		expect(onFire(town)).toEqual([]);
		expect(d.changes).toContainEqual({ kind: 'input', key: String(t), a: null, b: 'Johnson Park:garden:vegetable patch set to "on fire"' });
		const moved = d.agents.filter((a) => a.differingSteps > 0);
		expect(moved.length).toBeGreaterThan(0);
		expect(d.verdict).toMatchObject({ kind: 'behaviour', title: 'Behaviour differs' });
		expect(d.differences.find((x) => x.kind === 'moves')?.agents).toEqual(moved.map((a) => a.id));
		for (const a of moved) {
			const lanes = d.timeline.agents.find((x) => x.id === a.id);
			expect(lanes?.differs[0][0]).toBe(a.firstDifferentStep);
			expect(lanes?.differs.reduce((n, [x, y]) => n + y - x + 1, 0)).toBe(a.differingSteps);
		}
		expectLanesCover(d);
		expect(d.timeline.agents.some((x) => x.b !== null)).toBe(true);
		const saw = d.memories.agents.filter((m) => m.onlyB.some((x) => x.kind === 'observation' && x.description === 'vegetable patch is on fire'));
		expect(saw.map((m) => m.id)).toEqual(expect.arrayContaining(['ayesha-khan']));
		expect(d.memories.agents.every((m) => m.onlyA.every((x) => x.description !== 'vegetable patch is on fire'))).toBe(true);
	}, 600_000);

	it('counts fail-safe answers per template (a journal whose importance answers were unreadable)', async () => {
		const src = openRun(base, home).dir;
		const id = `${base}-failsafe`;
		const dir = path.join(home, 'runs', id);
		cpSync(src, dir, { recursive: true });
		const meta = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8'));
		writeFileSync(path.join(dir, 'run.json'), JSON.stringify({ ...meta, id }));
		let changed = 0;
		let firstKey = '';
		// the calls log rewritten as one plain tail (how runs before sealed blocks kept it)
		const lines = readLogLines(dir, 'calls').map((l) => {
			const c = JSON.parse(l);
			if (c.template !== 'importance' || c.s < 50) return l;
			changed++;
			firstKey ||= c.key;
			return JSON.stringify({ ...c, answer: 'I would rather not rate these.', value: c.value, failsafe: true });
		});
		for (const block of listBlocks(dir, 'calls')) rmSync(block.file);
		writeFileSync(path.join(dir, 'calls.jsonl'), lines.join('\n') + '\n');
		expect(changed).toBeGreaterThan(0);

		const d = await computeDiff(base, id, { home });
		const row = d.failsafe.find((r) => r.template === 'importance');
		expect(row?.a.failsafes).toBe(0);
		expect(row?.b.failsafes).toBe(changed);
		expect(row?.b.calls).toBe(row?.a.calls);
		expect(row?.b.rate).toBeCloseTo(changed / (row?.b.calls ?? 1), 10);
		expect(d.failsafe.filter((r) => r.template !== 'importance').every((r) => r.a.failsafes === 0 && r.b.failsafes === 0)).toBe(true);
		expect(d.firstDivergence).toMatchObject({ reason: 'answer', template: 'importance', callId: firstKey });
		expect(d.firstDivergence?.a?.failsafe).toBe(false);
		expect(d.firstDivergence?.b).toMatchObject({ failsafe: true, answer: 'I would rather not rate these.' });
		expect(d.firstDivergence?.a?.prompt).toBe(d.firstDivergence?.b?.prompt);
		expect(formatDiff(d)).toMatch(new RegExp(`importance\\s+A 0/\\d+ \\(0.0%\\)\\s+B ${changed}/`));
	}, 60_000);

	it('compares memories as of the latest frame both stores hold in full', async () => {
		// a run being stepped stores its memories with its snapshots: none since its first yet
		const live = await LiveRun.start({ ...ville, steps: 200, snapshotEvery: 1000 });
		try {
			for (let i = 0; i < 150; i++) await live.advance();
			const d = await computeDiff(base, live.meta.id, { home });
			expect(d.steps).toEqual({ start: 0, end: 150 });
			expect(d.identical).toBe(true);
			expect(d.memories.step).toBe(0);
			expect(d.memories.source).toContain(`${live.meta.id}'s store holds its streams up to frame 0 only`);
			// at frame 0 the streams are the seed memories, the same in both
			expect(d.memories.agents.every((m) => m.a.total === m.b.total && m.onlyATotal === 0 && m.onlyBTotal === 0)).toBe(true);
			const seeds = openRun(base, home).snapshot(0).memory;
			expect(d.memories.agents.map((m) => m.a.total)).toEqual(d.agents.map((a) => seeds[a.id].size));
		} finally {
			await live.close();
		}
		const after = await computeDiff(base, live.meta.id, { home });
		expect(after.memories.step).toBe(150);
		expect(after.memories.agents.every((m) => m.onlyATotal === 0 && m.onlyBTotal === 0)).toBe(true);
		expect(after.summary.a.memories).toBeGreaterThan(d0Memories(after));
	}, 120_000);

	it('refuses runs that do not exist or hold other agents', async () => {
		await expect(computeDiff(base, 'no-such-run', { home })).rejects.toThrow(/^no run "no-such-run"$/);
		await expect(computeDiff(base, '../etc', { home })).rejects.toThrow(/^no run /);
		const other = (await startRun({ world: 'smallville', seed: 1, home, steps: 2 })).run;
		await expect(computeDiff(base, other, { home })).rejects.toThrow(/different agents/);
	}, 120_000);

	it('the CLI prints the same RunDiff with --json', async () => {
		const twin = (await startRun({ ...ville, steps: 120 })).run;
		const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), 'diff', base, twin, '--json'], {
			cwd: root,
			env: { ...process.env, SIMULACRA_HOME: home },
			encoding: 'utf8'
		});
		expect(r.stderr).not.toMatch(/\n\s+at /);
		expect(r.status).toBe(0);
		const printed = JSON.parse(r.stdout) as RunDiff;
		expect(printed).toEqual(JSON.parse(JSON.stringify(await computeDiff(base, twin, { home }))));
		expect(printed.steps).toEqual({ start: 0, end: 120 });
		expect(printed.identical).toBe(true);
	}, 120_000);
});

/** Memories of the seeds alone (frame 0): the sum of the first snapshot's stream sizes. */
function d0Memories(d: RunDiff): number {
	const seeds = openRun(d.a.id, home).snapshot(0).memory;
	return Object.values(seeds).reduce((n, m) => n + m.size, 0);
}
