// The limits on everything that comes from outside: map and tileset files, imported files,
// XML, JSON nesting, a world's JSON files and personas, compressed tile data and request
// bodies. Every reader checks them before it allocates, so a hostile file or request is
// refused with a clear message instead of exhausting memory (or the stack).
// Each limit can be set in the environment (README, "Security"); a value that is not a
// positive whole number is ignored with the default kept.

import { open, stat } from 'node:fs/promises';
import zlib from 'node:zlib';
import type { XmlLimits } from '../world/xml';
import { ConflictError } from './errors';

export interface Limits {
	/** tiles of a map summed over its tile layers (width x height x tile layers) */
	maxTiles: number;
	/** bytes of any one file read from a world or an import (maps, tilesets, images, JSON) */
	maxFileBytes: number;
	/** XML: bytes of one document, element nesting depth and number of elements */
	maxXmlBytes: number;
	maxXmlDepth: number;
	maxXmlElements: number;
	/** bytes of a request body (a map saved or checked by the editor may use `maxMapBodyBytes`) */
	maxBodyBytes: number;
	maxMapBodyBytes: number;
	/**
	 * JSON: how deep lists and objects may nest, in a world's JSON files and request bodies
	 * (a map the editor sends nests as its XML does: `jsonDepthOfMaps`)
	 */
	maxJsonDepth: number;
	/** bytes of one JSON file of a world: world.json, a persona, scenario.json, evaluation.json */
	maxWorldJsonBytes: number;
	/** seed memories one agent starts with: its persona's and the scenario's seeds for it */
	maxSeedMemories: number;
	/** bytes of one persona's seed-memory vectors (`personas/<id>.vectors`, binary) */
	maxSeedVectorBytes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
	maxTiles: 4_000_000,
	maxFileBytes: 64 * 1024 * 1024,
	maxXmlBytes: 64 * 1024 * 1024,
	maxXmlDepth: 64,
	maxXmlElements: 1_000_000,
	maxBodyBytes: 4 * 1024 * 1024,
	maxMapBodyBytes: 64 * 1024 * 1024,
	maxJsonDepth: 64,
	maxWorldJsonBytes: 4 * 1024 * 1024,
	maxSeedMemories: 1000,
	// 1,000 memories of 3,072 dimensions (the largest OpenAI embeddings) take 11.7 MiB
	maxSeedVectorBytes: 32 * 1024 * 1024
});

/** The environment variable of each limit. */
export const LIMIT_ENV: Readonly<Record<keyof Limits, string>> = Object.freeze({
	maxTiles: 'SIMULACRA_MAX_TILES',
	maxFileBytes: 'SIMULACRA_MAX_FILE_BYTES',
	maxXmlBytes: 'SIMULACRA_MAX_XML_BYTES',
	maxXmlDepth: 'SIMULACRA_MAX_XML_DEPTH',
	maxXmlElements: 'SIMULACRA_MAX_XML_ELEMENTS',
	maxBodyBytes: 'SIMULACRA_MAX_BODY_BYTES',
	maxMapBodyBytes: 'SIMULACRA_MAX_MAP_BODY_BYTES',
	maxJsonDepth: 'SIMULACRA_MAX_JSON_DEPTH',
	maxWorldJsonBytes: 'SIMULACRA_MAX_WORLD_JSON_BYTES',
	maxSeedMemories: 'SIMULACRA_MAX_SEED_MEMORIES',
	maxSeedVectorBytes: 'SIMULACRA_MAX_SEED_VECTOR_BYTES'
});

/** The limits in force: the defaults, each replaced by its environment variable when that is set. */
export function limits(env: Record<string, string | undefined> = process.env): Limits {
	const out = { ...DEFAULT_LIMITS };
	for (const key of Object.keys(LIMIT_ENV) as (keyof Limits)[]) {
		const raw = env[LIMIT_ENV[key]]?.trim();
		if (!raw) continue;
		const v = Number(raw);
		if (Number.isSafeInteger(v) && v > 0) out[key] = v;
	}
	return out;
}

export function xmlLimits(l: Limits = limits()): XmlLimits {
	return { maxBytes: l.maxXmlBytes, maxDepth: l.maxXmlDepth, maxElements: l.maxXmlElements };
}

/**
 * How deep the JSON of a map sent by the editor may nest: each level of its XML is an object and
 * its list of children, so twice the XML depth on top of the JSON depth.
 */
export function jsonDepthOfMaps(l: Limits = limits()): number {
	return l.maxJsonDepth + 2 * l.maxXmlDepth;
}

/** Where JSON text first nests past its limit: the offset of the bracket and its line and column. */
export interface JsonTooDeep {
	offset: number;
	line: number;
	column: number;
	/** the message, naming the limit and its variable */
	message: string;
}

/**
 * Checks how deep the lists and objects of JSON text nest, before anything parses it: one pass
 * over the text counting `[` and `{` outside strings, so text nested 100,000 deep costs no
 * more than its length (parsers, `JSON.stringify` and `structuredClone` recurse and overflow
 * the stack). Answers undefined when the text stays within `max`; malformed text is left to
 * the parser. Takes the text or its UTF-8 bytes (a request body as it arrived).
 */
export function jsonTooDeep(text: string | Uint8Array, max = limits().maxJsonDepth): JsonTooDeep | undefined {
	const code = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i];
	const at = scanDepth(text.length, code, max);
	if (at < 0) return undefined;
	let line = 1;
	let lineStart = 0;
	for (let i = 0; i < at; i++) {
		const c = code(i);
		if (c === 10) {
			line++;
			lineStart = i + 1;
		}
	}
	return {
		offset: at,
		line,
		column: at - lineStart + 1,
		message: `lists and objects nest deeper than the ${max} levels allowed (${LIMIT_ENV.maxJsonDepth})`
	};
}

// 34 ", 92 \, 91 [, 123 {, 93 ], 125 }: the same bytes in UTF-16 and UTF-8 (no byte of a
// multi-byte UTF-8 sequence is below 128), so both scans read the text the same way.
function scanDepth(length: number, code: (i: number) => number, max: number): number {
	let depth = 0;
	for (let i = 0; i < length; i++) {
		const c = code(i);
		if (c === 34) {
			for (i++; i < length; i++) {
				const d = code(i);
				if (d === 92) i++;
				else if (d === 34) break;
			}
		} else if (c === 91 || c === 123) {
			if (++depth > max) return i;
		} else if ((c === 93 || c === 125) && depth > 0) depth--;
	}
	return -1;
}

/** "64 MiB", "1.5 KiB", "200 bytes". */
export function formatBytes(n: number): string {
	if (n < 1024) return `${n} bytes`;
	const units = ['KiB', 'MiB', 'GiB'];
	let v = n / 1024;
	let u = 0;
	while (v >= 1024 && u < units.length - 1) {
		v /= 1024;
		u++;
	}
	return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[u]}`;
}

/**
 * A file refused before it was read: not a regular file, or larger than allowed (`reason`). A
 * request that needs it cannot be met while the file is so (`conflict`).
 */
export class FileLimitError extends ConflictError {
	constructor(readonly reason: string) {
		super(`a file was refused: ${reason}`);
		this.name = 'FileLimitError';
	}
}

/**
 * Reads a regular file of at most `max` bytes. Devices, pipes and folders are refused without
 * reading, and so is a file whose size is over the limit; the read itself stops at the limit,
 * so a file that grows meanwhile cannot pass it either.
 */
export async function readFileCapped(abs: string, max = limits().maxFileBytes, limitName = LIMIT_ENV.maxFileBytes): Promise<Buffer> {
	// checked before opening: opening a pipe would wait for a writer
	if (!(await stat(abs)).isFile()) throw new FileLimitError('it is not a regular file');
	const fh = await open(abs, 'r');
	try {
		const info = await fh.stat();
		if (!info.isFile()) throw new FileLimitError('it is not a regular file');
		if (info.size > max)
			throw new FileLimitError(`it is ${formatBytes(info.size)}, more than the ${formatBytes(max)} allowed (${limitName})`);
		const buf = Buffer.alloc(Math.min(info.size, max) + 1);
		let got = 0;
		for (;;) {
			const { bytesRead } = await fh.read(buf, got, buf.length - got, got);
			if (bytesRead === 0) break;
			got += bytesRead;
			if (got > max) throw new FileLimitError(`it is more than the ${formatBytes(max)} allowed (${limitName})`);
			if (got === buf.length) break;
		}
		return buf.subarray(0, got);
	} finally {
		await fh.close();
	}
}

export async function readTextCapped(abs: string, max = limits().maxFileBytes, limitName = LIMIT_ENV.maxFileBytes): Promise<string> {
	return (await readFileCapped(abs, max, limitName)).toString('utf8');
}

/**
 * Inflates zlib or gzip data to at most `max` bytes. Decompression stops as soon as the output
 * would pass the cap, so a small "zip bomb" costs no more than `max` bytes of memory.
 */
export function inflateCapped(
	data: Uint8Array,
	kind: 'zlib' | 'gzip',
	max: number
): { bytes: Buffer } | { error: string } {
	try {
		const opts = { maxOutputLength: Math.max(1, max) };
		const bytes = kind === 'zlib' ? zlib.inflateSync(data, opts) : zlib.gunzipSync(data, opts);
		return { bytes };
	} catch (e) {
		const code = (e as NodeJS.ErrnoException).code;
		if (code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError)
			return { error: `it decompresses to more than the ${formatBytes(max)} the layer's tiles take` };
		return { error: (e as Error).message };
	}
}

/** Image types a tileset or image layer may use, told by their first bytes. */
export function imageTypeOf(head: Uint8Array): 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp' | undefined {
	const b = head;
	if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a)
		return 'png';
	if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
	if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61)
		return 'gif';
	if (b.length >= 12 && String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP') return 'webp';
	if (b.length >= 2 && b[0] === 0x42 && b[1] === 0x4d) return 'bmp';
	return undefined;
}

/** The first `n` bytes of a file. */
export async function readHead(abs: string, n = 16): Promise<Buffer> {
	if (!(await stat(abs)).isFile()) throw new FileLimitError('it is not a regular file');
	const fh = await open(abs, 'r');
	try {
		const buf = Buffer.alloc(n);
		const { bytesRead } = await fh.read(buf, 0, n, 0);
		return buf.subarray(0, bytesRead);
	} finally {
		await fh.close();
	}
}
