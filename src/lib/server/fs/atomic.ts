// Whole writes, in one place, for every module that writes a file others read: appends to an
// open file in one write, and whole files replaced atomically. A whole file is written to a
// temporary file beside it with a name unique to the write (`.<name>.<pid>.<random>.tmp`, so
// two processes or two writes never share one), synced to the disk, then renamed over the
// file: a reader sees the old file or the new one, never half of either, and a crash leaves at
// worst a temporary file (`isTempFile`, `removeTempFiles`). A write that fails leaves no
// temporary file behind, and a full disk (ENOSPC, or a quota: EDQUOT) becomes a DiskFullError
// naming the file being written (./disk-full.ts). `failWrites` makes writes fail as a full
// disk does, for tests.

import { randomBytes } from 'node:crypto';
import { closeSync, fdatasyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { asDiskFull } from './disk-full';

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

function fullDisk(code: string): Error {
	return Object.assign(new Error(`${code}: ${code === 'EDQUOT' ? 'disk quota exceeded' : 'no space left on device'}, write`), {
		code,
		errno: -28,
		syscall: 'write'
	});
}

function writeAll(fd: number, data: Buffer, file: string): void {
	let done = 0;
	if (failing?.match(file)) {
		const half = Math.floor(data.length / 2);
		while (done < half) done += writeSync(fd, data, done, half - done);
		throw fullDisk(failing.code);
	}
	while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

// ---- temporary files ---------------------------------------------------------------------------

const TEMP = /^\.(.+)\.\d+\.[0-9a-f]{8}\.tmp$/;
/** temporary files of older writers: `<name>.tmp`, `<name>.<pid>.tmp` */
const OLD_TEMP = /^(.+?)(?:\.\d+)?\.tmp$/;

/** The temporary file a whole write of `file` goes through: hidden, beside it, unique to the write. */
export function tempFileOf(file: string): string {
	return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** The name of the file a temporary file (a folder entry) was being written for, or null when it is none. */
export function tempTarget(name: string): string | null {
	return TEMP.exec(name)?.[1] ?? OLD_TEMP.exec(name)?.[1] ?? null;
}

/** Whether a folder entry is a temporary file a whole write left (of the file `name`, when given). */
export function isTempFile(entry: string, name?: string): boolean {
	const target = tempTarget(entry);
	return target !== null && (name === undefined || target === name);
}

/**
 * Removes the temporary files whole writes left in `dir` (those of the file `name` only, when
 * given): a writer stopped mid-write. Only whoever alone writes those files may call it.
 */
export function removeTempFiles(dir: string, name?: string): void {
	let entries: string[];
	try {
		entries = readdirSync(dir);
	} catch {
		return;
	}
	for (const f of entries) if (isTempFile(f, name)) rmSync(path.join(dir, f), { force: true });
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

const bytesOf = (data: string | Uint8Array): Buffer => (typeof data === 'string' ? Buffer.from(data) : Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));

/**
 * Writes `file` whole or not at all: a temporary file of its own, written, synced and renamed
 * into place. When any of it fails, the temporary file is removed, and a full disk is a
 * DiskFullError naming `file`.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
	const tmp = tempFileOf(file);
	try {
		const fd = openSync(tmp, 'wx');
		try {
			writeAll(fd, bytesOf(data), file);
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

/** `writeFileAtomic` without blocking the event loop (the same temporary file, sync and rename). */
export async function writeFileAtomicAsync(file: string, data: string | Uint8Array): Promise<void> {
	const tmp = tempFileOf(file);
	try {
		const handle = await open(tmp, 'wx');
		try {
			const bytes = bytesOf(data);
			if (failing?.match(file)) {
				await handle.write(bytes, 0, Math.floor(bytes.length / 2));
				throw fullDisk(failing.code);
			}
			await handle.writeFile(bytes);
			await handle.datasync();
		} finally {
			await handle.close();
		}
		await rename(tmp, file);
	} catch (e) {
		await rm(tmp, { force: true });
		throw asDiskFull(e, file);
	}
}
