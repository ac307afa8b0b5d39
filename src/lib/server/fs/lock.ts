// Lock files, in one place: who holds a lock, whether that process still runs, and taking,
// waiting for and letting go of a lock file. A lock file is a small JSON object naming its
// holder (pid, host, the machine's boot id, the process's start time, when it was taken and a
// nonce of its own, plus whatever its user adds). It is made whole in a private file and linked
// into place, so it appears complete or not at all and only one of two processes racing for it
// gets it. A lock whose holder is gone (its pid is not alive, the pid now belongs to another
// process, or the machine rebooted since), or a file that is not a lock, is moved aside and
// taken over; letting go removes the lock only while it is still the one taken.

import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/** A process as a lock file names it. */
export interface ProcessIdentity {
	pid: number;
	host: string;
	/** /proc/sys/kernel/random/boot_id where there is one */
	boot: string | null;
	/** the process's start time in clock ticks since boot (/proc/<pid>/stat), where there is one */
	start: string | null;
}

/** What every lock file holds. */
export interface LockHolder extends ProcessIdentity {
	/** wall-clock time the lock was taken (ISO) */
	since: string;
	nonce: string;
}

function readText(file: string): string | null {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		return null;
	}
}

let bootId: string | null | undefined;
function currentBoot(): string | null {
	if (bootId === undefined) bootId = readText('/proc/sys/kernel/random/boot_id')?.trim() || null;
	return bootId;
}

/** A process's start time (field 22 of /proc/<pid>/stat), or null where /proc is missing. */
function startTime(pid: number): string | null {
	const stat = readText(`/proc/${pid}/stat`);
	if (!stat) return null;
	// the command name (field 2) may hold spaces and parentheses: count fields after the last ')'
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return fields[19] ?? null;
}

/** Whether process `pid` of this machine still runs (a killed one not yet reaped does not). */
export function pidAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch (e) {
		return (e as NodeJS.ErrnoException).code === 'EPERM';
	}
	// a killed process nobody has reaped yet (a zombie) still answers signals, but writes nothing
	const stat = readText(`/proc/${pid}/stat`);
	const state = stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] : '';
	return state !== 'Z' && state !== 'X';
}

/** Who this process is, as a lock file names its holder (pid, host, boot, start time). */
export function thisProcess(): ProcessIdentity {
	return { pid: process.pid, host: hostname(), boot: currentBoot(), start: startTime(process.pid) };
}

/**
 * Whether the holder of a lock may still be working: its process runs, since before the lock
 * (not a reused pid), and the machine has not restarted since. A lock from another machine is
 * taken as alive (its process cannot be seen from here).
 */
export function holderAlive(h: ProcessIdentity): boolean {
	if (h.host !== hostname()) return true;
	const boot = currentBoot();
	if (h.boot && boot && h.boot !== boot) return false;
	if (!Number.isInteger(h.pid) || h.pid <= 0 || !pidAlive(h.pid)) return false;
	if (h.start && h.pid !== process.pid) {
		const now = startTime(h.pid);
		if (now && now !== h.start) return false;
	}
	return true;
}

/**
 * A lock file's text as a holder, or null when it is not a lock. A lock written before it named
 * its host, boot, start time or nonce (an older version) is this machine's, those unknown.
 */
function parseLock<T extends object>(text: string | null): (LockHolder & Partial<T>) | null {
	if (!text) return null;
	try {
		const v = JSON.parse(text) as Partial<LockHolder> | null;
		if (typeof v !== 'object' || v === null || typeof v.pid !== 'number') return null;
		return { ...v, pid: v.pid, host: v.host ?? hostname(), boot: v.boot ?? null, start: v.start ?? null, since: String(v.since ?? ''), nonce: String(v.nonce ?? '') } as LockHolder &
			Partial<T>;
	} catch {
		return null;
	}
}

/** The lock `file` as it stands, or null when nobody holds it (or the file is not a lock). */
export function readLockFile<T extends object = object>(file: string): (LockHolder & Partial<T>) | null {
	return parseLock<T>(readText(file));
}

function errno(e: unknown): string | undefined {
	return (e as NodeJS.ErrnoException)?.code;
}

export interface LockOptions {
	/**
	 * A lock naming this very process is a leftover (for a lock this process only ever takes one
	 * at a time, in order): taken over. Otherwise it is alive, as this process runs.
	 */
	selfIsLeftover?: boolean;
}

/** What taking a lock came to: taken (by `holder`, this process), or held by `holder` (null: unreadable, being let go). */
export type LockAttempt<T extends object> = { taken: true; holder: LockHolder & T } | { taken: false; holder: (LockHolder & Partial<T>) | null };

/**
 * Takes the lock `file` (its folder must exist) for this process, with `extra` written in it,
 * without waiting: answers whether it was taken, and by whom it is held when not. A dead
 * holder's lock, or a file that is not a lock, is taken over.
 */
export function tryLock<T extends object>(file: string, extra: T, opts: LockOptions = {}): LockAttempt<T> {
	const holder = { ...extra, ...thisProcess(), since: new Date().toISOString(), nonce: randomBytes(8).toString('hex') } as LockHolder & T;
	const dir = path.dirname(file);
	const base = path.basename(file);
	const alive = (h: LockHolder) => (opts.selfIsLeftover && h.pid === process.pid && h.host === hostname() ? false : holderAlive(h));
	const mine = path.join(dir, `.${base}.${holder.nonce}`);
	writeFileSync(mine, JSON.stringify(holder));
	try {
		for (let attempt = 0; attempt < 5; attempt++) {
			try {
				linkSync(mine, file);
				return { taken: true, holder };
			} catch (e) {
				if (errno(e) !== 'EEXIST') throw e;
			}
			const text = readText(file);
			if (text === null) continue; // let go meanwhile
			const current = parseLock<T>(text);
			if (current && alive(current)) return { taken: false, holder: current };
			// the holder is gone (or the file is not a lock): move it aside, then make sure it
			// was the one judged dead and not a lock another process took meanwhile
			const aside = path.join(dir, `.${base}.stale.${holder.nonce}`);
			try {
				renameSync(file, aside);
			} catch (e) {
				if (errno(e) === 'ENOENT') continue;
				throw e;
			}
			const moved = readText(aside);
			if (moved !== text) {
				try {
					linkSync(aside, file);
				} catch {
					// a third process holds it now; the one moved aside finds out before it writes
				}
			}
			unlinkSync(aside);
		}
		return { taken: false, holder: readLockFile<T>(file) };
	} finally {
		try {
			unlinkSync(mine);
		} catch {
			// already gone
		}
	}
}

/** Whether the lock `file` is still the one taken with `nonce`. */
export function lockHeld(file: string, nonce: string): boolean {
	return readLockFile(file)?.nonce === nonce;
}

/** Lets go of the lock `file` when it is still the one taken with `nonce` (one taken over from it is left alone). */
export function unlock(file: string, nonce: string): void {
	if (!lockHeld(file, nonce)) return;
	try {
		unlinkSync(file);
	} catch {
		// already gone
	}
}

export interface WaitOptions<T extends object> extends LockOptions {
	/** what is written in the lock besides the holder */
	extra?: T;
	/** how long to wait for a live holder (ms) */
	waitMs: number;
	/** the error to throw when the holder did not let go in time */
	busy: (holder: (LockHolder & Partial<T>) | null) => Error;
}

/** Locks this process holds through `withLockSync`, by file: how deep (it is re-entrant). */
const heldSync = new Map<string, number>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `fn` holding the lock `file` (re-entrant within a process), blocking while a live
 * holder has it, up to `waitMs`; its folder is made when missing.
 */
export function withLockSync<R, T extends object = object>(file: string, fn: () => R, opts: WaitOptions<T>): R {
	const depth = heldSync.get(file) ?? 0;
	if (depth > 0) {
		heldSync.set(file, depth + 1);
		try {
			return fn();
		} finally {
			heldSync.set(file, depth);
		}
	}
	const deadline = Date.now() + opts.waitMs;
	let pause = 1;
	let nonce: string;
	for (;;) {
		const got = tryLock(file, opts.extra ?? ({} as T), opts);
		if (got.taken) {
			nonce = got.holder.nonce;
			break;
		}
		if (Date.now() > deadline) throw opts.busy(got.holder);
		Atomics.wait(sleeper, 0, 0, pause);
		pause = Math.min(pause * 2, 50);
	}
	heldSync.set(file, 1);
	try {
		return fn();
	} finally {
		heldSync.delete(file);
		unlock(file, nonce);
	}
}

/** Runs `fn` holding the lock `file`, waiting (every `pollMs`) while a live holder has it, up to `waitMs`. */
export async function withLock<R, T extends object = object>(file: string, fn: () => Promise<R>, opts: WaitOptions<T> & { pollMs?: number }): Promise<R> {
	const deadline = Date.now() + opts.waitMs;
	let nonce: string;
	for (;;) {
		const got = tryLock(file, opts.extra ?? ({} as T), opts);
		if (got.taken) {
			nonce = got.holder.nonce;
			break;
		}
		if (Date.now() > deadline) throw opts.busy(got.holder);
		await new Promise((r) => setTimeout(r, opts.pollMs ?? 100));
	}
	try {
		return await fn();
	} finally {
		unlock(file, nonce);
	}
}
