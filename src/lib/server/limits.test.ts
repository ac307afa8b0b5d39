// The limits on outside data: settable from the environment, files refused before they are
// read, inflation stopped at its cap, images told by their bytes.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, FileLimitError, formatBytes, imageTypeOf, inflateCapped, jsonDepthOfMaps, jsonTooDeep, limits, readFileCapped, readTextCapped } from './limits';

const dir = mkdtempSync(path.join(tmpdir(), 'limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('limits', () => {
	it('are the defaults unless the environment sets a positive whole number', () => {
		expect(limits({})).toEqual(DEFAULT_LIMITS);
		const l = limits({ SIMULACRA_MAX_TILES: '1000', SIMULACRA_MAX_FILE_BYTES: ' 2048 ', SIMULACRA_MAX_XML_DEPTH: '-3', SIMULACRA_MAX_BODY_BYTES: 'lots' });
		expect(l.maxTiles).toBe(1000);
		expect(l.maxFileBytes).toBe(2048);
		expect(l.maxXmlDepth).toBe(DEFAULT_LIMITS.maxXmlDepth);
		expect(l.maxBodyBytes).toBe(DEFAULT_LIMITS.maxBodyBytes);
	});

	it('formats sizes for messages', () => {
		expect([formatBytes(200), formatBytes(1536), formatBytes(64 * 1024 * 1024)]).toEqual(['200 bytes', '1.5 KiB', '64 MiB']);
	});
});

describe('jsonTooDeep', () => {
	it('counts lists and objects outside strings, in text and in UTF-8 bytes alike', () => {
		const cases: [string, number, number | undefined][] = [
			['[[[]]]', 3, undefined],
			['[[[[]]]]', 3, 4],
			['{"a":{"b":[1,{"c":2}]}}', 3, 14],
			// brackets in strings, escaped quotes and backslashes, multi-byte text
			['["[[[[", "\\"[[[[", {"é[ü": "\\\\"}, [[1]]]', 3, undefined],
			['["\\\\", [[[[]]]]]', 3, 10],
			['{"x": "ü"}\n  [[[[', 3, 6]
		];
		for (const [text, max, column] of cases) {
			const found = jsonTooDeep(text, max);
			expect(found?.column, text).toBe(column);
			expect(jsonTooDeep(new TextEncoder().encode(text), max)?.offset, text).toBe(column === undefined ? undefined : Buffer.byteLength(text.slice(0, found!.offset)));
		}
		expect(jsonTooDeep('{"x": "ü"}\n  [[[[', 3)).toEqual({
			offset: 16,
			line: 2,
			column: 6,
			message: 'lists and objects nest deeper than the 3 levels allowed (SIMULACRA_MAX_JSON_DEPTH)'
		});
	});

	it('reads text nested 10 million deep in one pass, quickly', () => {
		const text = '['.repeat(10_000_000);
		const t = performance.now();
		expect(jsonTooDeep(text)?.offset).toBe(64);
		expect(jsonTooDeep(text, 20_000_000)).toBeUndefined();
		expect(performance.now() - t).toBeLessThan(1000);
	});

	it('allows a map two levels for each level of its XML', () => {
		expect(jsonDepthOfMaps(limits({}))).toBe(64 + 2 * 64);
		expect(jsonDepthOfMaps(limits({ SIMULACRA_MAX_JSON_DEPTH: '10', SIMULACRA_MAX_XML_DEPTH: '5' }))).toBe(20);
	});
});

describe('readFileCapped', () => {
	it('reads a file up to the limit and refuses a larger one before reading it', async () => {
		const f = path.join(dir, 'ten.txt');
		writeFileSync(f, '0123456789');
		expect(await readTextCapped(f, 10)).toBe('0123456789');
		const err = await readFileCapped(f, 9).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(FileLimitError);
		expect((err as FileLimitError).reason).toBe('it is 10 bytes, more than the 9 bytes allowed (SIMULACRA_MAX_FILE_BYTES)');
	});

	it('refuses devices, pipes and folders without waiting on them', async () => {
		const fifo = path.join(dir, 'pipe');
		spawnSync('mkfifo', [fifo]);
		for (const p of ['/dev/zero', fifo, dir]) {
			const t = performance.now();
			const err = await readFileCapped(p).catch((e: unknown) => e);
			expect((err as FileLimitError).reason, p).toBe('it is not a regular file');
			expect((err as FileLimitError).message, p).toBe('a file was refused: it is not a regular file');
			expect(performance.now() - t).toBeLessThan(500);
		}
	});
});

describe('inflateCapped', () => {
	it('stops at the cap', () => {
		const bomb = zlib.deflateSync(Buffer.alloc(64 * 1024 * 1024));
		expect(bomb.length).toBeLessThan(100 * 1024);
		const t = performance.now();
		expect(inflateCapped(bomb, 'zlib', 4096)).toEqual({ error: "it decompresses to more than the 4 KiB the layer's tiles take" });
		expect(performance.now() - t).toBeLessThan(500);
		const ok = inflateCapped(zlib.gzipSync(Buffer.from('abcd')), 'gzip', 4);
		expect('bytes' in ok && ok.bytes.toString()).toBe('abcd');
		expect(inflateCapped(Buffer.from('not zlib'), 'zlib', 100)).toEqual({ error: 'incorrect header check' });
	});
});

it('tells images by their first bytes', () => {
	const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
	expect(imageTypeOf(png)).toBe('png');
	expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
	expect(imageTypeOf(Buffer.from('GIF89a'))).toBe('gif');
	expect(imageTypeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
	expect(imageTypeOf(Buffer.from('root:x:0:0:root:/root:/bin/bash'))).toBeUndefined();
	expect(imageTypeOf(Buffer.alloc(0))).toBeUndefined();
});
