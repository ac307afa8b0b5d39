// Seeded, counter-free randomness: every random choice is derived from (seed, labels), so no
// generator state has to be saved in snapshots and no call order can change a run.

/** 32-bit FNV-1a over a string, then avalanche-mixed. */
export function hash32(text: string, seed = 0x811c9dc5): number {
	let h = seed >>> 0;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return h >>> 0;
}

/** mulberry32: a tiny, fast seeded generator of numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A stream seeded from the run seed and any labels (step, agent, purpose...). */
export function rngFor(seed: number, ...labels: (string | number)[]): () => number {
	return mulberry32(hash32(labels.join('|'), hash32(String(seed))));
}
