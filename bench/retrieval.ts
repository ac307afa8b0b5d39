// Retrieval latency over one agent's stream: exact scoring of every memory (recency,
// importance, relevance, min-max normalised), then top-k. Relevance uses the WebAssembly SIMD
// kernel (simd.ts); one extra row measures the plain JavaScript fallback for runtimes without it.

import { MemoryStream, selectTop } from '../src/lib/engine/memory';
import { rngFor } from '../src/lib/engine/rng';
import type { VectorBackend } from '../src/lib/engine/simd';

const SETTINGS = { weights: { recency: 1, importance: 1, relevance: 1 }, decay: 0.995 };

function unitVector(rand: () => number, dim: number): Float32Array {
	const v = new Float32Array(dim);
	let norm = 0;
	for (let d = 0; d < dim; d++) {
		v[d] = rand() - 0.5;
		norm += v[d] * v[d];
	}
	norm = Math.sqrt(norm);
	for (let d = 0; d < dim; d++) v[d] /= norm;
	return v;
}

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

export async function benchRetrieval(): Promise<{ bench: string; figure: string; value: string }[]> {
	const rows = [];
	const cases: { dim: number; size: number; backend?: VectorBackend }[] = [
		{ dim: 256, size: 10_000 },
		{ dim: 256, size: 100_000 },
		{ dim: 1536, size: 10_000 },
		{ dim: 1536, size: 100_000 },
		{ dim: 1536, size: 10_000, backend: 'scalar' }
	];
	for (const { dim, size, backend } of cases) {
		const rand = rngFor(1, 'bench', dim, size);
		const stream = new MemoryStream('bench', dim, size, backend);
		const v = new Float32Array(dim);
		for (let i = 0; i < size; i++) {
			// cheap distinct vectors: a random unit vector every 64 memories, perturbed
			if (i % 64 === 0) v.set(unitVector(rand, dim));
			v[i % dim] += 0.01;
			stream.add({ kind: 'observation', description: '', created: i * 10_000, step: i, importance: 1 + (i % 10), embedding: v });
		}
		const now = size * 10_000;
		const times: number[] = [];
		for (let r = 0; r < 40; r++) {
			const q = unitVector(rand, dim);
			const t0 = performance.now();
			const col = stream.columns(q, now, SETTINGS);
			const top = selectTop(col.score, 30, (p) => p);
			stream.touch(top, now);
			times.push(performance.now() - t0);
		}
		times.sort((a, b) => a - b);
		rows.push({
			bench: `retrieval over one stream, ${size.toLocaleString('en')} memories x ${dim} dimensions (top 30)${backend === 'scalar' ? ', JavaScript fallback without WebAssembly SIMD' : ''}`,
			figure: 'p50 / p95',
			value: `${percentile(times, 0.5).toFixed(1)} ms / ${percentile(times, 0.95).toFixed(1)} ms`
		});
	}
	return rows;
}
