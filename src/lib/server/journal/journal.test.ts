import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/types';
import { NO_ABLATION } from '../../engine/state';
import type { MemoryRecord } from '../../engine/memory';
import { RunReader, RunWriter, decodeMemory, encodeMemory, type RunMeta } from './journal';

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function meta(id: string): RunMeta {
	return {
		id,
		world: 'w',
		worldName: 'W',
		seed: 1,
		model: { provider: 'offline', model: 'x', label: 'x' },
		promptSet: { version: 'v', templates: {} },
		settings: DEFAULT_SETTINGS,
		ablate: NO_ABLATION,
		overrides: [],
		parent: null,
		firstStep: 0,
		snapshotEvery: 10,
		created: '2026-01-01T00:00:00Z',
		status: 'running',
		dimensions: 3,
		target: 5
	};
}

function memory(index: number, step: number): MemoryRecord {
	return {
		id: `a/m${index}`,
		agent: 'a',
		index,
		kind: 'observation',
		description: `memory ${index}`,
		created: 1000 * index,
		step,
		importance: 3,
		embedding: new Float32Array([0.1 * index, 0.5, -0.25])
	};
}

function emptyStep(step: number, memories: MemoryRecord[] = []) {
	return { step, time: step * 10_000, memories, traces: [], conversations: [], events: [] };
}

describe('journal', () => {
	it('round-trips memories with their exact embedding', () => {
		const m = memory(7, 2);
		const back = decodeMemory(encodeMemory(m, 2));
		expect(back.s).toBe(2);
		expect(Array.from(back.embedding)).toEqual(Array.from(m.embedding));
		expect(back.description).toBe('memory 7');
	});

	it('keeps committed steps and cuts a torn tail on reopen', () => {
		const home = mkdtempSync(path.join(tmpdir(), 'journal-'));
		dirs.push(home);
		const w = RunWriter.create(home, meta('r1'));
		w.commit(emptyStep(-1, [memory(0, 0)]), [], [], []);
		for (let s = 0; s < 3; s++) w.commit(emptyStep(s, [memory(s + 1, s)]), [], [], []);
		w.close();
		const dir = path.join(home, 'r1');
		// a crash in the middle of step 3: its memory written, its commit line torn
		appendFileSync(path.join(dir, 'memories.jsonl'), encodeMemory(memory(4, 3), 3) + '\n');
		appendFileSync(path.join(dir, 'steps.jsonl'), '{"step":3,"time":');
		const { writer, committed } = RunWriter.reopen(dir);
		writer.close();
		expect(committed).toBe(3);
		const reader = new RunReader(dir);
		expect(reader.committed()).toBe(3);
		expect(reader.memories().map((m) => m.index)).toEqual([0, 1, 2, 3]);
		expect(readFileSync(path.join(dir, 'steps.jsonl'), 'utf8').endsWith('}\n')).toBe(true);
	});
});
