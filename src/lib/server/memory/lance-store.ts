// A run's memory stream on disk: one LanceDB table, "memories", in <run dir>/lance.
//
// Memory records are immutable, so the table only grows: the runner appends them in batches
// (a Lance write is a new fragment and a new table version, so one write per step would leave
// thousands of tiny fragments), a resumed run may append the same records again (skipped by
// id), and `compact` merges the fragments when they pile up. Embeddings are stored as
// fixed-size float32 lists and come back bit for bit; numbers that must round-trip exactly
// (game time, importance) are float64.
//
// Each memory keeps its source (provenance). Tables written before sources were recorded have
// no "source" column: the first append to such a table adds it (empty for the rows already
// there), and a row without a source gets the one derived from its kind (`sourceOf`) on reading.
//
// A search of the run (../search/) makes a full-text index over the descriptions (TEXT_INDEX,
// LanceDB's BM25 index) once and keeps it in the table; memories appended later are searched
// by a scan until `compact` merges them into it. `nearest` and `searchText` search every agent.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as LanceModule from '@lancedb/lancedb';
import type { Connection, Table } from '@lancedb/lancedb';
import type * as Arrow from 'apache-arrow';
import type { Data, DataType, Field, FixedSizeList, Float32, Schema, Table as ArrowTable, Utf8 } from 'apache-arrow';
import { MEMORY_SOURCES, sourceOf, type MemoryKind, type MemoryRecord, type MemorySource } from '../../engine/memory';

export const MEMORY_TABLE = 'memories';

/** Compaction is skipped while the table has at most this many fragments (see `compact`). */
export const COMPACT_ABOVE_FRAGMENTS = 8;

/** ids per `IN (...)` filter: keeps the SQL text of one query bounded */
const IDS_PER_QUERY = 1000;

const COLUMNS = [
	'id',
	'agent',
	'index',
	'kind',
	'description',
	'created',
	'step',
	'importance',
	'evidence',
	'plan',
	'with',
	'vector'
] as const;

/** The provenance column: absent from tables written before memories recorded their source. */
export const SOURCE_COLUMN = 'source';

export interface LoadOptions {
	/** only this agent's memories */
	agent?: string;
	/**
	 * The stream as of a step: per agent, the largest memory index to load (inclusive), so each
	 * agent's first `max + 1` memories. Agents absent from the map get none; -1 means none.
	 * `maxIndexFromSizes(snapshot.memory)` gives it from a snapshot.
	 */
	maxIndexByAgent?: Record<string, number>;
}

export interface SearchHit {
	id: string;
	description: string;
	/** cosine distance: 1 - cosine similarity (0 = same direction, 2 = opposite) */
	distance: number;
}

/** The full-text (BM25) index over memory descriptions: built once per run, kept in its table. */
export const TEXT_INDEX = 'description_idx';

/** How the memories of a whole run are searched (`searchText`, `nearest`): which, and how many. */
export interface RunSearchOptions {
	/** only this agent's memories */
	agent?: string;
	/** only memories of these kinds */
	kinds?: readonly MemoryKind[];
	limit: number;
}

/** A memory found in a search over the run. */
export interface MemoryHit {
	id: string;
	agent: string;
	index: number;
	kind: MemoryKind;
	description: string;
	step: number;
	importance: number;
	/** full text: BM25 (higher is better); by meaning: cosine similarity (1 - cosine distance) */
	score: number;
}

export interface TextIndexInfo {
	/** the index was made by this call (false: it was there) */
	created: boolean;
	ms: number;
	/** bytes of the index files, rows it holds and rows appended since (searched without it until the next compaction) */
	bytes: number;
	indexedRows: number;
	unindexedRows: number;
}

export interface StoreStats {
	rows: number;
	fragments: number;
	bytes: number;
}

let lance: Promise<typeof LanceModule> | undefined;
/** apache-arrow, the copy LanceDB loads */
let arrow: typeof Arrow | undefined;

/**
 * The native module and apache-arrow, loaded on first use (so importing this file costs
 * nothing; a new run loads them while the seed memories' ratings are asked).
 */
export function loadLance(): Promise<typeof LanceModule> {
	// Lance's Rust logger reads LANCEDB_LOG once, when the native module loads. Its warnings
	// (deprecations, dataset notices) are noise in the studio's output; LANCEDB_LOG=warn (or
	// info, debug) brings them back.
	process.env.LANCEDB_LOG ??= 'error';
	lance ??= import('@lancedb/lancedb').then((m) => {
		// LanceDB (CommonJS) requires apache-arrow: the same copy, not a second one as ES modules
		arrow = createRequire(import.meta.url)('apache-arrow') as typeof Arrow;
		// a CommonJS module: Node exposes its exports by name, or only as `default` if it cannot tell
		return 'connect' in m ? m : (m as unknown as { default: typeof LanceModule }).default;
	});
	return lance;
}

/** apache-arrow, once `loadLance` has loaded it (a table is opened before its records are converted). */
export function lanceArrow(): typeof Arrow {
	if (!arrow) throw new Error('memory store: Arrow is used before LanceDB is loaded');
	return arrow;
}

function memorySchema(dimensions: number): Schema {
	const { Schema, Field, Utf8, Int32, Float64, FixedSizeList, Float32 } = lanceArrow();
	return new Schema([
		new Field('id', new Utf8(), false),
		new Field('agent', new Utf8(), false),
		new Field('index', new Int32(), false),
		new Field('kind', new Utf8(), false),
		new Field('description', new Utf8(), false),
		new Field('created', new Float64(), false),
		new Field('step', new Int32(), false),
		new Field('importance', new Float64(), false),
		new Field('evidence', new Utf8(), true),
		new Field('plan', new Utf8(), true),
		new Field('with', new Utf8(), true),
		new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
		// empty in the rows of a table written before sources were recorded
		new Field(SOURCE_COLUMN, new Utf8(), true)
	]);
}

/** `maxIndexByAgent` for the stream sizes of a snapshot (`Snapshot['memory']`). */
export function maxIndexFromSizes(sizes: Record<string, { size: number }>): Record<string, number> {
	const out: Record<string, number> = {};
	for (const [agent, { size }] of Object.entries(sizes)) out[agent] = size - 1;
	return out;
}

export class MemoryStore {
	/** ids already in the table, loaded on the first append (readers never need them) */
	private ids: Set<string> | null = null;
	/** writes run one at a time, so the id check and the write of a batch are not interleaved */
	private queue: Promise<unknown> = Promise.resolve();
	private closed = false;

	private constructor(
		/** the database folder, <run dir>/lance */
		readonly dir: string,
		readonly dimensions: number,
		private readonly db: Connection,
		private readonly table: Table,
		/** whether the table has the source column (see SOURCE_COLUMN) */
		private hasSource: boolean
	) {}

	/** Opens the run's store, creating it on first use. */
	static async open(runDir: string, dimensions: number): Promise<MemoryStore> {
		if (!Number.isInteger(dimensions) || dimensions <= 0) {
			throw new Error(`memory store of ${runDir}: ${dimensions} is not a valid number of embedding dimensions`);
		}
		if (!existsSync(runDir)) throw new Error(`memory store: there is no run folder at ${runDir}`);
		const dir = path.join(runDir, 'lance');
		const { connect } = await loadLance();
		// Read consistency 0: every read sees writes made since by another process (the studio
		// reading a run that the command line is still writing).
		const db = await connect(dir, { readConsistencyInterval: 0 });
		try {
			const { table, hasSource } = await openOrCreate(db, dir, dimensions);
			return new MemoryStore(dir, dimensions, db, table, hasSource);
		} catch (e) {
			db.close();
			throw e;
		}
	}

	/**
	 * Appends records in one write. Records whose id is already stored (or repeated in the
	 * batch) are skipped: a resumed run appends again what it replays. Records are immutable, so
	 * a skipped record is never compared with the stored one.
	 */
	append(records: readonly MemoryRecord[]): Promise<void> {
		return this.serial(async () => {
			if (records.length === 0) return;
			const known = await this.knownIds();
			const fresh: MemoryRecord[] = [];
			const seen = new Set<string>();
			for (const r of records) {
				if (known.has(r.id) || seen.has(r.id)) continue;
				this.check(r);
				seen.add(r.id);
				fresh.push(r);
			}
			if (fresh.length === 0) return;
			if (!this.hasSource) {
				// an older run growing again: its table gets the column, empty for the rows it has
				await this.table.addColumns([{ name: SOURCE_COLUMN, valueSql: 'CAST(NULL AS STRING)' }]);
				this.hasSource = true;
			}
			try {
				await this.table.add(toArrow(fresh, this.dimensions));
			} catch (e) {
				// Lance refuses a vector column with NaN; name the memory (searched only on failure,
				// to keep large batches fast).
				const bad = fresh.find((r) => r.embedding.some((x) => Number.isNaN(x)));
				if (bad) throw new Error(`memory ${bad.id} (stored in ${this.dir}): the embedding has NaN at position ${bad.embedding.findIndex((x) => Number.isNaN(x))}`);
				throw new Error(`memory store ${this.dir}: could not append ${fresh.length} memories: ${e instanceof Error ? e.message : String(e)}`);
			}
			for (const id of seen) known.add(id);
		});
	}

	/** Records, sorted by agent and then index, with exact Float32 embeddings. */
	async load(opts: LoadOptions = {}): Promise<MemoryRecord[]> {
		this.assertOpen();
		const filter = loadFilter(opts);
		if (filter === null) return [];
		const query = this.table.query().select(this.columns());
		if (filter) query.where(filter);
		const records = fromArrow(await query.toArrow(), this.dimensions);
		return records.sort(byAgentAndIndex);
	}

	async count(): Promise<number> {
		this.assertOpen();
		return this.table.countRows();
	}

	/**
	 * The k memories of an agent nearest to a vector by cosine distance, nearest first (an
	 * exhaustive search: exact, and fast at the size of one agent's stream).
	 */
	async search(agent: string, vector: Float32Array, k: number): Promise<SearchHit[]> {
		this.assertOpen();
		if (vector.length !== this.dimensions) {
			throw new Error(`memory search: the query has ${vector.length} dimensions, the store ${this.dimensions}`);
		}
		if (!(k > 0)) return [];
		const rows = (await this.table
			.vectorSearch(vector)
			.distanceType('cosine')
			.where(`agent = ${sqlString(agent)}`)
			.select(['id', 'description', '_distance'])
			.limit(Math.floor(k))
			.toArray()) as { id: string; description: string; _distance: number }[];
		return rows
			.map((r) => ({ id: r.id, description: r.description, distance: r._distance }))
			.sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	}

	/**
	 * Makes the full-text index over descriptions (TEXT_INDEX) unless the table has it: English
	 * stemming ("parties" finds "party"), stop words left out, no positions (no phrase queries,
	 * a smaller index). Made once per run and kept in the table; memories appended later are
	 * searched without it (exactly, by a scan) until `compact` merges them into it. Another
	 * process making it at the same moment is no error.
	 */
	ensureTextIndex(): Promise<TextIndexInfo> {
		return this.serial(async () => {
			const t0 = performance.now();
			let created = false;
			if (!(await this.textIndexed()) && (await this.table.countRows()) > 0) {
				const { Index } = await loadLance();
				try {
					await this.table.createIndex('description', {
						config: Index.fts({ stem: true, language: 'English', removeStopWords: true, withPosition: false }),
						name: TEXT_INDEX,
						replace: false
					});
					created = true;
				} catch (e) {
					// made meanwhile by another process
					if (!(await this.textIndexed())) throw e;
				}
			}
			const ms = performance.now() - t0;
			const config = (await this.table.listIndices()).find((i) => i.name === TEXT_INDEX);
			const stats = config ? await this.table.indexStats(TEXT_INDEX) : undefined;
			return {
				created,
				ms,
				bytes: config?.sizeBytes ?? 0,
				indexedRows: stats?.numIndexedRows ?? 0,
				unindexedRows: stats?.numUnindexedRows ?? (await this.table.countRows())
			};
		});
	}

	/**
	 * Memories of the whole run (or of one agent) whose descriptions hold the query's words, by
	 * BM25, best first. Needs the index (`ensureTextIndex`); none before it is made.
	 */
	async searchText(query: string, opts: RunSearchOptions): Promise<MemoryHit[]> {
		this.assertOpen();
		if (!(opts.limit > 0) || !query.trim() || !(await this.textIndexed())) return [];
		const q = this.table.query().fullTextSearch(query, { columns: 'description' }).select([...HIT_COLUMNS, '_score']).limit(Math.floor(opts.limit));
		const filter = hitFilter(opts);
		if (filter) q.where(filter);
		const rows = (await q.toArray()) as (HitRow & { _score: number })[];
		return rows.map((r) => hitOf(r, r._score)).sort((a, b) => b.score - a.score || byAgentAndIndex(a, b));
	}

	/**
	 * The memories of the whole run (or of one agent) nearest to a vector by cosine distance,
	 * nearest first (an exhaustive search: exact). `score` is the cosine similarity.
	 */
	async nearest(vector: Float32Array, opts: RunSearchOptions): Promise<MemoryHit[]> {
		this.assertOpen();
		if (vector.length !== this.dimensions) {
			throw new Error(`memory search: the query has ${vector.length} dimensions, the store ${this.dimensions}`);
		}
		if (!(opts.limit > 0)) return [];
		const q = this.table.vectorSearch(vector).distanceType('cosine').select([...HIT_COLUMNS, '_distance']).limit(Math.floor(opts.limit));
		const filter = hitFilter(opts);
		if (filter) q.where(filter);
		const rows = (await q.toArray()) as (HitRow & { _distance: number })[];
		return rows.map((r) => hitOf(r, 1 - r._distance)).sort((a, b) => b.score - a.score || byAgentAndIndex(a, b));
	}

	private async textIndexed(): Promise<boolean> {
		return (await this.table.listIndices()).some((i) => i.name === TEXT_INDEX);
	}

	/** The records with these ids, in the order asked; unknown ids are left out. */
	async byIds(ids: readonly string[]): Promise<MemoryRecord[]> {
		this.assertOpen();
		const wanted = [...new Set(ids)];
		const found = new Map<string, MemoryRecord>();
		for (let i = 0; i < wanted.length; i += IDS_PER_QUERY) {
			const chunk = wanted.slice(i, i + IDS_PER_QUERY);
			const table = await this.table
				.query()
				.select(this.columns())
				.where(`id IN (${chunk.map(sqlString).join(', ')})`)
				.toArrow();
			for (const r of fromArrow(table, this.dimensions)) found.set(r.id, r);
		}
		return wanted.flatMap((id) => found.get(id) ?? []);
	}

	/**
	 * Deletes the memories past each agent's max index (agents absent from the map lose all):
	 * for a run whose journal was cut back to its last committed step, so a replay of the lost
	 * steps writes its own records. Returns how many were deleted.
	 */
	truncate(maxIndexByAgent: Record<string, number>): Promise<number> {
		return this.serial(async () => {
			const keep = limitFilter(maxIndexByAgent);
			const result = await this.table.delete(keep === null ? 'true' : `NOT (${keep})`);
			if (result.numDeletedRows > 0) this.ids = null;
			return result.numDeletedRows;
		});
	}

	async stats(): Promise<StoreStats> {
		this.assertOpen();
		const s = await this.table.stats();
		return { rows: s.numRows, fragments: s.fragmentStats.numFragments, bytes: s.totalBytes };
	}

	/**
	 * Merges the table's fragments into one and deletes superseded files. A no-op while there
	 * are at most COMPACT_ABOVE_FRAGMENTS fragments, so it is cheap to call at every run end:
	 * merging rewrites the whole table, which only pays off once appends have piled up.
	 */
	compact(opts: { force?: boolean } = {}): Promise<void> {
		return this.serial(async () => {
			const s = await this.table.stats();
			if (!opts.force && s.fragmentStats.numFragments <= COMPACT_ABOVE_FRAGMENTS) return;
			// Versions before now are dropped with their files: a run keeps only its latest table.
			await this.table.optimize({ cleanupOlderThan: new Date() });
		});
	}

	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.table.close();
		this.db.close();
	}

	private serial<T>(task: () => Promise<T>): Promise<T> {
		const run = this.queue.then(() => {
			this.assertOpen();
			return task();
		});
		this.queue = run.catch(() => undefined);
		return run;
	}

	/** The columns a read selects: the source too where the table has it. */
	private columns(): string[] {
		return this.hasSource ? [...COLUMNS, SOURCE_COLUMN] : [...COLUMNS];
	}

	private assertOpen(): void {
		if (this.closed) throw new Error(`memory store ${this.dir} is closed`);
	}

	private async knownIds(): Promise<Set<string>> {
		if (!this.ids) {
			const table = await this.table.query().select(['id']).toArrow();
			this.ids = new Set(table.getChild('id')?.toArray() as string[]);
		}
		return this.ids;
	}

	private check(r: MemoryRecord): void {
		const where = `memory ${r.id} (stored in ${this.dir})`;
		if (!(r.embedding instanceof Float32Array) || r.embedding.length !== this.dimensions) {
			throw new Error(`${where}: the embedding must be a Float32Array of ${this.dimensions} values`);
		}
		if (!KNOWN_SOURCES.has(r.source)) throw new Error(`${where}: source "${String(r.source)}" is not one of ${MEMORY_SOURCES.join(', ')}`);
		for (const [name, v] of [
			['index', r.index],
			['step', r.step]
		] as const) {
			if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) throw new Error(`${where}: ${name} ${v} is not a 32-bit integer`);
		}
	}
}

async function openOrCreate(db: Connection, dir: string, dimensions: number): Promise<{ table: Table; hasSource: boolean }> {
	let table: Table;
	if ((await db.tableNames()).includes(MEMORY_TABLE)) {
		table = await db.openTable(MEMORY_TABLE);
	} else {
		try {
			table = await db.createEmptyTable(MEMORY_TABLE, memorySchema(dimensions));
		} catch (e) {
			// another process created it first
			if (!(await db.tableNames()).includes(MEMORY_TABLE)) throw e;
			table = await db.openTable(MEMORY_TABLE);
		}
	}
	try {
		return { table, hasSource: checkSchema(await table.schema(), dir, dimensions) };
	} catch (e) {
		table.close();
		throw e;
	}
}

/** Checks the stored columns; returns whether the table has the source column. */
function checkSchema(schema: Schema, dir: string, dimensions: number): boolean {
	const names = new Set(schema.fields.map((f) => f.name));
	const missing = COLUMNS.filter((c) => !names.has(c));
	if (missing.length) throw new Error(`memory store ${dir}: table "${MEMORY_TABLE}" lacks the column(s) ${missing.join(', ')}`);
	const vector = schema.fields.find((f) => f.name === 'vector') as Field;
	// By type id, not instanceof: a table written by another copy of apache-arrow checks the same.
	const type: DataType = vector.type;
	const size = lanceArrow().DataType.isFixedSizeList(type) ? type.listSize : undefined;
	if (size !== dimensions) {
		throw new Error(`memory store ${dir}: stored embeddings have ${size ?? 'no fixed number of'} dimensions, the run has ${dimensions}`);
	}
	return names.has(SOURCE_COLUMN);
}

// ---------------------------------------------------------------------------
// filters

/** A SQL string literal. */
function sqlString(s: string): string {
	return `'${s.replace(/'/g, "''")}'`;
}

/** The filter for `load`: '' for everything, null when nothing can match. */
function loadFilter(opts: LoadOptions): string | null {
	const { agent, maxIndexByAgent: limits } = opts;
	if (!limits) return agent === undefined ? '' : `agent = ${sqlString(agent)}`;
	return limitFilter(agent === undefined ? limits : agent in limits ? { [agent]: limits[agent] } : {});
}

const HIT_COLUMNS = ['id', 'agent', 'index', 'kind', 'description', 'step', 'importance'] as const;

type HitRow = Omit<MemoryHit, 'score'>;

function hitOf(r: HitRow, score: number): MemoryHit {
	return { id: r.id, agent: r.agent, index: r.index, kind: r.kind, description: r.description, step: r.step, importance: r.importance, score };
}

/** The filter of a search over the run: '' for every memory. */
function hitFilter(opts: RunSearchOptions): string {
	const parts: string[] = [];
	if (opts.agent !== undefined) parts.push(`agent = ${sqlString(opts.agent)}`);
	if (opts.kinds) parts.push(opts.kinds.length ? `kind IN (${opts.kinds.map(sqlString).join(', ')})` : 'false');
	return parts.join(' AND ');
}

/** Rows within per-agent max indices; null when no row can be. */
function limitFilter(limits: Record<string, number>): string | null {
	const parts: string[] = [];
	for (const agent of Object.keys(limits).sort()) {
		const max = limits[agent];
		if (!Number.isInteger(max)) throw new Error(`memory store: max index of ${agent} is ${max}, not an integer`);
		if (max >= 0) parts.push(`(agent = ${sqlString(agent)} AND \`index\` <= ${max})`);
	}
	return parts.length ? parts.join(' OR ') : null;
}

/** Memories' order: by agent, then by index in the agent's stream. */
export function byAgentAndIndex(a: { agent: string; index: number }, b: { agent: string; index: number }): number {
	return a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : a.index - b.index;
}

// ---------------------------------------------------------------------------
// Arrow conversion: columns are built directly (no row objects), which keeps a 20k-row batch
// of embeddings to a few copies of one Float32Array.

function toArrow(records: readonly MemoryRecord[], dimensions: number): ArrowTable {
	const { makeData, Int32, Float64, Float32, Struct, RecordBatch, Table: ArrowTable } = lanceArrow();
	const schema = memorySchema(dimensions);
	const n = records.length;
	const index = new Int32Array(n);
	const step = new Int32Array(n);
	const created = new Float64Array(n);
	const importance = new Float64Array(n);
	const vectors = new Float32Array(n * dimensions);
	records.forEach((r, i) => {
		index[i] = r.index;
		step[i] = r.step;
		created[i] = r.created;
		importance[i] = r.importance;
		vectors.set(r.embedding, i * dimensions);
	});
	const text = utf8Column;
	const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
	const columns: Record<(typeof COLUMNS)[number] | typeof SOURCE_COLUMN, Data> = {
		id: text(records.map((r) => r.id)),
		agent: text(records.map((r) => r.agent)),
		index: makeData({ type: new Int32(), length: n, data: index }),
		kind: text(records.map((r) => r.kind)),
		description: text(records.map((r) => r.description)),
		created: makeData({ type: new Float64(), length: n, data: created }),
		step: makeData({ type: new Int32(), length: n, data: step }),
		importance: makeData({ type: new Float64(), length: n, data: importance }),
		evidence: text(records.map((r) => json(r.evidence))),
		plan: text(records.map((r) => json(r.plan))),
		with: text(records.map((r) => r.with ?? null)),
		vector: makeData({
			type: schema.fields[COLUMNS.indexOf('vector')].type as FixedSizeList<Float32>,
			length: n,
			nullCount: 0,
			child: makeData({ type: new Float32(), length: n * dimensions, data: vectors })
		}),
		source: text(records.map((r) => r.source))
	};
	const struct = makeData({
		type: new Struct(schema.fields),
		length: n,
		nullCount: 0,
		children: schema.fields.map((f) => columns[f.name as keyof typeof columns])
	});
	return new ArrowTable(schema, [new RecordBatch(schema, struct)]);
}

/** A Utf8 column, encoded straight into one buffer (several times faster than vectorFromArray). */
function utf8Column(values: readonly (string | null)[]): Data<Utf8> {
	const n = values.length;
	const offsets = new Int32Array(n + 1);
	let nulls = 0;
	let total = 0;
	for (let i = 0; i < n; i++) {
		const v = values[i];
		if (v === null) nulls++;
		else total += Buffer.byteLength(v, 'utf8');
		offsets[i + 1] = total;
	}
	const bytes = Buffer.allocUnsafe(total);
	for (let i = 0; i < n; i++) {
		const v = values[i];
		if (v !== null) bytes.write(v, offsets[i], 'utf8');
	}
	let nullBitmap: Uint8Array | undefined;
	if (nulls > 0) {
		nullBitmap = new Uint8Array((n + 7) >> 3);
		for (let i = 0; i < n; i++) if (values[i] !== null) nullBitmap[i >> 3] |= 1 << (i & 7);
	}
	const { makeData, Utf8 } = lanceArrow();
	return makeData({
		type: new Utf8(),
		length: n,
		nullCount: nulls,
		nullBitmap,
		valueOffsets: offsets,
		data: new Uint8Array(bytes.buffer, bytes.byteOffset, total)
	});
}

function fromArrow(table: ArrowTable, dimensions: number): MemoryRecord[] {
	const out: MemoryRecord[] = [];
	for (const batch of table.batches) {
		// A record batch's columns are single chunks whose buffers are already sliced to it.
		const col = (name: (typeof COLUMNS)[number]): Data => {
			const v = batch.getChild(name);
			if (!v) throw new Error(`memory store: a query returned no "${name}" column`);
			return v.data[0];
		};
		const n = batch.numRows;
		const id = utf8Values(col('id'));
		const agent = utf8Values(col('agent'));
		const kind = utf8Values(col('kind'));
		const description = utf8Values(col('description'));
		const evidence = utf8Values(col('evidence'));
		const plan = utf8Values(col('plan'));
		const withCol = utf8Values(col('with'));
		// absent from tables written before sources were recorded
		const sourceVector = batch.getChild(SOURCE_COLUMN);
		const sourceCol = sourceVector ? utf8Values(sourceVector.data[0]) : null;
		const index = col('index').values as Int32Array;
		const created = col('created').values as Float64Array;
		const step = col('step').values as Int32Array;
		const importance = col('importance').values as Float64Array;
		// A FixedSizeList chunk's child holds its rows' values back to back. One copy per batch
		// (not per row: allocating typed arrays is what costs), so the embeddings are views of a
		// buffer of their own rather than of Arrow's.
		const values = col('vector').children[0].values as Float32Array;
		if (values.length < n * dimensions) throw new Error(`memory store: a query returned ${values.length} vector values for ${n} rows`);
		const vectors = values.slice(0, n * dimensions);
		for (let i = 0; i < n; i++) {
			const k = kind[i] as MemoryKind;
			const w = withCol[i];
			const src = sourceCol?.[i] ?? null;
			if (src !== null && !KNOWN_SOURCES.has(src)) throw new Error(`memory store: memory ${id[i]} has an unknown source "${src}"`);
			const r: MemoryRecord = {
				id: id[i] as string,
				agent: agent[i] as string,
				index: index[i],
				kind: k,
				source: (src as MemorySource | null) ?? sourceOf({ kind: k, with: w ?? undefined, step: step[i] }),
				description: description[i] as string,
				created: created[i],
				step: step[i],
				importance: importance[i],
				embedding: vectors.subarray(i * dimensions, (i + 1) * dimensions)
			};
			// optional fields stay absent rather than undefined, as the engine creates them
			const ev = evidence[i];
			if (ev !== null) r.evidence = JSON.parse(ev) as string[];
			const pl = plan[i];
			if (pl !== null) r.plan = JSON.parse(pl) as NonNullable<MemoryRecord['plan']>;
			if (w !== null) r.with = w;
			out.push(r);
		}
	}
	return out;
}

const KNOWN_SOURCES = new Set<string>(MEMORY_SOURCES);

/** The strings of a Utf8 chunk, decoded by Node's Buffer (much faster than one TextDecoder call per value). */
export function utf8Values(data: Data): (string | null)[] {
	const n = data.length;
	const offsets = data.valueOffsets as Int32Array | BigInt64Array;
	const bytes = data.values as Uint8Array;
	const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const out = new Array<string | null>(n);
	for (let i = 0; i < n; i++) {
		out[i] = data.nullCount > 0 && !data.getValid(i) ? null : buf.toString('utf8', Number(offsets[i]), Number(offsets[i + 1]));
	}
	return out;
}
