// A full disk (ENOSPC) or quota (EDQUOT), however it is reported, as one error naming the file
// being written and what to do: free space, then try again (or, for a run, resume it, which
// continues from its last committed step).

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
