// How a run's snapshot files are encoded on disk. A snapshot (the full state after n steps,
// 1-2 MB of JSON for 25 agents) is kept as `snapshots/<n>.json.br`: its JSON compressed with
// Brotli (quality 6, about 12 times smaller, decoded in a millisecond, faster than the JSON is
// parsed). Runs written before snapshots were compressed keep `snapshots/<n>.json`, which is
// still read; when both exist for a step, the compressed one is the one read.

import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic';
import type { Snapshot } from '../../engine/sim';

/** The extension of a compressed snapshot file. */
export const SNAPSHOT_EXT = '.json.br';
/** The extension of a plain snapshot file (runs written before compression). */
export const PLAIN_SNAPSHOT_EXT = '.json';

const SNAPSHOT_NAME = /^(\d+)\.json(\.br)?$/;

/** The step a snapshot file's name holds (compressed or plain), or null for any other file. */
export function snapshotStepOf(name: string): number | null {
	const m = SNAPSHOT_NAME.exec(name);
	return m ? Number(m[1]) : null;
}

/** A snapshot's bytes as they are stored. */
export function encodeSnapshot(snap: Snapshot): Buffer {
	const json = Buffer.from(JSON.stringify(snap));
	return brotliCompressSync(json, {
		params: {
			[constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
			[constants.BROTLI_PARAM_QUALITY]: 6,
			[constants.BROTLI_PARAM_LGWIN]: 24,
			[constants.BROTLI_PARAM_SIZE_HINT]: json.length
		}
	});
}

/** The snapshot stored as `bytes`; `file` names it in errors. */
export function decodeSnapshot(bytes: Buffer, file: string): Snapshot {
	let json: string;
	if (file.endsWith(SNAPSHOT_EXT)) {
		try {
			json = brotliDecompressSync(bytes).toString('utf8');
		} catch (e) {
			throw new Error(`${file} is not a readable compressed snapshot (${(e as Error).message}); delete it to use an earlier snapshot`);
		}
	} else {
		json = bytes.toString('utf8');
	}
	try {
		return JSON.parse(json) as Snapshot;
	} catch (e) {
		throw new Error(`${file} is not a valid snapshot: ${(e as Error).message}`);
	}
}

/** The file holding the snapshot after `step` steps in a snapshots folder (compressed first), or null. */
export function snapshotFile(dir: string, step: number): string | null {
	for (const ext of [SNAPSHOT_EXT, PLAIN_SNAPSHOT_EXT]) {
		const file = path.join(dir, `${step}${ext}`);
		if (existsSync(file)) return file;
	}
	return null;
}

/** Reads the snapshot after `step` steps from a snapshots folder, in either encoding. */
export function readSnapshotAt(dir: string, step: number): Snapshot {
	const file = snapshotFile(dir, step);
	if (!file) throw new Error(`no snapshot of step ${step} in ${dir}`);
	return decodeSnapshot(readFileSync(file), file);
}

/**
 * Writes the snapshot after its step into a snapshots folder, encoded, whole or not at all:
 * a temporary file, synced, renamed into place. Answers the file.
 */
export function writeSnapshotAt(dir: string, snap: Snapshot): string {
	const file = path.join(dir, `${snap.state.step}${SNAPSHOT_EXT}`);
	// no temporary file stays when it fails; a full disk names the file (../fs/atomic.ts)
	writeFileAtomic(file, encodeSnapshot(snap));
	// a plain file of the same step (a run written before compression, resumed and cut back) is stale
	rmSync(path.join(dir, `${snap.state.step}${PLAIN_SNAPSHOT_EXT}`), { force: true });
	return file;
}
