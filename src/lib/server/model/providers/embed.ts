// The offline embedder: signed feature hashing of words, word pairs and character trigrams into
// 256 dimensions, unit length.
//
// Why this and not pretrained vectors: a word-vector package that works offline was considered
// and rejected; at 307 MB it is too large to load for a default that must start instantly in
// tests, CI and the server. Hashing needs no data file, is fully deterministic across machines,
// embeds tens of thousands of short texts per second, and gives what retrieval in the memory
// stream mostly needs: memories that share words (or word pieces, through the trigrams:
// "party"/"parties") with the query score higher than those that do not. It knows no synonyms;
// a real embedding model does, through the gateway.

import { fnv1a32 } from '../../../prompts/hash';
import { contentWords } from './text';

export const OFFLINE_DIMENSIONS = 256;

const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.35;

const WORD_SEED = fnv1a32('w:');
const BIGRAM_SEED = fnv1a32('b:');
const TRIGRAM_SEED = fnv1a32('t:');

function add(v: Float32Array, hash: number, weight: number): void {
	// Low bit picks the sign, the rest the slot: colliding features then cancel on average.
	const slot = (hash >>> 1) % v.length;
	v[slot] += hash & 1 ? weight : -weight;
}

/** FNV-1a of the characters of `text` from `start` to `end`, continuing from `seed`. */
function fnvRange(text: string, start: number, end: number, seed: number): number {
	let h = seed;
	for (let i = start; i < end; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

/** Embeds one text. Texts without any content word get a fixed unit vector of their own. */
export function hashEmbed(text: string, dims = OFFLINE_DIMENSIONS): Float32Array {
	const v = new Float32Array(dims);
	const tokens = contentWords(text);
	for (let i = 0; i < tokens.length; i++) {
		const w = tokens[i];
		add(v, fnv1a32(w, WORD_SEED), WORD_WEIGHT);
		if (i > 0) add(v, fnv1a32(w, fnv1a32(' ', fnv1a32(tokens[i - 1], BIGRAM_SEED))), BIGRAM_WEIGHT);
		// Character trigrams of "<word>", hashed in place without building substrings.
		const padded = '<' + w + '>';
		for (let j = 0; j + 3 <= padded.length; j++) add(v, fnvRange(padded, j, j + 3, TRIGRAM_SEED), TRIGRAM_WEIGHT);
	}
	let norm = 0;
	for (let i = 0; i < dims; i++) norm += v[i] * v[i];
	if (norm === 0) {
		add(v, fnv1a32('empty'), 1);
		norm = 1;
	}
	const scale = 1 / Math.sqrt(norm);
	for (let i = 0; i < dims; i++) v[i] *= scale;
	return v;
}

export function cosine(a: Float32Array, b: Float32Array): number {
	let dot = 0;
	for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
	return dot;
}
