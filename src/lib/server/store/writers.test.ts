// One writer per run, with real processes: two `resume`s at once, the IDE and the CLI on one
// run, and a run killed again and again (creation and snapshots included) that still ends
// byte for byte as a run never killed.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunManager } from '../ide/manager';
import { RequestError } from '../errors';
import { listRuns, loadState, startRun, stateHash } from '../run/runner';
import { readLogBytes, readLogLines, tornTail } from '../journal/log';
import { checkRun } from './upkeep';

const ROOT = path.resolve(__dirname, '../../../..');
const CLI = path.join(ROOT, 'src/cli/main.ts');
const homes: string[] = [];
afterAll(() => {
	for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function newHome(): string {
	const h = mkdtempSync(path.join(tmpdir(), 'writers-'));
	homes.push(h);
	return h;
}

interface Done {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

function cli(home: string, args: string[]): { child: ChildProcess; done: Promise<Done> } {
	const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
		cwd: ROOT,
		env: { ...process.env, SIMULACRA_HOME: home, NODE_OPTIONS: '' },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let stdout = '';
	let stderr = '';
	child.stdout?.on('data', (d) => (stdout += d));
	child.stderr?.on('data', (d) => (stderr += d));
	const done = new Promise<Done>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
	return { child, done };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function runIds(home: string): string[] {
	const dir = path.join(home, 'runs');
	return existsSync(dir) ? readdirSync(dir).filter((f) => existsSync(path.join(dir, f, 'run.json'))) : [];
}

/** The committed steps log (whole lines, sealed blocks decompressed), as log.ts reads it. */
function committedText(home: string, id: string): string {
	return readLogBytes(path.join(home, 'runs', id), 'steps').toString('latin1');
}

/** Lines in the steps log so far. */
const stepCount = (home: string, id: string) => readLogLines(path.join(home, 'runs', id), 'steps').length;

async function until(test: () => boolean, ms: number): Promise<void> {
	const end = Date.now() + ms;
	while (!test()) {
		if (Date.now() > end) throw new Error('timed out');
		await sleep(50);
	}
}

const WORLD = ['--world', 'the-ville-3', '--seed', '5'];

/** A run killed (SIGKILL) once it has committed `after` steps. */
async function killedRun(home: string, steps: number, after: number): Promise<string> {
	const p = cli(home, ['run', ...WORLD, '--steps', String(steps)]);
	await until(() => runIds(home).length === 1 && stepCount(home, runIds(home)[0]) >= after, 120_000);
	p.child.kill('SIGKILL');
	await p.done;
	return runIds(home)[0];
}

const HOLDER = (who: 'CLI' | 'IDE', pid = '\\d+') => new RegExp(`is being written by the ${who} \\(pid ${pid}, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)`);

describe('one writer per run (real processes)', () => {
	const STEPS = 3000;
	const refHome = newHome();
	let reference: Promise<{ steps: string; hash: string }> | null = null;
	/** the same run, never interrupted */
	const ref = () =>
		(reference ??= startRun({ ...{ world: 'the-ville-3', seed: 5 }, steps: STEPS, home: refHome }).then((s) => ({ steps: committedText(refHome, s.run), hash: s.stateHash })));

	it('two resumes at once: one proceeds, the other is refused naming the holder; the log is as if never killed', async () => {
		const home = newHome();
		const id = await killedRun(home, STEPS, 30);
		expect(listRuns(home)[0].status).toBe('interrupted');
		const a = cli(home, ['resume', id]);
		const b = cli(home, ['resume', id]);
		const [ra, rb] = await Promise.all([a.done, b.done]);
		const codes = [ra.code, rb.code].sort();
		expect(codes[0]).toBe(0);
		expect(codes[1]).not.toBe(0);
		const refused = ra.code === 0 ? rb : ra;
		const winner = ra.code === 0 ? a : b;
		expect(refused.stderr).toMatch(HOLDER('CLI', String(winner.child.pid)));
		expect(refused.stderr).not.toMatch(/\n\s+at /);
		expect(committedText(home, id)).toBe((await ref()).steps);
		expect(tornTail(path.join(home, 'runs', id), 'steps')).toBe(0);
		expect((await checkRun(id, home)).problems).toEqual([]);
		expect(listRuns(home)[0].status).toBe('done');
	}, 300_000);

	it('the IDE stepping a run and the CLI resuming it are refused the same way', async () => {
		const home = newHome();
		const manager = new RunManager({ home, idleCloseMs: 600_000 });
		try {
			const { id } = await manager.start({ world: 'the-ville-3', steps: 600, seed: 5, paused: true });
			await manager.control(id, { action: 'step' });
			// the IDE holds the run: the CLI is refused, naming the IDE's process
			const r = await cli(home, ['resume', id]).done;
			expect(r.code).toBe(1);
			expect(r.stderr).toMatch(HOLDER('IDE', String(process.pid)));
			expect(r.stderr).toMatch(/one writer at a time/);
			await manager.shutdown();

			// the CLI holds it: the IDE is refused (409), naming the CLI's process
			const c = cli(home, ['resume', id]);
			await until(() => existsSync(path.join(home, 'runs', id, 'writer.lock')) && stepCount(home, id) > 20, 120_000);
			const ide = new RunManager({ home });
			let refused: unknown;
			try {
				await ide.control(id, { action: 'step' });
			} catch (e) {
				refused = e;
			}
			expect(refused).toBeInstanceOf(RequestError);
			expect((refused as RequestError).status).toBe(409);
			expect((refused as Error).message).toMatch(HOLDER('CLI', String(c.child.pid)));
			expect(ide.queries.list().find((l) => l.id === id)?.status).toBe('running');
			expect((await c.done).code).toBe(0);
			expect(ide.queries.list().find((l) => l.id === id)?.status).toBe('done');
			await ide.shutdown();
			const lines = (await ref()).steps.split('\n');
			expect(committedText(home, id)).toBe(lines.slice(0, 600).join('\n') + '\n');
		} finally {
			await manager.shutdown();
		}
	}, 300_000);

	it('killed at random moments (creation, snapshots and seals included): nothing committed is lost, it ends as if never killed', async () => {
		const kills = Number(process.env.KILL_LOOP_KILLS ?? 20);
		const home = newHome();
		let id: string | null = null;
		let kept = '';
		let incomplete = 0;
		const kinds = { creation: 0, snapshot: 0, seal: 0, random: 0 };
		let seed = 12345;
		const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
		let landed = 0;
		// until that many kills have landed (a resume may finish the run before a late kill lands)
		for (let k = 0; landed < kills && k < kills * 3; k++) {
			if (id && listRuns(home).find((r) => r.id === id)?.status === 'incomplete') {
				// killed before its first snapshot: marked so, with nothing to resume; removed
				incomplete++;
				const check = await checkRun(id, home);
				expect(check.problems.map((p) => p.what).join('\n')).toMatch(/before its first snapshot/);
				const rm = await cli(home, ['runs', 'rm', id]).done;
				expect(rm.code).toBe(0);
				id = null;
			}
			const p = id ? cli(home, ['resume', id]) : cli(home, ['run', ...WORLD, '--steps', String(STEPS)]);
			// in turn: as the run is made (or reopened), while a snapshot is written, while the logs
			// are sealed into a block, at any moment
			const kind = (['creation', 'snapshot', 'seal', 'random'] as const)[k % 4];
			const folder = () => (id ?? runIds(home)[0]) && path.join(home, 'runs', id ?? runIds(home)[0]);
			const exited = () => p.child.exitCode !== null;
			if (kind === 'creation') {
				await until(() => exited() || (!!folder() && existsSync(path.join(folder() as string, 'writer.lock'))), 120_000);
				await sleep(random() * 400);
			} else if (kind === 'snapshot' || kind === 'seal') {
				const sub = kind === 'snapshot' ? 'snapshots' : 'logs';
				await until(() => exited() || (!!folder() && existsSync(path.join(folder() as string, sub))), 120_000);
				// killed on the first file event of a snapshot (or a log block) being written
				await new Promise<void>((resolve) => {
					if (exited()) return resolve();
					const w = watch(path.join(folder() as string, sub), () => {
						p.child.kill('SIGKILL');
						w.close();
						resolve();
					});
					p.child.on('exit', () => {
						w.close();
						resolve();
					});
				});
			} else {
				await until(() => exited() || (!!folder() && existsSync(path.join(folder() as string, 'writer.lock'))), 120_000);
				await sleep(random() * 1500);
			}
			p.child.kill('SIGKILL');
			const end = await p.done;
			kinds[kind] += end.signal === 'SIGKILL' ? 1 : 0;
			landed += end.signal === 'SIGKILL' ? 1 : 0;
			id ??= runIds(home)[0] ?? null;
			if (!id) continue;
			const now = committedText(home, id);
			// every step committed before stays, byte for byte
			expect(now.startsWith(kept)).toBe(true);
			kept = now;
			const status = listRuns(home).find((r) => r.id === id)?.status;
			expect(['interrupted', 'incomplete', 'done']).toContain(status);
		}
		for (let tries = 0; ; tries++) {
			if (id && listRuns(home).find((r) => r.id === id)?.status === 'incomplete') {
				expect((await cli(home, ['runs', 'rm', id]).done).code).toBe(0);
				id = null;
			}
			const r = await (id ? cli(home, ['resume', id]) : cli(home, ['run', ...WORLD, '--steps', String(STEPS)])).done;
			expect(r.stderr).not.toMatch(/\n\s+at /);
			id ??= runIds(home)[0];
			if (r.code === 0) break;
			expect(tries).toBeLessThan(2);
		}
		expect(committedText(home, id as string)).toBe((await ref()).steps);
		const { sim } = await loadState(id as string, STEPS, { home });
		expect(stateHash(sim)).toBe((await ref()).hash);
		expect((await checkRun(id as string, home)).problems).toEqual([]);
		// the kills that landed, by moment, and how many left a run that had to be made again
		expect(landed).toBe(kills);
		for (const n of Object.values(kinds)) expect(n).toBeGreaterThan(0);
		console.info(`kill loop: ${JSON.stringify(kinds)} SIGKILLs, ${incomplete} run(s) killed before their first snapshot`);
	}, 3_600_000);
});
