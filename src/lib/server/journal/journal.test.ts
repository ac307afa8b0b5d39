import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../engine/sim';
import { FaultError } from '../errors';
import { readRunMeta, RunReader, RunWriter } from './journal';
import type { CallRecord } from './call-line';
import { testMeta } from './testing';

/** A stand-in for the state at step 0 (the journal only names the file by its step). */
const firstSnapshot = { state: { step: 0 } } as unknown as Snapshot;

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function call(key: string): CallRecord {
	return {
		key,
		template: 'importance',
		templateVersion: 'v1',
		prompt: 'p',
		answer: '{"ratings":[3]}',
		value: { ratings: [3] },
		failsafe: false,
		latencyMs: 1,
		tokens: { prompt: 1, completion: 1 },
		cacheHit: false,
		attempts: 1
	};
}

function emptyStep(step: number) {
	return { step, time: step * 10_000, memories: [], traces: [], conversations: [], events: [] };
}

describe('journal', () => {
	it('keeps committed steps and cuts a torn tail on reopen', () => {
		const home = mkdtempSync(path.join(tmpdir(), 'journal-'));
		dirs.push(home);
		const w = RunWriter.create(home, testMeta({ id: 'r1', target: 5 }), 'CLI');
		w.commit(emptyStep(-1), [], [call('init/a/0')], []);
		w.snapshot(firstSnapshot);
		for (let s = 0; s < 3; s++) w.commit(emptyStep(s), [], [call(`${s}/a/0`)], []);
		w.close();
		const dir = path.join(home, 'r1');
		// a crash in the middle of step 3: its call written, its commit line torn
		appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify({ s: 3, ...call('3/a/0') }) + '\n');
		appendFileSync(path.join(dir, 'steps.jsonl'), '{"step":3,"time":');
		// ... or while a snapshot was being written
		writeFileSync(path.join(dir, 'snapshots', '3.json.br.tmp'), 'half');
		const { writer, committed } = RunWriter.reopen(dir, 'CLI');
		expect(existsSync(path.join(dir, 'snapshots', '3.json.br.tmp'))).toBe(false);
		writer.close();
		expect(committed).toBe(3);
		const reader = new RunReader(dir);
		expect(reader.committed()).toBe(3);
		expect(reader.calls().map((c) => c.key)).toEqual(['init/a/0', '0/a/0', '1/a/0', '2/a/0']);
		expect(reader.steps().map((l) => l.step)).toEqual([0, 1, 2]);
		expect(readFileSync(path.join(dir, 'steps.jsonl'), 'utf8').endsWith('}\n')).toBe(true);
	});

	it('holds the run for one writer: a second is refused naming the holder, close lets go', () => {
		const home = mkdtempSync(path.join(tmpdir(), 'journal-'));
		dirs.push(home);
		const w = RunWriter.create(home, testMeta({ id: 'r2', target: 5 }), 'IDE');
		w.snapshot(firstSnapshot);
		w.setStatus('running');
		const dir = path.join(home, 'r2');
		expect(() => RunWriter.reopen(dir, 'CLI')).toThrow(new RegExp(`run r2 is being written by the IDE \\(pid ${process.pid}, since \\d{4}-`));
		w.close();
		const { writer } = RunWriter.reopen(dir, 'CLI');
		writer.close();
	});

	it('a run stopped before its first snapshot says so and is not resumed', () => {
		const home = mkdtempSync(path.join(tmpdir(), 'journal-'));
		dirs.push(home);
		const w = RunWriter.create(home, testMeta({ id: 'r3', target: 5 }), 'CLI');
		w.commit(emptyStep(-1), [], [call('init/a/0')], []);
		w.close();
		const dir = path.join(home, 'r3');
		expect(new RunReader(dir).meta.status).toBe('creating');
		expect(() => RunWriter.reopen(dir, 'CLI')).toThrow(/stopped while it was being created, before its first snapshot: it cannot be resumed; delete it with `runs rm r3`/);
		// the refusal let the lock go
		w.close();
		expect(() => RunWriter.reopen(dir, 'CLI')).toThrow(/before its first snapshot/);
	});
});

describe('run.json', () => {
	it('is read through its schema: a damaged one names the file and the field, not a later crash', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'run-meta-'));
		dirs.push(dir);
		writeFileSync(path.join(dir, 'run.json'), JSON.stringify(testMeta({ id: path.basename(dir) })));
		expect(readRunMeta(dir).id).toBe(path.basename(dir));
		writeFileSync(path.join(dir, 'run.json'), JSON.stringify({ ...testMeta(), status: 'flying', target: -1 }));
		const damaged = (() => {
			try {
				readRunMeta(dir);
			} catch (e) {
				return e as FaultError;
			}
		})();
		expect(damaged).toBeInstanceOf(FaultError);
		expect(damaged?.message).toMatch(new RegExp(`^run\\.json of ${path.basename(dir)} is damaged: status`));
		expect(damaged?.issues?.map((i) => i.path)).toEqual(['status', 'target']);
		writeFileSync(path.join(dir, 'run.json'), '{"id": ');
		expect(() => readRunMeta(dir)).toThrow(/run\.json of .* is not valid JSON/);
	});
});
