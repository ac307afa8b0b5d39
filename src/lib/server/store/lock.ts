// One writer per run. Whoever appends to a run (the CLI or the IDE's server) holds
// `<run>/writer.lock`, a small JSON file naming the holder: its kind, pid, when it took the
// lock, the machine's boot id and the process's start time. The file is made whole in a
// private file and linked into place, so it appears complete or not at all and only one of
// two writers racing for it gets it. A lock whose holder is gone (its pid is not alive, the
// pid now belongs to another process, or the machine rebooted since) is moved aside and taken
// over; readers never look at the lock.

import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

export type WriterKind = 'CLI' | 'IDE';

export interface LockInfo {
	holder: WriterKind;
	pid: number;
	/** wall-clock time the lock was taken (ISO) */
	since: string;
	host: string;
	/** /proc/sys/kernel/random/boot_id where there is one */
	boot: string | null;
	/** the holder's start time in clock ticks since boot (/proc/<pid>/stat), where there is one */
	start: string | null;
	nonce: string;
}

export const LOCK_FILE = 'writer.lock';

/** A second writer, refused: the message names the holder. */
export class RunLockedError extends Error {
	constructor(
		readonly run: string,
		readonly holder: LockInfo
	) {
		const elsewhere = holder.host !== hostname() ? ` (if that process is gone, delete the run's ${LOCK_FILE})` : '';
		super(`run ${run} is being written by ${describeHolder(holder)}; a run has one writer at a time: wait for it to finish or stop it${elsewhere}`);
		this.name = 'RunLockedError';
	}
}

export function describeHolder(h: LockInfo): string {
	const who = h.holder === 'IDE' ? 'the IDE' : 'the CLI';
	return `${who} (pid ${h.pid}${h.host !== hostname() ? ` on ${h.host}` : ''}, since ${h.since})`;
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
export function thisProcess(): Pick<LockInfo, 'pid' | 'host' | 'boot' | 'start'> {
	return { pid: process.pid, host: hostname(), boot: currentBoot(), start: startTime(process.pid) };
}

/**
 * Whether the holder of a lock may still be writing: its process runs, since before the lock
 * (not a reused pid), and the machine has not restarted since. A lock from another machine is
 * taken as alive (its process cannot be seen from here).
 */
export function holderAlive(h: Pick<LockInfo, 'pid' | 'host' | 'boot' | 'start'>): boolean {
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

function parseLock(text: string | null): LockInfo | null {
	if (!text) return null;
	try {
		const v = JSON.parse(text) as LockInfo;
		return typeof v.pid === 'number' && typeof v.nonce === 'string' ? v : null;
	} catch {
		return null;
	}
}

/** The lock of a run folder as it stands, or null when nobody holds it. */
export function readLock(runDir: string): LockInfo | null {
	return parseLock(readText(path.join(runDir, LOCK_FILE)));
}

/** The live writer of a run folder, or null when there is none (no lock, or its holder is gone). */
export function liveWriter(runDir: string): LockInfo | null {
	const lock = readLock(runDir);
	return lock && holderAlive(lock) ? lock : null;
}

function errno(e: unknown): string | undefined {
	return (e as NodeJS.ErrnoException)?.code;
}

/** An exclusive hold on a run folder for appending; `release` lets it go. */
export class WriteLock {
	private released = false;

	private constructor(
		readonly dir: string,
		readonly info: LockInfo
	) {}

	/**
	 * Takes the lock of a run folder, or throws RunLockedError naming the live holder at once
	 * (it never waits). A dead holder's lock is taken over.
	 */
	static acquire(dir: string, holder: WriterKind, run = path.basename(dir)): WriteLock {
		const info: LockInfo = { holder, ...thisProcess(), since: new Date().toISOString(), nonce: randomBytes(8).toString('hex') };
		const file = path.join(dir, LOCK_FILE);
		const mine = path.join(dir, `.${LOCK_FILE}.${info.nonce}`);
		writeFileSync(mine, JSON.stringify(info));
		try {
			for (let attempt = 0; attempt < 5; attempt++) {
				try {
					linkSync(mine, file);
					return new WriteLock(dir, info);
				} catch (e) {
					if (errno(e) !== 'EEXIST') throw e;
				}
				const text = readText(file);
				const current = parseLock(text);
				if (text === null) continue; // let go meanwhile
				if (current && holderAlive(current)) throw new RunLockedError(run, current);
				// the holder is gone (or the file is not a lock): move it aside, then make sure it
				// was the one judged dead and not a lock another writer took meanwhile
				const aside = path.join(dir, `.${LOCK_FILE}.stale.${info.nonce}`);
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
						// a third writer holds it now; the one moved aside finds out before its next append
					}
				}
				unlinkSync(aside);
			}
			const current = readLock(dir);
			if (current) throw new RunLockedError(run, current);
			throw new Error(`run ${run}: could not take its writer lock (${file})`);
		} finally {
			try {
				unlinkSync(mine);
			} catch {
				// already gone
			}
		}
	}

	/** Throws when the lock is no longer this writer's (taken over as stale: never while alive). */
	verify(): void {
		if (this.released) throw new Error(`the writer lock of ${this.dir} was released`);
		const now = readLock(this.dir);
		if (now?.nonce !== this.info.nonce) {
			throw new Error(`run ${path.basename(this.dir)} lost its writer lock${now ? ` to ${describeHolder(now)}` : ''}; stopped before writing`);
		}
	}

	release(): void {
		if (this.released) return;
		this.released = true;
		const file = path.join(this.dir, LOCK_FILE);
		if (readLock(this.dir)?.nonce === this.info.nonce && existsSync(file)) unlinkSync(file);
	}
}
