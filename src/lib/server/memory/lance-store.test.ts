import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MEMORY_SOURCES, type MemoryKind, type MemoryRecord } from '../../engine/memory';
import { Simulation, type Snapshot } from '../../engine/sim';
import { createTestWorld, scriptedModel } from '../../engine/testing';
import { COMPACT_ABOVE_FRAGMENTS, MemoryStore, maxIndexFromSizes } from './lance-store';

const dirs: string[] = [];
const stores: MemoryStore[] = [];
afterEach(() => {
	for (const s of stores.splice(0)) s.close();
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function runDir(): string {
	const d = mkdtempSync(path.join(tmpdir(), 'simulacra-lance-'));
	dirs.push(d);
	return d;
}

async function open(dir: string, dims: number): Promise<MemoryStore> {
	const s = await MemoryStore.open(dir, dims);
	stores.push(s);
	return s;
}

/** A deterministic pseudo-random vector (xorshift), optionally scaled to unit length. */
function vector(seed: number, dims: number, unit = false): Float32Array {
	const v = new Float32Array(dims);
	let x = (seed * 2654435761) >>> 0 || 1;
	for (let i = 0; i < dims; i++) {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		v[i] = ((x >>> 0) / 2 ** 32) * 2 - 1;
	}
	if (unit) {
		const n = Math.hypot(...v);
		for (let i = 0; i < dims; i++) v[i] /= n;
	}
	return v;
}

const KINDS: MemoryKind[] = ['observation', 'reflection', 'plan', 'conversation', 'thought'];

function record(agent: string, index: number, dims: number, extra: Partial<MemoryRecord> = {}): MemoryRecord {
	return {
		id: `${agent}/m${index}`,
		agent,
		index,
		kind: KINDS[index % KINDS.length],
		source: MEMORY_SOURCES[(index + agent.length) % MEMORY_SOURCES.length],
		description: `${agent} memory ${index}`,
		created: 1_700_000_000_000 + index * 10_000.25,
		step: index * 3,
		importance: 1 + (index % 9) + 0.1,
		embedding: vector(index * 31 + agent.length, dims),
		...extra
	};
}

function bytes(v: Float32Array): Uint8Array {
	return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

function withoutEmbedding(r: MemoryRecord): Omit<MemoryRecord, 'embedding'> {
	const { embedding: _e, ...rest } = r;
	return rest;
}

function expectSameRecords(actual: MemoryRecord[], expected: MemoryRecord[]): void {
	expect(actual.map(withoutEmbedding)).toStrictEqual(expected.map(withoutEmbedding));
	actual.forEach((r, i) => expect(bytes(r.embedding)).toEqual(bytes(expected[i].embedding)));
}

describe('MemoryStore', () => {
	it('round-trips every field, embeddings bit for bit, across reopening', async () => {
		const dir = runDir();
		const dims = 16;
		const odd = vector(7, dims);
		odd[0] = -0;
		odd[1] = 1.4e-45; // the smallest subnormal
		odd[2] = 3.4028234663852886e38;
		odd[3] = -Infinity;
		odd[4] = 1 / 3;
		const records: MemoryRecord[] = [
			record('ann', 0, dims, { embedding: odd, description: `It's "quoted", ünïcödé 🙂\nand multi-line` }),
			record('ann', 1, dims, { kind: 'reflection', evidence: ['ann/m0', "o'brien/m0"] }),
			record('ann', 2, dims, { kind: 'reflection', evidence: [] }),
			record('ann', 3, dims, { kind: 'plan', plan: { address: 'town:cafe:counter', start: 1_700_000_001_000.5, minutes: 45 } }),
			record('ann', 4, dims, { kind: 'conversation', with: "o'brien" }),
			record("o'brien", 0, dims, { created: 0.1 + 0.2, importance: 1 / 3, step: 0 })
		];
		const store = await open(dir, dims);
		expect(process.env.LANCEDB_LOG).toBeTruthy();
		await store.append(records);
		expect(await store.count()).toBe(records.length);
		const sorted = [...records].sort((a, b) => (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : a.index - b.index));
		expectSameRecords(await store.load(), sorted);
		store.close();
		await expect(store.count()).rejects.toThrow(/is closed/);
		await expect(store.append(records)).rejects.toThrow(/is closed/);

		const again = await open(dir, dims);
		const loaded = await again.load();
		expectSameRecords(loaded, sorted);
		expect(loaded[0].embedding).toBeInstanceOf(Float32Array);
		expect(Object.is(loaded[0].embedding[0], -0)).toBe(true);
		expect(loaded[0].embedding[3]).toBe(-Infinity);
		// absent optional fields stay absent (not undefined), as the engine creates them
		expect('evidence' in loaded[0]).toBe(false);
		expect(loaded[2].evidence).toEqual([]);
	});

	it('restores a simulation from the store to the same state hash', async () => {
		const world = createTestWorld();
		const model = scriptedModel();
		const { sim, output } = await Simulation.create(world, { seed: 3 }, model);
		const store = await open(runDir(), model.dimensions);
		// the runner's pattern: buffer committed memories, write them before each snapshot
		let pending: MemoryRecord[] = [...output.memories];
		let snap: Snapshot | null = null;
		let hashAtSnap = '';
		for (let i = 0; i < 90; i++) {
			const out = await sim.step([], model);
			pending.push(...out.memories);
			if (sim.state.step === 60) {
				await store.append(pending);
				pending = [];
				snap = JSON.parse(JSON.stringify(sim.snapshot())) as Snapshot;
				hashAtSnap = hash(sim);
			}
		}
		await store.append(pending);
		const total = [...sim.streams.values()].reduce((n, s) => n + s.size, 0);
		expect(await store.count()).toBe(total);
		expect(snap).not.toBeNull();
		const asOfSnap = await store.load({ maxIndexByAgent: maxIndexFromSizes((snap as Snapshot).memory) });
		expect(asOfSnap.length).toBeLessThan(total);
		const restored = Simulation.restore(world, snap as Snapshot, asOfSnap, model.dimensions);
		expect(hash(restored)).toBe(hashAtSnap);
		const latest = Simulation.restore(world, sim.snapshot(), await store.load(), model.dimensions);
		expect(hash(latest)).toBe(hash(sim));
	});

	it('skips records it already holds, within a batch, across batches and after reopening', async () => {
		const dir = runDir();
		const dims = 8;
		const a = [0, 1, 2, 3].map((i) => record('ann', i, dims));
		const b = [2, 3, 4, 5].map((i) => record('ann', i, dims));
		const store = await open(dir, dims);
		await store.append([...a, a[0], a[1]]);
		expect(await store.count()).toBe(4);
		await Promise.all([store.append(b), store.append(b)]);
		expect(await store.count()).toBe(6);
		await store.append([]);
		store.close();

		const again = await open(dir, dims);
		// a resumed run replays and appends the same records again
		await again.append([...a, ...b, record('ann', 6, dims)]);
		expect(await again.count()).toBe(7);
		expect((await again.load()).map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
	});

	it("loads the stream as of a step: each agent's first memories", async () => {
		const dims = 4;
		const store = await open(runDir(), dims);
		// appended interleaved, in several batches, as steps produce them
		for (let i = 0; i < 10; i += 2) {
			await store.append(['cy', 'ann', 'bo', 'dee'].flatMap((agent) => [record(agent, i, dims), record(agent, i + 1, dims)]));
		}
		const ids = (rs: MemoryRecord[]) => rs.map((r) => r.id);
		const asOf = await store.load({ maxIndexByAgent: { ann: 3, bo: -1, cy: 9 } });
		expect(ids(asOf)).toEqual([...[0, 1, 2, 3].map((i) => `ann/m${i}`), ...Array.from({ length: 10 }, (_, i) => `cy/m${i}`)]);
		expect(ids(await store.load({ agent: 'ann', maxIndexByAgent: { ann: 1, cy: 5 } }))).toEqual(['ann/m0', 'ann/m1']);
		expect(await store.load({ agent: 'dee', maxIndexByAgent: { ann: 1 } })).toEqual([]);
		expect(await store.load({ maxIndexByAgent: {} })).toEqual([]);
		expect(ids(await store.load({ agent: 'bo' }))).toEqual(Array.from({ length: 10 }, (_, i) => `bo/m${i}`));
		expect(await store.load()).toHaveLength(40);
		expect(maxIndexFromSizes({ ann: { size: 4 }, bo: { size: 0 } })).toEqual({ ann: 3, bo: -1 });
	});

	it('searches one agent by cosine distance, nearest first', async () => {
		const dims = 32;
		const store = await open(runDir(), dims);
		const ann = Array.from({ length: 50 }, (_, i) => record('ann', i, dims, { embedding: vector(1000 + i, dims, true) }));
		const query = vector(5, dims, true);
		// bo's memories point the query's way: a filter applied after the search would return them
		const bo = Array.from({ length: 50 }, (_, i) => {
			const v = query.map((q, k) => q + 0.01 * vector(2000 + i, dims)[k]);
			const n = Math.hypot(...v);
			return record('bo', i, dims, { embedding: v.map((x) => x / n) });
		});
		await store.append([...ann, ...bo]);
		const hits = await store.search('ann', query, 5);
		const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, k) => s + x * b[k], 0);
		const expected = ann
			.map((r) => ({ id: r.id, distance: 1 - dot(r.embedding, query) }))
			.sort((a, b) => a.distance - b.distance)
			.slice(0, 5);
		expect(hits.map((h) => h.id)).toEqual(expected.map((e) => e.id));
		hits.forEach((h, i) => {
			expect(h.distance).toBeCloseTo(expected[i].distance, 5);
			expect(h.description).toBe(`ann memory ${h.id.slice(5)}`);
		});
		expect((await store.search('bo', query, 3)).every((h) => h.distance < 0.01)).toBe(true);
		expect(await store.search('nobody', query, 3)).toEqual([]);
		expect(await store.search('ann', query, 0)).toEqual([]);
		await expect(store.search('ann', new Float32Array(3), 1)).rejects.toThrow(/3 dimensions, the store 32/);
	});

	it('gets records by id in the order asked', async () => {
		const dims = 4;
		const store = await open(runDir(), dims);
		const records = [...Array.from({ length: 20 }, (_, i) => record('ann', i, dims)), record("o'brien", 0, dims)];
		await store.append(records);
		const got = await store.byIds(['ann/m7', "o'brien/m0", 'missing/m1', 'ann/m2', 'ann/m7']);
		expectSameRecords(got, [records[7], records[20], records[2]]);
		expect(await store.byIds([])).toEqual([]);
	});

	it('truncates to per-agent max indices', async () => {
		const dims = 4;
		const store = await open(runDir(), dims);
		await store.append(['ann', 'bo', 'cy'].flatMap((a) => [0, 1, 2, 3].map((i) => record(a, i, dims))));
		expect(await store.truncate({ ann: 1, bo: 3 })).toBe(6);
		expect((await store.load()).map((r) => r.id)).toEqual(['ann/m0', 'ann/m1', 'bo/m0', 'bo/m1', 'bo/m2', 'bo/m3']);
		// records cut off can be written again (a replay of the lost steps)
		await store.append([record('ann', 2, dims, { description: 'replayed' })]);
		expect((await store.byIds(['ann/m2']))[0].description).toBe('replayed');
		expect(await store.truncate({ ann: 5, bo: 5 })).toBe(0);
		expect(await store.truncate({})).toBe(7);
		expect(await store.count()).toBe(0);
	});

	it('compacts once fragments pile up, keeping every record', async () => {
		const dir = runDir();
		const dims = 8;
		const store = await open(dir, dims);
		const all: MemoryRecord[] = [];
		for (let batch = 0; batch < COMPACT_ABOVE_FRAGMENTS; batch++) {
			const rs = [0, 1, 2].map((i) => record('ann', batch * 3 + i, dims));
			all.push(...rs);
			await store.append(rs);
		}
		expect((await store.stats()).fragments).toBe(COMPACT_ABOVE_FRAGMENTS);
		await store.compact();
		expect((await store.stats()).fragments).toBe(COMPACT_ABOVE_FRAGMENTS);
		const more = [record('ann', 100, dims)];
		await store.append(more);
		await store.compact();
		const stats = await store.stats();
		expect(stats.fragments).toBe(1);
		expect(stats.rows).toBe(all.length + 1);
		expectSameRecords(await store.load(), [...all, ...more]);
		await store.append([record('ann', 101, dims)]);
		await store.compact({ force: true });
		expect((await store.stats()).fragments).toBe(1);
		store.close();
		expect(await (await open(dir, dims)).count()).toBe(all.length + 2);
	});

	it('appends a batch of 20k records in one write', async ({ annotate }) => {
		const dims = 256;
		const store = await open(runDir(), dims);
		const agents = Array.from({ length: 25 }, (_, i) => `agent${String(i).padStart(2, '0')}`);
		const records = Array.from({ length: 20_000 }, (_, i) => record(agents[i % 25], Math.floor(i / 25), dims));
		const t0 = performance.now();
		await store.append(records);
		const appendMs = performance.now() - t0;
		const t1 = performance.now();
		const loaded = await store.load();
		const loadMs = performance.now() - t1;
		await annotate(`append 20k x ${dims}: ${appendMs.toFixed(0)} ms; load all: ${loadMs.toFixed(0)} ms`);
		expect(await store.count()).toBe(20_000);
		expect((await store.stats()).fragments).toBe(1);
		expect(loaded).toHaveLength(20_000);
		const last = records[19_999];
		const got = loaded.find((r) => r.id === last.id) as MemoryRecord;
		expect(bytes(got.embedding)).toEqual(bytes(last.embedding));
	});

	it('refuses what it cannot store, with the place named', async () => {
		const dir = runDir();
		await expect(MemoryStore.open(path.join(dir, 'absent'), 4)).rejects.toThrow(/no run folder at .*absent/);
		await expect(MemoryStore.open(dir, 0)).rejects.toThrow(/0 is not a valid number of embedding dimensions/);
		const store = await open(dir, 4);
		await expect(store.append([record('ann', 0, 4), record('ann', 1, 3)])).rejects.toThrow(/memory ann\/m1 .*Float32Array of 4 values/);
		await expect(store.append([record('ann', 0, 4, { step: 1.5 })])).rejects.toThrow(/step 1.5 is not a 32-bit integer/);
		await expect(store.append([record('ann', 0, 4, { source: 'rumour' as MemoryRecord['source'] })])).rejects.toThrow(/ann\/m0 .*source "rumour" is not one of seed, observed/);
		const nan = new Float32Array([0, 1, NaN, 0]);
		await expect(store.append([record('ann', 0, 4, { embedding: nan })])).rejects.toThrow(/ann\/m0 .*NaN at position 2/);
		// a failed batch writes nothing, and later batches still go through
		expect(await store.count()).toBe(0);
		await store.append([record('ann', 0, 4)]);
		expect(await store.count()).toBe(1);
		store.close();
		await expect(MemoryStore.open(dir, 8)).rejects.toThrow(/stored embeddings have 4 dimensions, the run has 8/);
		const other = path.join(dir, 'other');
		mkdirSync(other);
		expect(await (await open(other, 8)).count()).toBe(0);
	});

	it('reads a table written before sources were recorded, and gives it the column on the next append', async () => {
		const dir = runDir();
		const dims = 4;
		// as the engine stored them: seeds are thoughts at step 0, a conversation's note names the other party
		const old: MemoryRecord[] = [
			record('ann', 0, dims, { kind: 'thought', step: 0, source: 'seed' }),
			record('ann', 1, dims, { kind: 'observation', step: 1, source: 'observed' }),
			record('ann', 2, dims, { kind: 'conversation', step: 2, with: 'bob', source: 'conversation' }),
			record('ann', 3, dims, { kind: 'thought', step: 2, with: 'bob', source: 'conversation' }),
			record('ann', 4, dims, { kind: 'plan', step: 3, source: 'planned' }),
			record('ann', 5, dims, { kind: 'reflection', step: 4, evidence: ['ann/m1'], source: 'reflected' }),
			record('ann', 6, dims, { kind: 'thought', step: 5, source: 'inner-voice' })
		];
		const store = await open(dir, dims);
		await store.append(old);
		store.close();
		// the table as an older version wrote it: no source column
		const { connect } = await import('@lancedb/lancedb');
		const db = await connect(path.join(dir, 'lance'));
		const table = await db.openTable('memories');
		await table.dropColumns(['source']);
		expect((await table.schema()).fields.map((f) => f.name)).not.toContain('source');
		table.close();
		db.close();

		const legacy = await open(dir, dims);
		expectSameRecords(await legacy.load(), old);
		expect((await legacy.byIds(['ann/m3']))[0].source).toBe('conversation');
		// growing again adds the column, filled by the same rule, and stores the new record's own source
		const fresh = record('ann', 7, dims, { kind: 'conversation', step: 6, source: 'interview' });
		await legacy.append([fresh]);
		legacy.close();
		const reopened = await open(dir, dims);
		expectSameRecords(await reopened.load(), [...old, fresh]);
	});
});

function hash(sim: Simulation): string {
	const h = createHash('sha256');
	sim.digest((chunk) => h.update(chunk));
	return h.digest('hex');
}
