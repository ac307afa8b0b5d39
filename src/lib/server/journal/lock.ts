// One writer per run. Whoever appends to a run (the CLI or the IDE's server) holds
// `<run>/writer.lock`, a lock file (../fs/lock.ts) naming the holder: its kind, pid, when it took
// the lock, the machine's boot id and the process's start time. A second writer is refused at
// once, with a message naming the holder; a lock whose holder is gone is taken over. Readers
// never look at the lock.

import { hostname } from 'node:os';
import path from 'node:path';
import { holderAlive, lockHeld, readLockFile, tryLock, unlock, type LockHolder } from '../fs/lock';
import { ConflictError } from '../errors';

export type WriterKind = 'CLI' | 'IDE';

export interface LockInfo extends LockHolder {
	holder: WriterKind;
}

export const LOCK_FILE = 'writer.lock';

/** A second writer, refused: the message names the holder. */
export class RunLockedError extends ConflictError {
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

/** The lock of a run folder as it stands, or null when nobody holds it. */
export function readLock(runDir: string): LockInfo | null {
	const lock = readLockFile<{ holder: WriterKind }>(path.join(runDir, LOCK_FILE));
	return lock ? { ...lock, holder: lock.holder ?? 'CLI' } : null;
}

/** The live writer of a run folder, or null when there is none (no lock, or its holder is gone). */
export function liveWriter(runDir: string): LockInfo | null {
	const lock = readLock(runDir);
	return lock && holderAlive(lock) ? lock : null;
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
		const file = path.join(dir, LOCK_FILE);
		const got = tryLock(file, { holder });
		if (got.taken) return new WriteLock(dir, got.holder);
		const current = got.holder ? { ...got.holder, holder: got.holder.holder ?? 'CLI' } : readLock(dir);
		if (current) throw new RunLockedError(run, current);
		throw new Error(`run ${run}: could not take its writer lock (${file})`);
	}

	/** Throws when the lock is no longer this writer's (taken over as stale: never while alive). */
	verify(): void {
		if (this.released) throw new Error(`the writer lock of ${this.dir} was released`);
		if (!lockHeld(path.join(this.dir, LOCK_FILE), this.info.nonce)) {
			const now = readLock(this.dir);
			throw new Error(`run ${path.basename(this.dir)} lost its writer lock${now ? ` to ${describeHolder(now)}` : ''}; stopped before writing`);
		}
	}

	release(): void {
		if (this.released) return;
		this.released = true;
		unlock(path.join(this.dir, LOCK_FILE), this.info.nonce);
	}
}
