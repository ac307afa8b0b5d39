// The run's writer lock: one holder at a time, refusals naming it, dead holders taken over.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holderAlive } from '../fs/lock';
import { LOCK_FILE, RunLockedError, WriteLock, readLock, type LockInfo } from './lock';

const tmp = mkdtempSync(path.join(tmpdir(), 'lock-'));
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
