import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fnv1a32, sha256Hex } from './hash';

const node = (s: string) => createHash('sha256').update(s).digest('hex');

describe('sha256Hex', () => {
	it('matches the known digest of the empty string and "abc"', () => {
		expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
		expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
	});

	it('agrees with node:crypto across block boundaries and non-ASCII text', () => {
		for (let n = 0; n < 140; n++) {
			const s = 'x'.repeat(n);
			expect(sha256Hex(s), `length ${n}`).toBe(node(s));
		}
		for (const s of ['héllo wörld', '日本語のテキスト', '🎉 party at 5 pm', 'line\nbreak\r\n']) expect(sha256Hex(s)).toBe(node(s));
	});

	it('hashes raw bytes', () => {
		expect(sha256Hex(new Uint8Array([1, 2, 3]))).toBe(createHash('sha256').update(Buffer.from([1, 2, 3])).digest('hex'));
	});
});

describe('fnv1a32', () => {
	it('is the standard 32-bit FNV-1a', () => {
		expect(fnv1a32('')).toBe(0x811c9dc5);
		expect(fnv1a32('a')).toBe(0xe40c292c);
		expect(fnv1a32('foobar')).toBe(0xbf9cf968);
	});
});
