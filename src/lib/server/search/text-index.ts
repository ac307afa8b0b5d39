// A run's text index: its model calls (prompt and answer) and its conversations' lines, in a
// LanceDB table with a full-text (BM25) index, kept with the run in `<run>/search/`.
//
// The rows come from the run's own journal (a fork's earlier steps are in its ancestors'
// indexes), committed steps only: a committed step never changes, so rows are only ever added.
// `index.json` says how far the table goes (`indexedTo`: the rows of every step before it are
// in). The first search of a run builds it in one pass and makes the full-text index; a later
// search of a run that has grown adds the new steps' rows, which are searched (by a scan) until
// enough of them wait and they are merged into the index. One process updates at a time
// (`update.lock`, taken over when its holder died).

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Connection, Table } from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import { lanceArrow, loadLance } from '../memory/lance-store';
import type { RunReader } from '../journal/journal';
import { commitHasConversations, parseCommitLine } from '../journal/commit-line';
import { readLogLines } from '../journal/log';
import { folderBytes } from '../store/upkeep';
import { writeFileAtomic } from '../fs/atomic';
import { withLock } from '../fs/lock';

export const SEARCH_DIR = 'search';
export const TEXT_TABLE = 'texts';
export const TEXT_INDEX = 'text_idx';
const MANIFEST = 'index.json';
const LOCK = 'update.lock';
const VERSION = 1;

/** Rows added in one write (a Lance write is one fragment). */
const ROWS_PER_WRITE = 4000;
/** Rows waiting outside the full-text index past which an update merges them into it. */
const MERGE_ABOVE = 2000;

export type TextKind = 'call' | 'conversation';

/** One searchable text of a run's journal. */
export interface TextRow {
	/** a call's key (`step/agent/n`), or `<conversation id>#<line>` */
	id: string;
	kind: TextKind;
	/** the agent who made the call or spoke the line ('' for none) */
	agent: string;
	/** the other agent of a conversation ('' for a call) */
	with: string;
	/** a call's template ('' for a line) */
	template: string;
	/** the step that made it (a call's `s`; a line's, the step its conversation was committed at) */
	step: number;
	/** a call's prompt and answer; a line's text */
	text: string;
}

export interface TextHit extends TextRow {
	/** BM25, higher is better */
	score: number;
}

export interface TextSearchOptions {
	/** rows of this agent (a call's, or a line it spoke or heard) */
	agent?: string;
	kinds?: readonly TextKind[];
	/** only rows of steps before this one (an ancestor's share of a lineage) */
	before?: number;
	limit: number;
}

interface Manifest {
	version: number;
	/** the rows of every step before this one are in the table */
	indexedTo: number;
	rows: number;
	/** wall time of the updates so far (reading the journal, writing, indexing) */
	buildMs: number;
}

export interface TextIndexStats {
	rows: number;
	/** bytes of `<run>/search/` (table, index and older versions kept a while) */
	bytes: number;
	indexedTo: number;
	buildMs: number;
}

function schema(): Schema {
	const { Schema, Field, Utf8, Int32 } = lanceArrow();
	return new Schema([
		new Field('id', new Utf8(), false),
		new Field('kind', new Utf8(), false),
		new Field('agent', new Utf8(), false),
		new Field('with', new Utf8(), false),
		new Field('template', new Utf8(), false),
		new Field('step', new Int32(), false),
		new Field('text', new Utf8(), false)
	]);
}

/** The texts of a run's journal for steps [from, to): its calls and the lines of conversations committed then. */
export function journalTexts(reader: RunReader, from: number, to: number): TextRow[] {
	const rows: TextRow[] = [];
	for (const c of reader.calls({ from, to })) {
		rows.push({
			id: c.key,
			kind: 'call',
			agent: c.agent ?? '',
			with: '',
			template: c.template,
			step: c.s,
			text: `${c.prompt}\n\n${c.answer}`
		});
	}
	// most commit lines hold no conversation: those are not parsed (a two-day run's 17,280 lines
	// of 25 agents each take seconds to parse)
	for (const text of readLogLines(reader.dir, 'steps', { from, to })) {
		if (!commitHasConversations(text)) continue;
		const line = parseCommitLine(text);
		for (const conv of line.conversations) {
			conv.lines.forEach((l, i) => {
				rows.push({
					id: `${conv.id}#${i}`,
					kind: 'conversation',
					agent: l.speaker,
					with: conv.agents.find((a) => a !== l.speaker) ?? '',
					template: '',
					step: line.step,
					text: l.text
				});
			});
		}
	}
	return rows;
}

/** Per-process queue of updates per run folder (across processes: the lock file). */
const updating = new Map<string, Promise<unknown>>();

export class TextIndex {
	private constructor(
		readonly dir: string,
		private readonly db: Connection,
		private table: Table | null
	) {}

	/** The run's text index as it stands (empty until its first update). */
	static async open(runDir: string): Promise<TextIndex> {
		if (!existsSync(runDir)) throw new Error(`text index: there is no run folder at ${runDir}`);
		const dir = path.join(runDir, SEARCH_DIR);
		mkdirSync(dir, { recursive: true });
		const { connect } = await loadLance();
		const db = await connect(dir, { readConsistencyInterval: 0 });
		const table = (await db.tableNames()).includes(TEXT_TABLE) ? await db.openTable(TEXT_TABLE) : null;
		return new TextIndex(dir, db, table);
	}

	get manifest(): Manifest | null {
		const file = path.join(this.dir, MANIFEST);
		if (!existsSync(file)) return null;
		try {
			const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
			return m.version === VERSION && Number.isInteger(m.indexedTo) ? m : null;
		} catch {
			return null;
		}
	}

	/**
	 * Brings the index up to the run's committed steps. Returns the rows added and the time it
	 * took (0 rows when it was up to date).
	 */
	update(reader: RunReader): Promise<{ added: number; ms: number }> {
		const prev = updating.get(this.dir) ?? Promise.resolve();
		const run = prev.then(() => this.withLock(() => this.catchUp(reader)));
		updating.set(
			this.dir,
			run.catch(() => undefined)
		);
		return run;
	}

	private async catchUp(reader: RunReader): Promise<{ added: number; ms: number }> {
		const t0 = performance.now();
		const committed = reader.committed();
		let m = this.manifest;
		if (m && m.indexedTo > committed) m = null; // another run's index, or a journal cut back: rebuild
		if (!m && this.table) {
			this.table.close();
			await this.db.dropTable(TEXT_TABLE);
			this.table = null;
		}
		const from = m?.indexedTo ?? reader.meta.firstStep - 1;
		if (m && from >= committed) return { added: 0, ms: 0 };
		const rows = journalTexts(reader, from, committed);
		if (rows.length > 0) {
			const table = await this.ensureTable();
			for (let i = 0; i < rows.length; i += ROWS_PER_WRITE) await table.add(rows.slice(i, i + ROWS_PER_WRITE) as unknown as Record<string, unknown>[]);
			await this.ensureIndex(table);
		}
		const ms = performance.now() - t0;
		this.writeManifest({ version: VERSION, indexedTo: committed, rows: (m?.rows ?? 0) + rows.length, buildMs: (m?.buildMs ?? 0) + ms });
		return { added: rows.length, ms };
	}

	private async ensureTable(): Promise<Table> {
		if (!this.table) this.table = await this.db.createEmptyTable(TEXT_TABLE, schema(), { mode: 'overwrite' });
		return this.table;
	}

	/** Makes the full-text index, or merges the rows waiting outside it once there are many. */
	private async ensureIndex(table: Table): Promise<void> {
		const has = (await table.listIndices()).some((i) => i.name === TEXT_INDEX);
		if (!has) {
			const { Index } = await loadLance();
			await table.createIndex('text', {
				config: Index.fts({ stem: true, language: 'English', removeStopWords: true, withPosition: false }),
				name: TEXT_INDEX,
				replace: true
			});
			return;
		}
		const stats = await table.indexStats(TEXT_INDEX);
		// merged with the table's fragments; versions a minute old go (a reader elsewhere may be on a recent one)
		if ((stats?.numUnindexedRows ?? 0) > MERGE_ABOVE) await table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
	}

	/** The rows holding the query's words, best first (BM25). */
	async search(query: string, opts: TextSearchOptions): Promise<TextHit[]> {
		const table = this.table;
		if (!table || !(opts.limit > 0) || !query.trim()) return [];
		if (!(await table.listIndices()).some((i) => i.name === TEXT_INDEX)) return [];
		const q = table
			.query()
			.fullTextSearch(query, { columns: 'text' })
			.select(['id', 'kind', 'agent', 'with', 'template', 'step', 'text', '_score'])
			.limit(Math.floor(opts.limit));
		const parts: string[] = [];
		if (opts.agent !== undefined) parts.push(`(agent = ${sql(opts.agent)} OR \`with\` = ${sql(opts.agent)})`);
		if (opts.kinds) parts.push(opts.kinds.length ? `kind IN (${opts.kinds.map(sql).join(', ')})` : 'false');
		if (opts.before !== undefined) parts.push(`step < ${Math.floor(opts.before)}`);
		if (parts.length) q.where(parts.join(' AND '));
		const rows = (await q.toArray()) as (TextRow & { _score: number })[];
		// two processes updating at once before the lock existed could have added a row twice
		const seen = new Set<string>();
		const out: TextHit[] = [];
		for (const r of rows) {
			if (seen.has(r.id)) continue;
			seen.add(r.id);
			out.push({ id: r.id, kind: r.kind, agent: r.agent, with: r.with, template: r.template, step: r.step, text: r.text, score: r._score });
		}
		return out.sort((a, b) => b.score - a.score || a.step - b.step || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	}

	stats(): TextIndexStats {
		const m = this.manifest;
		return { rows: m?.rows ?? 0, bytes: folderBytes(this.dir), indexedTo: m?.indexedTo ?? 0, buildMs: m?.buildMs ?? 0 };
	}

	close(): void {
		this.table?.close();
		this.db.close();
	}

	private writeManifest(m: Manifest): void {
		writeFileAtomic(path.join(this.dir, MANIFEST), JSON.stringify(m, null, 2) + '\n');
	}

	/** Runs `fn` holding `update.lock` (../fs/lock.ts); waits for a live holder, takes over a dead one's. */
	private async withLock<T>(fn: () => Promise<T>): Promise<T> {
		const file = path.join(this.dir, LOCK);
		return withLock(
			file,
			async () => {
				// what the holder before us added
				if (!this.table && (await this.db.tableNames()).includes(TEXT_TABLE)) this.table = await this.db.openTable(TEXT_TABLE);
				return await fn();
			},
			{
				waitMs: 10 * 60_000,
				// this process updates one run at a time (the queue above): a lock naming it is a leftover
				selfIsLeftover: true,
				busy: () => new Error(`text index ${this.dir}: another process has been updating it for 10 minutes (${file})`)
			}
		);
	}
}

function sql(s: string): string {
	return `'${s.replace(/'/g, "''")}'`;
}

