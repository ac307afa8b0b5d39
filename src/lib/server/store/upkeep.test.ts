import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, cpSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listRuns, loadState, resumeRun, startRun, stateHash } from '../run/runner';
import { lineageTraces } from '../run/traces';
import { listSnapshotSteps, readSnapshotFile, writeSnapshotFile } from '../journal/journal';
import { listBlocks, readLogText } from '../journal/log';
import { WriteLock } from '../journal/lock';
import { liveStatus, openRun, runLineage } from './store';
import { checkRun, removeRun } from './upkeep';
import { worldsDir } from '../paths';

const home = mkdtempSync(path.join(tmpdir(), 'upkeep-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const base = { world: 'the-ville-3', seed: 3, home, snapshotEvery: 10 };

describe('runs check', () => {
	it('a whole run is ok; a doubled commit line, a torn tail and a missing memory are each named with a repair', async () => {
		const a = await startRun({ ...base, steps: 30 });
		expect(await checkRun(a.run, home)).toMatchObject({ status: 'done', committed: 30, snapshots: 4, problems: [] });
		const dir = openRun(a.run, home).dir;
		const steps = path.join(dir, 'steps.jsonl');
		// the finished run's lines are all in sealed blocks (logs/), its tails empty
		expect(listBlocks(dir, 'steps').map((b) => `${b.from}-${b.to}`)).toEqual(['0-9', '10-19', '20-29']);
		expect(readFileSync(steps, 'utf8')).toBe('');
		const good = readLogText(dir, 'steps');
		const lines = good.split('\n');

		// a seal stopped between its block's rename and the tail's cut: lines in both
		writeFileSync(steps, lines.slice(20, 30).join('\n') + '\n');
		let c = await checkRun(a.run, home);
		expect(c.committed).toBe(30);
		expect(c.problems).toEqual([{ where: 'steps.jsonl', what: '10 line(s) repeat steps a block already holds (a seal was stopped before it cut the log)', repair: expect.stringMatching(/resum/) }]);
		writeFileSync(steps, '');

		// a block that does not decompress, and one a seal left half-written
		const block = listBlocks(dir, 'calls')[1].file;
		const sealed = readFileSync(block);
		writeFileSync(block, sealed.subarray(0, sealed.length >> 1));
		writeFileSync(path.join(dir, 'logs', 'traces.30-39.br.tmp'), 'half');
		c = await checkRun(a.run, home);
		expect(c.problems.map((p) => `${p.where}: ${p.what.replace(/\(.*/, '')}`)).toEqual([`logs/${path.basename(block)}: does not decompress `, 'logs/traces.30-39.br.tmp: is a block that was being written when the writer stopped']);
		expect(c.problems[0].repair).toMatch(new RegExp(`run --from ${a.run}@0`));
		writeFileSync(block, sealed);
		rmSync(path.join(dir, 'logs', 'traces.30-39.br.tmp'));

		// a run from before sealed blocks (plain logs): a second writer's lines, step 20 again after step 29
		for (const b of listBlocks(dir, 'steps')) rmSync(b.file);
		writeFileSync(steps, good);
		appendFileSync(steps, lines[20] + '\n');
		c = await checkRun(a.run, home);
		expect(c.problems).toHaveLength(1);
		expect(c.problems[0]).toMatchObject({ where: 'steps.jsonl' });
		expect(c.problems[0].what).toMatch(/line 31 is the commit line of step 20, not of step 30: steps were written twice/);
		expect(c.problems[0].repair).toMatch(new RegExp(`run --from ${a.run}@30`));

		// a torn tail: resume cuts it
		writeFileSync(steps, good + '{"step":30,"ti');
		c = await checkRun(a.run, home);
		expect(c.problems.map((p) => p.what)).toEqual(['ends in a torn line of 14 bytes after step 29 (a writer stopped mid-line)']);
		expect(c.problems[0].repair).toMatch(/resume/);
		writeFileSync(steps, good);

		// run.json says running but nobody writes it
		const meta = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8'));
		writeFileSync(path.join(dir, 'run.json'), JSON.stringify({ ...meta, status: 'running' }));
		expect(listRuns(home).find((r) => r.id === a.run)?.status).toBe('interrupted');
		c = await checkRun(a.run, home);
		expect(c.problems[0].what).toMatch(/says "running" but no process is writing the run: it was interrupted/);
		// ... while a live writer keeps it running
		const lock = WriteLock.acquire(dir, 'CLI');
		expect(liveStatus(dir, { ...meta, status: 'running' })).toBe('running');
		lock.release();
		writeFileSync(path.join(dir, 'run.json'), JSON.stringify(meta));

		// a snapshot that counts more memories than the store holds
		const snap = readSnapshotFile(dir, 30);
		const agent = Object.keys(snap.memory)[0];
		snap.memory[agent].size += 5;
		writeSnapshotFile(dir, snap);
		c = await checkRun(a.run, home);
		expect(c.problems.map((p) => p.what)).toEqual([expect.stringMatching(new RegExp(`${agent} has \\d+ stored memories but the snapshot of step 30 counts`))]);
	}, 120_000);
});

describe('runs rm', () => {
	it('refuses a run with forks or a live writer; removes the run folder whole', async () => {
		const a = await startRun({ ...base, steps: 20 });
		const fork = await startRun({ home, from: { run: a.run, step: 10 }, steps: 5 });
		expect(runLineage(fork.run, { home })).toEqual([
			{ run: a.run, from: 0, to: 10 },
			{ run: fork.run, from: 10, to: 15 }
		]);
		// a fork's traces: its parent's before the fork step, then its own
		expect(lineageTraces(fork.run, home).every((t) => (t.run === a.run ? t.step < 10 : t.step >= 10))).toBe(true);
		expect(() => removeRun(a.run, home)).toThrow(new RegExp(`has forks that read their earlier steps from it \\(${fork.run}\\)`));
		const dir = openRun(fork.run, home).dir;
		const lock = WriteLock.acquire(dir, 'IDE');
		expect(() => removeRun(fork.run, home)).toThrow(/is being written by the IDE/);
		lock.release();
		const removed = removeRun(fork.run, home);
		expect(removed.bytes).toBeGreaterThan(1000);
		expect(existsSync(dir)).toBe(false);
		expect(listRuns(home).map((r) => r.id)).not.toContain(fork.run);
		removeRun(a.run, home);
		expect(() => removeRun(a.run, home)).toThrow(/no run/);
		// a folder left by a process killed before it wrote run.json
		mkdirSync(path.join(home, 'runs', 'bare-run', 'snapshots'), { recursive: true });
		expect(removeRun('bare-run', home).run).toBe('bare-run');
		expect(existsSync(path.join(home, 'runs', 'bare-run'))).toBe(false);
	}, 120_000);
});

describe('crash-safe creation and confined copies', () => {
	it('a run whose creation was cut short is incomplete, cannot resume, and is removed', async () => {
		const a = await startRun({ ...base, steps: 5 });
		const dir = openRun(a.run, home).dir;
		// as if killed before the first snapshot was written
		const meta = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8'));
		writeFileSync(path.join(dir, 'run.json'), JSON.stringify({ ...meta, status: 'creating' }));
		rmSync(path.join(dir, 'snapshots'), { recursive: true });
		expect(listRuns(home).find((r) => r.id === a.run)?.status).toBe('incomplete');
		await expect(resumeRun(a.run, { home })).rejects.toThrow(/stopped while it was being created, before its first snapshot: it cannot be resumed; delete it with `runs rm/);
		expect((await checkRun(a.run, home)).problems.map((p) => p.what)).toEqual([expect.stringMatching(/before its first snapshot/)]);
		removeRun(a.run, home);
	}, 60_000);

	it('killed after its first snapshot but before it said running: resumes to the same state', async () => {
		const full = await startRun({ ...base, steps: 12 });
		const a = await startRun({ ...base, steps: 12 });
		const dir = openRun(a.run, home).dir;
		const meta = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8'));
		writeFileSync(path.join(dir, 'run.json'), JSON.stringify({ ...meta, status: 'creating' }));
		// the logs as the first snapshot left them: the creation's lines only
		writeFileSync(path.join(dir, 'steps.jsonl'), '');
		for (const log of ['steps', 'calls', 'traces'] as const) for (const b of listBlocks(dir, log)) if (b.to >= 0) rmSync(b.file);
		for (const s of [10, 12]) for (const f of [`${s}.json`, `${s}.json.br`]) rmSync(path.join(dir, 'snapshots', f), { force: true });
		expect(listSnapshotSteps(dir)).toEqual([0]);
		expect(listRuns(home).find((r) => r.id === a.run)?.status).toBe('interrupted');
		const resumed = await resumeRun(a.run, { home });
		expect(resumed.stateHash).toBe(full.stateHash);
		expect(stateHash((await loadState(a.run, 12, { home })).sim)).toBe(full.stateHash);
	}, 60_000);

	it('a world with a link out of its folder is refused, and no run is left', async () => {
		const worlds = mkdtempSync(path.join(tmpdir(), 'worlds-'));
		const world = path.join(worlds, 'leaky');
		cpSync(path.join(worldsDir(), 'the-ville-3'), world, { recursive: true });
		const secret = path.join(worlds, 'secret.txt');
		writeFileSync(secret, 'outside');
		mkdirSync(path.join(world, 'extra'), { recursive: true });
		symlinkSync(secret, path.join(world, 'extra', 'notes.txt'));
		try {
			const before = listRuns(home).length;
			await expect(startRun({ ...base, world, steps: 1 })).rejects.toThrow(/extra\/notes.txt is a link to a file outside the world folder/);
			expect(listRuns(home)).toHaveLength(before);
		} finally {
			rmSync(worlds, { recursive: true, force: true });
		}
	}, 60_000);
});
