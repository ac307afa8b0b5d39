// The journal's writes, in one place: appends to an open log, and whole files written atomically
// (a temporary file beside the target, synced, renamed). A write that fails leaves no temporary
// file behind, and a full disk (ENOSPC, or a quota: EDQUOT) becomes a DiskFullError naming the
// file being written and what to do: free space, then resume the run, which continues from its
// last committed step. `failWrites` makes writes fail as a full disk does, for tests.

import { closeSync, fdatasyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
/** How the same failure reads when it comes through another layer (LanceDB's Rust I/O errors). */
const FULL_TEXT = /\bENOSPC\b|\bEDQUOT\b|no space left on device|disk quota exceeded|os error 28\b|os error 122\b/i;

/** The disk (or the quota) is full: `file` could not be written. */
export class DiskFullError extends Error {
	constructor(
		/** the file being written (absolute) */
		readonly file: string,
		/** ENOSPC or EDQUOT */
		readonly code: string,
		/** the run being written, when known: the message says how to resume it */
		readonly run?: string
	) {
		super(diskFullMessage(file, code, run));
		this.name = 'DiskFullError';
	}

	/** The same failure, its message saying how to resume `run`. */
	forRun(run: string): DiskFullError {
		return this.run === run ? this : new DiskFullError(this.file, this.code, run);
	}
}

export function diskFullMessage(file: string, code: string, run?: string): string {
	const what = code === 'EDQUOT' ? 'the disk quota is used up' : 'no space left on the disk';
	const then = run
		? `the run stopped at its last committed step: free some space, then resume it (\`npm run simulacra -- resume ${run}\`, or play it in the studio)`
		: 'free some space, then try again';
	return `${what} (${code}) while writing ${file}; ${then}`;
}

/** Whether `e` is a full disk or quota, however it was reported. */
export function isDiskFull(e: unknown): boolean {
	if (e instanceof DiskFullError) return true;
	const code = (e as NodeJS.ErrnoException | undefined)?.code;
	if (typeof code === 'string' && FULL_CODES.has(code)) return true;
	return e instanceof Error && FULL_TEXT.test(e.message);
}

/**
 * `e` as a DiskFullError naming `file` (and `run`, to say how to resume it) when it is a full
 * disk, else `e` unchanged.
 */
export function asDiskFull(e: unknown, file: string, run?: string): unknown {
	if (e instanceof DiskFullError) return run ? e.forRun(run) : e;
	if (!isDiskFull(e)) return e;
	const code = (e as NodeJS.ErrnoException).code;
	const named = typeof code === 'string' && FULL_CODES.has(code) ? code : /EDQUOT|quota|os error 122/i.test((e as Error).message) ? 'EDQUOT' : 'ENOSPC';
	return new DiskFullError(file, named, run);
}

// ---- the test seam ---------------------------------------------------------------------------

let failing: { match: (file: string) => boolean; code: string } | undefined;

/**
 * Makes every write to a file `match` accepts fail the way a full disk does (`code`, ENOSPC by
 * default): half the bytes are written, then the write throws. Answers the function that
 * undoes it. For tests only; nothing else calls it.
 */
export function failWrites(match: (file: string) => boolean, code = 'ENOSPC'): () => void {
	failing = { match, code };
	return () => {
		failing = undefined;
	};
}

function writeAll(fd: number, data: Buffer, file: string): void {
	let done = 0;
	if (failing?.match(file)) {
		const half = Math.floor(data.length / 2);
		while (done < half) done += writeSync(fd, data, done, half - done);
		throw Object.assign(new Error(`${failing.code}: ${failing.code === 'EDQUOT' ? 'disk quota exceeded' : 'no space left on device'}, write`), {
			code: failing.code,
			errno: -28,
			syscall: 'write'
		});
	}
	while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

// ---- writes ------------------------------------------------------------------------------------

/** Appends `text` to the open file `fd` (which is `file`) in one write. */
export function appendToFile(fd: number, text: string, file: string): void {
	try {
		writeAll(fd, Buffer.from(text), file);
	} catch (e) {
		throw asDiskFull(e, file);
	}
}

/** Flushes the open file `fd` (which is `file`) to the disk. */
export function syncFile(fd: number, file: string): void {
	try {
		fdatasyncSync(fd);
	} catch (e) {
		throw asDiskFull(e, file);
	}
}

/**
 * Writes `file` whole or not at all: `<file>.tmp` written, synced and renamed into place. When
 * any of it fails, the temporary file is removed, and a full disk is a DiskFullError naming `file`.
 */
export function writeFileAtomic(file: string, data: string | Buffer): void {
	const tmp = `${file}.tmp`;
	try {
		const fd = openSync(tmp, 'w');
		try {
			writeAll(fd, typeof data === 'string' ? Buffer.from(data) : data, file);
			fdatasyncSync(fd);
		} finally {
			closeSync(fd);
		}
		renameSync(tmp, file);
	} catch (e) {
		rmSync(tmp, { force: true });
		throw asDiskFull(e, file);
	}
}
