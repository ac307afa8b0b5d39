import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOUR } from './clock';
import { MemoryStream, selectTop } from './memory';
import { KERNEL_WASM, VectorTable, dotScalar, paddedStride, simdSupported, type VectorBackend } from './simd';

/** A small deterministic generator of floats in [-1, 1). */
function floats(seed: number): () => number {
	let x = seed >>> 0;
	return () => {
		x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
		return x / 2 ** 31 - 1;
	};
}

function randomVectors(rand: () => number, count: number, dim: number): Float32Array[] {
	return Array.from({ length: count }, () => Float32Array.from({ length: dim }, rand));
}

/** The dot product in float64, and the sum of |a_k b_k| that bounds its rounding error. */
function naiveDot(a: Float32Array, b: Float32Array): { dot: number; magnitude: number } {
	let dot = 0;
	let magnitude = 0;
	for (let k = 0; k < a.length; k++) {
		dot += a[k] * b[k];
		magnitude += Math.abs(a[k] * b[k]);
	}
	return { dot, magnitude };
}

function table(backend: VectorBackend, dim: number, vectors: Float32Array[], capacity = 1): VectorTable {
	const t = new VectorTable(dim, capacity, backend);
	vectors.forEach((v, i) => {
		t.reserve(i + 1);
		t.set(i, v);
	});
	return t;
}

const DIMS = [1, 3, 4, 5, 7, 15, 16, 17, 64, 100, 256, 1536];

describe('SIMD dot-product kernel', () => {
	it('is a valid WebAssembly module, and this runtime runs it', () => {
		expect(Array.from(KERNEL_WASM.subarray(0, 4))).toEqual([0x00, 0x61, 0x73, 0x6d]);
		expect(WebAssembly.validate(KERNEL_WASM)).toBe(true);
		expect(simdSupported()).toBe(true);
		expect(new VectorTable(8, 4).backend).toBe('simd');
	});

	it('pads rows to a multiple of 4 floats', () => {
		expect([1, 3, 4, 5, 100, 1536].map(paddedStride)).toEqual([4, 4, 4, 8, 100, 1536]);
	});

	it('matches a naive dot product on random data, for any dimension and row count', () => {
		for (const dim of DIMS) {
			const rand = floats(dim);
			const count = dim >= 1000 ? 9 : 37; // odd: the last row goes through the one-row path
			const vectors = randomVectors(rand, count, dim);
			const query = Float32Array.from({ length: dim }, rand);
			const t = table('simd', dim, vectors);
			const out = new Float64Array(count);
			t.dots(query, count, out);
			for (let i = 0; i < count; i++) {
				const { dot, magnitude } = naiveDot(vectors[i], query);
				// f32 accumulation: relative error well under 1e-5 of the summed magnitudes
				expect(Math.abs(out[i] - dot), `dim ${dim}, row ${i}`).toBeLessThanOrEqual(1e-5 * magnitude + 1e-30);
				expect(out[i]).toBe(Math.fround(out[i]));
			}
		}
	});

	it('the scalar fallback gives the same bits as the kernel', () => {
		for (const dim of DIMS) {
			const rand = floats(100 + dim);
			const count = 12;
			const vectors = randomVectors(rand, count, dim);
			const query = Float32Array.from({ length: dim }, rand);
			const simd = new Float64Array(count);
			const scalar = new Float64Array(count);
			table('simd', dim, vectors).dots(query, count, simd);
			table('scalar', dim, vectors).dots(query, count, scalar);
			expect(Array.from(scalar), `dim ${dim}`).toEqual(Array.from(simd));
			// and dotScalar over a padded copy is that same order of operations
			const stride = paddedStride(dim);
			const padded = new Float32Array(stride);
			const q = new Float32Array(stride);
			padded.set(vectors[3]);
			q.set(query);
			expect(dotScalar(padded, 0, q, stride)).toBe(simd[3]);
		}
	});

	it('scores listed rows (any order, repeats) as it scores them in sequence', () => {
		for (const backend of ['simd', 'scalar'] as const) {
			const rand = floats(7);
			const vectors = randomVectors(rand, 20, 100);
			const query = Float32Array.from({ length: 100 }, rand);
			const t = table(backend, 100, vectors);
			const all = new Float64Array(20);
			t.dots(query, 20, all);
			const list = [19, 0, 7, 7, 3, 12, 1];
			const some = new Float64Array(list.length);
			t.dotsAt(query, list, some);
			expect(Array.from(some)).toEqual(list.map((i) => all[i]));
			expect(() => t.dotsAt(query, [0, 20_000], some)).toThrow(/row 20000 \(at position 1\)/);
			expect(() => t.dots(new Float32Array(99), 1, all)).toThrow(/99 dimensions, expected 100/);
		}
	});

	it('keeps rows and clean padding when the memory grows over its scratch areas', () => {
		// dim 5 pads to 8. Rows with a NaN give NaN results, which sit in the result area just past
		// the rows until growth turns that area into new rows: their padding must not keep them.
		const rand = floats(5);
		const dim = 5;
		const t = new VectorTable(dim, 1, 'simd');
		const poisoned = (i: number) => i % 8 >= 5;
		const vectors = randomVectors(rand, 300, dim).map((v, i) => (poisoned(i) ? v.fill(NaN, 0, 1) : v));
		const query = Float32Array.from({ length: dim }, rand);
		const out = new Float64Array(300);
		for (let i = 0; i < vectors.length; i++) {
			t.reserve(i + 1);
			t.set(i, vectors[i]);
			t.dots(query, i + 1, out); // fills the query and result areas just past the rows
		}
		expect(t.capacity).toBeGreaterThanOrEqual(300);
		for (let i = 0; i < vectors.length; i++) {
			expect(Array.from(t.row(i))).toEqual(Array.from(vectors[i]));
			if (poisoned(i)) expect(out[i]).toBeNaN();
			else expect(Math.abs(out[i] - naiveDot(vectors[i], query).dot), `row ${i}`).toBeLessThan(1e-5);
		}
	});
});

describe('memory stream on either kernel', () => {
	const settings = { weights: { recency: 1, importance: 1, relevance: 1 }, decay: 0.995 };

	function fill(backend: VectorBackend, dim: number, count: number): MemoryStream {
		const rand = floats(dim * 31 + count);
		const s = new MemoryStream('a', dim, 2, backend); // tiny capacity: many growths
		for (let i = 0; i < count; i++) {
			const embedding = Float32Array.from({ length: dim }, rand);
			s.add({ kind: 'observation', description: `m${i}`, created: i * HOUR, step: i, importance: 1 + (i % 9), embedding });
		}
		return s;
	}

	it('both kernels give the same scores and the same selection', () => {
		for (const dim of [3, 64, 1536]) {
			const a = fill('simd', dim, 203);
			const b = fill('scalar', dim, 203);
			expect([a.backend, b.backend]).toEqual(['simd', 'scalar']);
			const query = Float32Array.from({ length: dim }, floats(dim));
			const now = 300 * HOUR;
			const ca = a.columns(query, now, settings);
			const cb = b.columns(query, now, settings);
			for (let i = 0; i < ca.score.length; i++) expect(Math.abs(ca.score[i] - cb.score[i])).toBeLessThanOrEqual(1e-5);
			expect(Array.from(ca.relevance)).toEqual(Array.from(cb.relevance)); // in fact bit for bit
			expect(selectTop(ca.score, 30, (p) => p)).toEqual(selectTop(cb.score, 30, (p) => p));
			// candidates and replayed access times take the listed-rows path
			const candidates = [200, 5, 17, 99, 0, 150];
			const access = (i: number) => i * HOUR + 7;
			const la = a.columns(query, now, settings, candidates, access);
			const lb = b.columns(query, now, settings, candidates, access);
			expect(Array.from(la.score)).toEqual(Array.from(lb.score));
			expect(Array.from(la.relevance)).toEqual(candidates.map((i) => ca.relevance[i]));
		}
	});

	it('the score table equals the columns a retrieval used', () => {
		const s = fill('simd', 100, 50);
		const query = Float32Array.from({ length: 100 }, floats(1));
		s.touch([3, 9], 60 * HOUR);
		const col = s.columns(query, 70 * HOUR, settings);
		const rows = s.score(query, 70 * HOUR, settings);
		expect(rows.map((r) => r.score)).toEqual(Array.from(col.score));
		expect(rows.map((r) => r.relevance)).toEqual(Array.from(col.relevance));
	});

	it('embeddings stay valid views of the stored vectors after the memory grows', () => {
		const rand = floats(9);
		const dim = 1536; // large enough for growth to need new pages, which replaces the buffer
		const s = new MemoryStream('a', dim, 1);
		const added = [];
		const copies: Float32Array[] = [];
		for (let i = 0; i < 64; i++) {
			const embedding = Float32Array.from({ length: dim }, rand);
			copies.push(embedding.slice());
			added.push(s.add({ kind: 'thought', description: '', created: 0, step: 0, importance: 1, embedding }));
		}
		// re-adding a stored embedding just as the memory grows (64 -> 128) copies it before the buffer moves
		const again = s.add({ kind: 'thought', description: '', created: 0, step: 0, importance: 1, embedding: s.records[4].embedding });
		copies.push(copies[4]);
		expect(s.size).toBe(65);
		for (let i = 0; i < s.size; i++) {
			const e = s.records[i].embedding;
			expect(e).toBeInstanceOf(Float32Array);
			expect(e.length).toBe(dim);
			expect(Array.from(e)).toEqual(Array.from(copies[i]));
		}
		expect(added[0]).toBe(s.records[0]);
		expect(again.embedding.buffer).toBe(s.records[0].embedding.buffer);
	});

	it('rejects a query of the wrong size and candidates outside the stream', () => {
		const s = fill('simd', 8, 5);
		expect(() => s.columns(new Float32Array(7), 0, settings)).toThrow(/memory stream of a: the query has 7 dimensions, expected 8/);
		expect(() => s.columns(new Float32Array(8), 0, settings, [0, 5])).toThrow(/candidate 5 \(at position 1\) is not one of its 5 memories/);
	});
});

describe('runtimes without WebAssembly SIMD', () => {
	afterEach(() => {
		vi.unstubAllGlobals();
		vi.resetModules();
	});

	const noSimd = {
		'the module does not validate': { ...WebAssembly, validate: () => false },
		'compiling is forbidden (a content security policy)': {
			...WebAssembly,
			Module: function () {
				throw new WebAssembly.CompileError('Wasm code generation disallowed by embedder');
			}
		}
	};
	for (const [why, stub] of Object.entries(noSimd)) {
		it(`fall back to the JavaScript kernel when ${why}`, async () => {
			vi.stubGlobal('WebAssembly', stub);
			vi.resetModules();
			const fresh = await import('./memory');
			const freshSimd = await import('./simd');
			expect(freshSimd.simdSupported()).toBe(false);
			const s = new fresh.MemoryStream('a', 16);
			expect(s.backend).toBe('scalar');
			expect(() => new freshSimd.VectorTable(16, 1, 'simd')).toThrow(/no WebAssembly SIMD/);
			const e = Float32Array.from({ length: 16 }, (_, k) => k / 16);
			s.add({ kind: 'thought', description: '', created: 0, step: 0, importance: 1, embedding: e });
			const col = s.columns(e, 0, { weights: { recency: 0, importance: 0, relevance: 1 }, decay: 0.99 });
			expect(col.relevance[0]).toBeCloseTo(naiveDot(e, e).dot, 5);
		});
	}
});
