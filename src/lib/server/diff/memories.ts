// The memories a diff compares: each run's LanceDB table (../memory/lance-store.ts), read
// without the embeddings. A run's table holds its whole stream history, inherited memories
// included (a fork stores its parent's at creation), and every memory of a step up to the
// latest snapshot; a live or paused run may not have stored its latest steps yet, which
// `storedThrough` finds out from the snapshot's stream sizes and the commit lines' counts.

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Data, Table as ArrowTable } from 'apache-arrow';
import { byAgentAndIndex, loadLance, MEMORY_TABLE, utf8Values } from '../memory/lance-store';

export interface StoredMemory {
	id: string;
	agent: string;
	index: number;
	kind: string;
	description: string;
	/** the step during which it was stored (seed memories: 0) */
	step: number;
	evidence?: string[];
	with?: string;
}

const COLUMNS = ['id', 'agent', 'index', 'kind', 'description', 'step', 'evidence', 'with'] as const;

/**
 * The memories stored during steps before `before` (so the streams as of frame `before`, for
 * before >= 1), sorted by agent and index.
 */
export async function readMemories(runDir: string, before: number): Promise<StoredMemory[]> {
	const dir = path.join(runDir, 'lance');
	if (!existsSync(dir)) return [];
	const { connect } = await loadLance();
	// read consistency 0: see what another process (a run being stepped) wrote since
	const db = await connect(dir, { readConsistencyInterval: 0 });
	try {
		if (!(await db.tableNames()).includes(MEMORY_TABLE)) return [];
		const table = await db.openTable(MEMORY_TABLE);
		try {
			const rows = fromArrow(
				(await table
					.query()
					.select([...COLUMNS])
					.where(`step < ${Math.floor(before)}`)
					.toArrow()) as unknown as ArrowTable
			);
			return rows.sort(byAgentAndIndex);
		} finally {
			table.close();
		}
	} catch (e) {
		throw new Error(`memory store of ${path.basename(runDir)}: ${e instanceof Error ? e.message : String(e)}`);
	} finally {
		db.close();
	}
}

function fromArrow(table: ArrowTable): StoredMemory[] {
	const out: StoredMemory[] = [];
	for (const batch of table.batches) {
		const col = (name: (typeof COLUMNS)[number]): Data => {
			const v = batch.getChild(name);
			if (!v) throw new Error(`a query returned no "${name}" column`);
			return v.data[0];
		};
		const id = utf8Values(col('id'));
		const agent = utf8Values(col('agent'));
		const kind = utf8Values(col('kind'));
		const description = utf8Values(col('description'));
		const evidence = utf8Values(col('evidence'));
		const withCol = utf8Values(col('with'));
		const index = col('index').values as Int32Array;
		const step = col('step').values as Int32Array;
		for (let i = 0; i < batch.numRows; i++) {
			const m: StoredMemory = {
				id: id[i] as string,
				agent: agent[i] as string,
				index: index[i],
				kind: kind[i] as string,
				description: description[i] as string,
				step: step[i]
			};
			const ev = evidence[i];
			if (ev !== null) m.evidence = JSON.parse(ev) as string[];
			const w = withCol[i];
			if (w !== null) m.with = w;
			out.push(m);
		}
	}
	return out;
}
