import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyConfined } from './copy';
import { lineageSpans, spanOfState, spanOfStep, type LineageNode } from './lineage';
import { LOCK_FILE, RunLockedError, WriteLock, holderAlive, readLock, type LockInfo } from './lock';

const tmp = mkdtempSync(path.join(tmpdir(), 'store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function folder(): string {
	const dir = path.join(tmp, `d${n++}`);
	mkdirSync(dir, { recursive: true });
	return dir;
}

/** A pid that was alive a moment ago and is not any more. */
function deadPid(): number {
	const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
	return Number(r.stdout);
}

function lockOf(patch: Partial<LockInfo>): LockInfo {
	const mine = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
	return { holder: 'CLI', pid: process.pid, since: '2026-01-01T00:00:00.000Z', host: hostname(), boot: mine, start: null, nonce: 'x1', ...patch };
}

describe('writer lock', () => {
	it('one holder at a time; the refusal names it; release lets the next in', () => {
		const dir = folder();
		const a = WriteLock.acquire(dir, 'CLI', 'run-a');
		let refused: unknown;
		try {
			WriteLock.acquire(dir, 'IDE', 'run-a');
		} catch (e) {
			refused = e;
		}
		expect(refused).toBeInstanceOf(RunLockedError);
		expect((refused as Error).message).toMatch(new RegExp(`^run run-a is being written by the CLI \\(pid ${process.pid}, since ${a.info.since}\\)`));
		a.verify();
		a.release();
		expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
		const b = WriteLock.acquire(dir, 'IDE');
		expect(readLock(dir)?.holder).toBe('IDE');
		b.release();
	});

	it('takes over the lock of a killed holder, of a reboot and of a reused pid', () => {
		for (const stale of [lockOf({ pid: deadPid() }), lockOf({ boot: 'another-boot' }), lockOf({ pid: process.ppid, start: '1' })]) {
			const dir = folder();
			writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(stale));
			expect(holderAlive(stale)).toBe(false);
			const l = WriteLock.acquire(dir, 'CLI');
			expect(readLock(dir)?.nonce).toBe(l.info.nonce);
			l.release();
		}
		// a lock that is not one (torn by hand) is replaced too
		const dir = folder();
		writeFileSync(path.join(dir, LOCK_FILE), '{"pid":');
		WriteLock.acquire(dir, 'CLI').release();
	});

	it('a killed holder that nobody has reaped yet (a zombie) is gone', async () => {
		// sleep 0 exits and stays a zombie: its parent becomes `sleep 2`, which never reaps it
		const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 2'], { stdio: ['ignore', 'pipe', 'ignore'] });
		const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
		try {
			let state = '';
			for (let i = 0; i < 50 && state !== 'Z'; i++) {
				await new Promise((r) => setTimeout(r, 20));
				const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
				state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
			}
			expect(state).toBe('Z');
			expect(holderAlive(lockOf({ pid }))).toBe(false);
			expect(holderAlive(lockOf({ pid: parent.pid }))).toBe(true);
		} finally {
			parent.kill('SIGKILL');
		}
	});

	it('a writer whose lock was taken from it stops before writing', () => {
		const dir = folder();
		const l = WriteLock.acquire(dir, 'CLI');
		writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(lockOf({ holder: 'IDE', pid: 4242, nonce: 'other' })));
		expect(() => l.verify()).toThrow(/lost its writer lock to the IDE \(pid 4242/);
		// release leaves the other's lock alone
		l.release();
		expect(readLock(dir)?.nonce).toBe('other');
	});
});

describe('lineage', () => {
	const runs: Record<string, LineageNode> = {
		root: { firstStep: 0, parent: null, committed: 100 },
		a: { firstStep: 40, parent: { run: 'root', step: 40 }, committed: 90 },
		b: { firstStep: 60, parent: { run: 'a', step: 60 }, committed: 60 },
		at0: { firstStep: 0, parent: { run: 'root', step: 0 }, committed: 10 },
		loop1: { firstStep: 5, parent: { run: 'loop2', step: 5 }, committed: 9 },
		loop2: { firstStep: 3, parent: { run: 'loop1', step: 3 }, committed: 9 },
		orphan: { firstStep: 5, parent: { run: 'gone', step: 5 }, committed: 9 }
	};
	const node = (id: string) => runs[id] ?? null;

	it('spans root first, each up to its child fork step', () => {
		const spans = lineageSpans('b', node);
		expect(spans).toEqual([
			{ run: 'root', from: 0, to: 40 },
			{ run: 'a', from: 40, to: 60 },
			{ run: 'b', from: 60, to: 60 }
		]);
		expect(spanOfStep(spans, 39)?.run).toBe('root');
		expect(spanOfStep(spans, 40)?.run).toBe('a');
		expect(spanOfStep(spans, 60)).toBeUndefined();
		expect(spanOfState(spans, 40)?.run).toBe('a');
		expect(spanOfState(spans, 60)?.run).toBe('b');
		expect(lineageSpans('a', node, 50)).toEqual([
			{ run: 'root', from: 0, to: 40 },
			{ run: 'a', from: 40, to: 50 }
		]);
		expect(lineageSpans('at0', node)).toEqual([{ run: 'at0', from: 0, to: 10 }]);
	});

	it('refuses a loop of parents and a missing parent', () => {
		expect(() => lineageSpans('loop1', node)).toThrow(/run loop1: run loop1 is its own ancestor \(run.json parents form a loop\)/);
		expect(() => lineageSpans('orphan', node)).toThrow(/run orphan is a fork of gone, which is not among the runs/);
		expect(() => lineageSpans('nope', node)).toThrow(/no run "nope"/);
	});
});

describe('confined copies', () => {
	it('copies files and links inside the folder; refuses a link out of it', () => {
		const outside = folder();
		writeFileSync(path.join(outside, 'secret.txt'), 'secret');
		const world = folder();
		writeFileSync(path.join(world, 'world.json'), '{}');
		mkdirSync(path.join(world, 'maps'));
		writeFileSync(path.join(world, 'maps', 'a.tmx'), 'map');
		symlinkSync(path.join(world, 'maps', 'a.tmx'), path.join(world, 'alias.tmx'));
		symlinkSync('maps', path.join(world, 'maps-link'));
		const to = path.join(folder(), 'copy');
		copyConfined(world, to, 'world folder');
		expect(readFileSync(path.join(to, 'alias.tmx'), 'utf8')).toBe('map');
		expect(readFileSync(path.join(to, 'maps-link', 'a.tmx'), 'utf8')).toBe('map');

		symlinkSync(path.join(outside, 'secret.txt'), path.join(world, 'maps', 'leak.txt'));
		const to2 = path.join(folder(), 'copy');
		expect(() => copyConfined(world, to2, 'world folder')).toThrow(/maps\/leak.txt is a link to .*secret.txt, outside the world folder/);
		expect(existsSync(path.join(to2, 'maps', 'leak.txt'))).toBe(false);

		const world2 = folder();
		symlinkSync(outside, path.join(world2, 'dir-out'));
		expect(() => copyConfined(world2, path.join(folder(), 'c'), 'world folder')).toThrow(/dir-out is a link to .*, outside the world folder/);
		const world3 = folder();
		symlinkSync(path.join(world3, 'missing'), path.join(world3, 'dangling'));
		expect(() => copyConfined(world3, path.join(folder(), 'c'), 'world folder')).toThrow(/dangling is a link to nothing/);
	});
});
