// A persona's seed-memory vectors: `personas/<id>.vectors` beside `personas/<id>.json`, the
// vectors of its structured seed memories (`memories`) as the world import of the reference
// implementation keeps them from embeddings.json (docs/world-format.md, "Seed memory vectors").
// A run whose embedder has the file's dimension stores those memories with these vectors instead
// of embedding them.
//
// The format (integers unsigned 32-bit little-endian, floats IEEE 754 32-bit little-endian):
//
//   0   8        "SIMVEC", 0x00, 0x01 (the format's version)
//   8   4        d: the dimension
//   12  4        n: entries (memories with a vector)
//   16  4        v: distinct vectors (0 when n is 0, else 1..n)
//   20  4        t: bytes of the names below
//   24  4n       per entry, the index of its vector (< v)
//   ..  8n       per entry, the first 8 bytes of the SHA-256 of the memory's description (UTF-8)
//   ..  t        UTF-8: the persona id, then each entry's memory id, each followed by "\n"
//   ..  0-3      zero bytes, to a multiple of 4
//   ..  4dv      the vectors
//
// A vector is used for the memory of the persona whose id and description it names; a file
// whose size is not what its header says, with another header, over its limit
// (SIMULACRA_MAX_SEED_VECTOR_BYTES) or of another persona is not used, and the world check says
// why (a warning: the run embeds those memories with its own embedder).

import { createHash } from 'node:crypto';
import { readdir, open } from 'node:fs/promises';
import type { PersonaDef, SeedVectors } from '../../engine/types';
import type { ProblemList } from '../../world/problems';
import { ConfinedPathError, realInside } from '../files';
import { FileLimitError, formatBytes, LIMIT_ENV, limits, readFileCapped } from '../limits';

export const VECTORS_EXT = '.vectors';
const MAGIC = Buffer.from([0x53, 0x49, 0x4d, 0x56, 0x45, 0x43, 0x00, 0x01]); // "SIMVEC" 0 1
const HEAD = 24;
/** no embedder gives more (OpenAI's largest: 3,072) */
const MAX_DIMENSION = 65_536;

/** The side file of a persona, relative to the world folder. */
export const vectorsRel = (persona: string) => `personas/${persona}${VECTORS_EXT}`;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The 8 bytes of a description an entry names it by. */
function textHash(text: string): Buffer {
	return createHash('sha256').update(text, 'utf8').digest().subarray(0, 8);
}

/** Why a file cannot be used, in words for a warning. */
export class VectorsFileError extends Error {}

export interface VectorsEntry {
	/** the memory's id in the persona's `memories` */
	id: string;
	/** hex of the description's hash */
	hash: string;
	/** its vector's index */
	vector: number;
}

export interface VectorsHead {
	persona: string;
	dimension: number;
	vectors: number;
	entries: VectorsEntry[];
	/** where the vectors begin, and the file's whole size */
	dataOffset: number;
	bytes: number;
}

/**
 * The file of a persona's vectors. `entries` are its memories with a vector (id, description,
 * vector); identical vectors are stored once. Every vector must have `dimension` numbers.
 */
export function encodeVectors(persona: string, dimension: number, entries: readonly { id: string; description: string; vector: ArrayLike<number> }[]): Buffer {
	const distinct = new Map<string, number>();
	const table: ArrayLike<number>[] = [];
	const index = entries.map((e) => {
		if (e.vector.length !== dimension) throw new Error(`the vector of ${e.id} has ${e.vector.length} numbers, not ${dimension}`);
		const bytes = Buffer.from(Float32Array.from(e.vector).buffer).toString('base64');
		let i = distinct.get(bytes);
		if (i === undefined) {
			distinct.set(bytes, (i = table.length));
			table.push(e.vector);
		}
		return i;
	});
	const names = Buffer.from([persona, ...entries.map((e) => e.id)].map((s) => `${s}\n`).join(''), 'utf8');
	const n = entries.length;
	const meta = HEAD + 12 * n + names.length;
	const dataOffset = meta + ((4 - (meta % 4)) % 4);
	const out = Buffer.alloc(dataOffset + 4 * dimension * table.length);
	MAGIC.copy(out, 0);
	out.writeUInt32LE(dimension, 8);
	out.writeUInt32LE(n, 12);
	out.writeUInt32LE(table.length, 16);
	out.writeUInt32LE(names.length, 20);
	index.forEach((v, k) => out.writeUInt32LE(v, HEAD + 4 * k));
	entries.forEach((e, k) => textHash(e.description).copy(out, HEAD + 4 * n + 8 * k));
	names.copy(out, HEAD + 12 * n);
	let at = dataOffset;
	for (const vec of table) for (let j = 0; j < dimension; j++, at += 4) out.writeFloatLE(vec[j], at);
	return out;
}

/** The header and names of a file whose first bytes are `head` (at least the header) and whose size is `bytes`. */
function parseHead(head: Buffer, bytes: number, max: number): VectorsHead | { metaBytes: number } {
	if (bytes < HEAD || head.length < HEAD || !head.subarray(0, 6).equals(MAGIC.subarray(0, 6)) || head[6] !== 0)
		throw new VectorsFileError('not a file of seed-memory vectors (it does not begin with "SIMVEC")');
	if (head[7] !== MAGIC[7]) throw new VectorsFileError(`written in format version ${head[7]}; this studio reads version ${MAGIC[7]}`);
	const d = head.readUInt32LE(8);
	const n = head.readUInt32LE(12);
	const v = head.readUInt32LE(16);
	const t = head.readUInt32LE(20);
	if (d < 1 || d > MAX_DIMENSION) throw new VectorsFileError(`damaged: its header gives ${d} dimensions (1 to ${MAX_DIMENSION.toLocaleString('en')})`);
	if (v > n || (n > 0 && v === 0)) throw new VectorsFileError(`damaged: its header gives ${v} vectors for ${n} memories`);
	const meta = HEAD + 12 * n + t;
	const dataOffset = meta + ((4 - (meta % 4)) % 4);
	const size = dataOffset + 4 * d * v;
	if (size > max) throw new VectorsFileError(`its header gives ${formatBytes(size)}, more than the ${formatBytes(max)} allowed (${LIMIT_ENV.maxSeedVectorBytes})`);
	if (size !== bytes)
		throw new VectorsFileError(
			`damaged: it is ${bytes.toLocaleString('en')} bytes, but its header (${plural(n, 'memory', 'memories')}, ${plural(v, 'vector', 'vectors')} of ${d} dimensions) makes it ${size.toLocaleString('en')}${bytes < size ? ' (cut short?)' : ''}`
		);
	if (head.length < meta) return { metaBytes: meta };
	const entries: VectorsEntry[] = [];
	const names = head.subarray(HEAD + 12 * n, meta).toString('utf8').split('\n');
	if (names.length !== n + 2 || names[n + 1] !== '' || names.slice(0, n + 1).some((s) => s === ''))
		throw new VectorsFileError(`damaged: its names are not the persona id and ${n} memory ids, each on a line`);
	const seen = new Set<string>();
	for (let k = 0; k < n; k++) {
		const vector = head.readUInt32LE(HEAD + 4 * k);
		if (vector >= v) throw new VectorsFileError(`damaged: entry ${k} names vector ${vector} of ${v}`);
		const id = names[k + 1];
		if (seen.has(id)) throw new VectorsFileError(`damaged: memory "${id}" is named twice`);
		seen.add(id);
		entries.push({ id, hash: head.subarray(HEAD + 4 * n + 8 * k, HEAD + 4 * n + 8 * k + 8).toString('hex'), vector });
	}
	for (let k = meta; k < dataOffset && k < head.length; k++) if (head[k] !== 0) throw new VectorsFileError('damaged: the padding before the vectors is not zero');
	return { persona: names[0], dimension: d, vectors: v, entries, dataOffset, bytes };
}

/**
 * The header and names of a vectors file, reading no vectors. Throws VectorsFileError (why it
 * cannot be used), FileLimitError, or the file system's error.
 */
export async function readVectorsHead(abs: string, max = limits().maxSeedVectorBytes): Promise<VectorsHead> {
	const fh = await open(abs, 'r');
	try {
		const info = await fh.stat();
		if (!info.isFile()) throw new FileLimitError('it is not a regular file');
		if (info.size > max) throw new VectorsFileError(`it is ${formatBytes(info.size)}, more than the ${formatBytes(max)} allowed (${LIMIT_ENV.maxSeedVectorBytes})`);
		const read = async (n: number) => {
			const buf = Buffer.alloc(Math.min(n, info.size));
			const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
			return buf.subarray(0, bytesRead);
		};
		const first = parseHead(await read(HEAD), info.size, max);
		if ('persona' in first) return first;
		const whole = parseHead(await read(first.metaBytes + 4), info.size, max);
		if (!('persona' in whole)) throw new VectorsFileError('damaged: it changed while it was read');
		return whole;
	} finally {
		await fh.close();
	}
}

/** A whole vectors file: its header and the vectors of the entries, by memory id (entries may share one). */
export function decodeVectors(buf: Buffer, max = limits().maxSeedVectorBytes): { head: VectorsHead; vectorOf: (id: string) => Float32Array | undefined } {
	const head = parseHead(buf, buf.length, max);
	if (!('persona' in head)) throw new VectorsFileError('damaged: cut short');
	const byId = new Map(head.entries.map((e) => [e.id, e.vector]));
	const cache = new Map<number, Float32Array>();
	const vectorOf = (id: string) => {
		const i = byId.get(id);
		if (i === undefined) return undefined;
		let vec = cache.get(i);
		if (!vec) {
			vec = new Float32Array(head.dimension);
			const at = head.dataOffset + 4 * head.dimension * i;
			for (let j = 0; j < head.dimension; j++) vec[j] = buf.readFloatLE(at + 4 * j);
			cache.set(i, vec);
		}
		// a vector that is not all numbers is not used (its memory is embedded)
		return vec.every(Number.isFinite) ? vec : undefined;
	};
	return { head, vectorOf };
}

/** Which of a persona's memories a file's entries stand for: per entry, the memory's index or -1. */
function matchEntries(head: VectorsHead, persona: PersonaDef): number[] {
	const memories = persona.memories ?? [];
	const byId = new Map(memories.flatMap((m, i) => (m.id === undefined ? [] : [[m.id, i] as const])));
	return head.entries.map((e) => {
		const i = byId.get(e.id);
		return i !== undefined && textHash(memories[i].description).toString('hex') === e.hash ? i : -1;
	});
}

const UNUSED = 'its vectors are not used: the run embeds those memories with its own embedder';

/**
 * Checks one persona's vectors file (when it has one) against the persona, warning about what
 * cannot be used; answers where it is and its dimension when some of its vectors can be.
 */
export async function checkVectorFile(dir: string, stem: string, persona: PersonaDef | undefined, problems: ProblemList): Promise<{ abs: string; dimension: number } | undefined> {
	const rel = vectorsRel(stem);
	let head: VectorsHead;
	let abs: string;
	try {
		abs = await realInside(dir, rel, 'file');
		head = await readVectorsHead(abs);
	} catch (e) {
		// none; or a link out of the world, refused by the world's own check of links
		if (e instanceof ConfinedPathError && e.refusal !== 'kind') return undefined;
		problems.warn(rel, undefined, `${(e as Error).message}; ${UNUSED}`);
		return undefined;
	}
	if (head.persona !== stem) {
		problems.warn(rel, undefined, `holds the vectors of persona "${head.persona}", not of ${stem}; ${UNUSED}`);
		return undefined;
	}
	if (!persona) return undefined; // a persona file with errors says so itself
	const matched = matchEntries(head, persona);
	const off = matched.filter((i) => i < 0).length;
	if (off === head.entries.length) {
		if (off > 0) problems.warn(rel, undefined, `none of its ${off} vectors is of a memory of ${stem}.json (by id and text: the memories changed since the file was written); ${UNUSED}`);
		return undefined;
	}
	if (off)
		problems.warn(
			rel,
			undefined,
			`${off} of its ${head.entries.length} vectors are of no memory of ${stem}.json (by id and text: those memories changed since the file was written); the run embeds those memories with its own embedder`
		);
	return { abs, dimension: head.dimension };
}

/**
 * Checks the world's vectors files (`personas/*.vectors`) against its personas, warning about
 * each file or entry that cannot be used, and answers the reader a run starts with (undefined when
 * no file can be used). `personas` are the persona files read (by file name), `stems` every
 * persona file's name.
 */
export async function checkVectorFiles(dir: string, personas: ReadonlyMap<string, PersonaDef>, stems: readonly string[], problems: ProblemList): Promise<SeedVectors | undefined> {
	let names: string[];
	try {
		names = (await readdir(await realInside(dir, 'personas', 'directory'))).filter((n) => n.endsWith(VECTORS_EXT)).sort();
	} catch {
		return undefined; // no personas folder: said by the personas' reading
	}
	const usable = new Map<string, { abs: string; dimension: number }>();
	for (const name of names) {
		const stem = name.slice(0, -VECTORS_EXT.length);
		if (!stems.includes(stem)) {
			problems.warn(`personas/${name}`, undefined, `there is no persona ${stem}.json; the file is not used`);
			continue;
		}
		const file = await checkVectorFile(dir, stem, personas.get(stem), problems);
		if (file) usable.set(stem, file);
	}
	if (usable.size === 0) return undefined;
	return {
		// read when a run starts; any failure (the file changed since) gives no vectors
		async read(id, dimensions) {
			const file = usable.get(id);
			const persona = personas.get(id);
			if (!file || !persona || file.dimension !== dimensions) return undefined;
			try {
				const { head, vectorOf } = decodeVectors(await readFileCapped(file.abs, limits().maxSeedVectorBytes, LIMIT_ENV.maxSeedVectorBytes));
				if (head.persona !== id || head.dimension !== dimensions) return undefined;
				const matched = matchEntries(head, persona);
				const out: (Float32Array | undefined)[] = new Array((persona.memories ?? []).length).fill(undefined);
				head.entries.forEach((e, k) => {
					if (matched[k] >= 0) out[matched[k]] = vectorOf(e.id);
				});
				return out;
			} catch {
				return undefined;
			}
		}
	};
}
