import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { TEMPLATE_IDS } from '../../engine/model';
import { RunManager } from '../ide/manager';
import { loadPromptSet } from '../model/load';
import { projectRoot, promptsDir } from '../paths';
import { openRun, startRun } from '../run/runner';
import { PromptStore, PromptStoreError } from './store';

const root = mkdtempSync(path.join(tmpdir(), 'prompt-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A fresh data home and a fresh copy of the project's prompts/ as the working copy. */
function fresh(): { store: PromptStore; home: string; working: string } {
	const dir = path.join(root, String(++n));
	const home = path.join(dir, 'home');
	const working = path.join(dir, 'prompts');
	cpSync(path.join(projectRoot(), 'prompts'), working, { recursive: true });
	return { store: new PromptStore({ home, promptsDir: working }), home, working };
}

const read = (dir: string, id: string) => readFileSync(path.join(dir, `${id}.md`), 'utf8');

/** The working copy's sources with `edit` applied to one template. */
function edited(store: PromptStore, id: string, edit: (source: string) => string): { id: string; source: string }[] {
	return store.working().templates.map((t) => ({ id: t.id, source: t.id === id ? edit(t.source) : t.source }));
}

function refusal(fn: () => unknown): PromptStoreError {
	try {
		fn();
	} catch (e) {
		expect(e).toBeInstanceOf(PromptStoreError);
		return e as PromptStoreError;
	}
	throw new Error('expected a PromptStoreError');
}

const louder = (s: string) => s.replace('Rate every memory', 'Carefully rate every memory');

describe('prompt store', () => {
	let store: PromptStore;
	let working: string;
	beforeEach(() => {
		({ store, working } = fresh());
	});

	it('stores the working copy as the baseline on first use, once, under the hash runs record', async () => {
		const versions = store.listVersions();
		expect(versions).toHaveLength(1);
		const [base] = versions;
		expect(base).toMatchObject({ message: 'Initial prompt set', labels: ['baseline'], changed: [...TEMPLATE_IDS].sort() });
		expect(base.parent).toBeUndefined();
		expect(store.labels()).toEqual({ baseline: base.version });
		// the version is the prompt-set version a run of this folder records
		const set = await loadPromptSet(working);
		expect(base.version).toBe(set.version);
		expect(base.templates).toEqual(set.versions);
		expect(store.ensureBaseline()).toBe(base.version);
		expect(new PromptStore({ home: store.home, promptsDir: working }).listVersions()).toHaveLength(1);
		const w = store.working();
		expect(w).toMatchObject({ version: base.version, saved: true, base: base.version, problems: [] });
		expect(w.templates.map((t) => t.id)).toEqual([...TEMPLATE_IDS].sort());
	});

	it('saves a new immutable version, writes it into the working copy, and answers identical content with the existing version', async () => {
		const base = store.ensureBaseline() as string;
		const templates = edited(store, 'importance', louder);
		const first = store.saveVersion({ message: 'ask for care', templates });
		expect(first.created).toBe(true);
		expect(first.info).toMatchObject({ message: 'ask for care', parent: base, changed: ['importance'], labels: [] });
		expect(first.info.version).not.toBe(base);
		expect(read(working, 'importance')).toMatch(/Carefully rate every memory/);
		expect(store.working()).toMatchObject({ version: first.info.version, saved: true, base: first.info.version });
		expect((await loadPromptSet(working)).version).toBe(first.info.version);

		const files = path.join(store.dir, 'versions', first.info.version);
		const before = readFileSync(path.join(files, 'meta.json'), 'utf8');
		const again = store.saveVersion({ message: 'the same again', templates: templates.map((t) => ({ ...t, source: t.source.replace(/\n/g, '\r\n') })) });
		expect(again.created).toBe(false);
		expect(again.info.version).toBe(first.info.version);
		expect(again.info.message).toBe('ask for care');
		expect(readFileSync(path.join(files, 'meta.json'), 'utf8')).toBe(before);
		expect(store.listVersions().map((v) => v.version)).toEqual([first.info.version, base]);
		// the stored text of the baseline is untouched by the later save
		expect(store.getVersion('baseline').templates.find((t) => t.id === 'importance')?.source).toMatch(/^Rate every memory/m);
	});

	it('refuses an invalid set with each problem at its template and line, and writes nothing', () => {
		const broken = TEMPLATE_IDS.map((id) => ({ id, source: read(working, id) })).map((t) => (t.id === 'importance' ? { ...t, source: t.source.replace('{{memories}}', '{{memorys}}') } : t));
		expect(refusal(() => store.saveVersion({ message: 'first', templates: broken })).status).toBe(400);
		// not even the baseline, on a store used for the first time
		expect(existsSync(store.dir)).toBe(false);
		store.ensureBaseline();
		const snapshot = () => ({ versions: readdirSync(path.join(store.dir, 'versions')).sort(), importance: read(working, 'importance'), react: read(working, 'react') });
		const before = snapshot();
		const templates = edited(store, 'importance', (s) => s.replace('Memories of {{name}}:', 'Memories of {{person}}:')).map((t) =>
			t.id === 'react' ? { ...t, source: t.source.replace('{{other_status}}', 'the status') } : t
		);
		const e = refusal(() => store.saveVersion({ message: 'broken', templates }));
		expect(e.status).toBe(400);
		expect(e.issues).toEqual([
			{ template: 'importance', line: 28, column: 13, message: expect.stringMatching(/^unknown placeholder \{\{person\}\}/) },
			expect.objectContaining({ template: 'react', line: expect.any(Number), message: 'input "other_status" is declared but the text never uses {{other_status}}' })
		]);
		expect(e.message).toMatch(/^the prompt set was not saved: 2 problems\nimportance\.md:28: unknown placeholder/);
		expect(snapshot()).toEqual(before);

		const partial = refusal(() => store.saveVersion({ message: 'partial', templates: templates.filter((t) => t.id !== 'replan' && t.id !== 'importance').concat({ id: 'gossip', source: '---\n---\n' }) }));
		expect(partial.issues).toEqual(
			expect.arrayContaining([
				{ template: 'gossip', message: expect.stringMatching(/^the engine has no template "gossip"/) },
				{ template: 'replan', message: expect.stringMatching(/^missing/) },
				{ template: 'importance', message: expect.stringMatching(/^missing/) }
			])
		);
		expect(refusal(() => store.saveVersion({ message: '  ', templates: edited(store, 'importance', louder) })).message).toMatch(/needs a message/);
		expect(snapshot()).toEqual(before);
	});

	it('moves labels and resolves labels, ids and unique prefixes', () => {
		const base = store.ensureBaseline() as string;
		const v1 = store.saveVersion({ message: 'one', templates: edited(store, 'importance', louder) }).info.version;
		expect(store.setLabel('candidate', v1)).toEqual({ baseline: base, candidate: v1 });
		expect(store.resolve('candidate')).toBe(v1);
		expect(store.setLabel('candidate', 'baseline')).toEqual({ baseline: base, candidate: base });
		expect(store.resolve('candidate')).toBe(base);
		expect(store.listVersions().find((v) => v.version === base)?.labels).toEqual(['baseline', 'candidate']);

		expect(store.resolve(v1)).toBe(v1);
		expect(store.resolve(v1.slice(0, 8))).toBe(v1);
		expect(refusal(() => store.resolve(v1.slice(0, 7))).status).toBe(404);
		expect(refusal(() => store.resolve('nope')).message).toBe('no prompt-set version or label "nope" (labels: baseline, candidate)');
		expect(refusal(() => store.setLabel('Bad Label', v1)).status).toBe(400);
		expect(refusal(() => store.setLabel('deadbeef12', v1)).message).toMatch(/mistaken for a version id/);
		expect(refusal(() => store.setLabel('next', 'nope')).status).toBe(404);
	});

	it('keeps the history of each template and restores any version into the working copy', () => {
		const base = store.ensureBaseline() as string;
		const v1 = store.saveVersion({ message: 'care', templates: edited(store, 'importance', louder) }).info.version;
		const v2 = store.saveVersion({ message: 'shorter reactions', templates: edited(store, 'react', (s) => s.replace('{{context}}', 'Context: {{context}}')) }).info.version;
		expect(store.getVersion(v2).info).toMatchObject({ parent: v1, changed: ['react'] });
		expect(store.historyOf('importance').map((h) => [h.version, h.message])).toEqual([
			[v1, 'care'],
			[base, 'Initial prompt set']
		]);
		expect(store.historyOf('react').map((h) => h.version)).toEqual([v2, base]);
		expect(store.historyOf('replan').map((h) => h.version)).toEqual([base]);
		expect(store.historyOf('importance')[0].templateVersion).toBe(store.getVersion(v1).info.templates.importance);
		expect(refusal(() => store.historyOf('gossip')).status).toBe(404);

		const restored = store.restore('baseline');
		expect(restored).toMatchObject({ version: base, saved: true, base });
		expect(read(working, 'importance')).not.toMatch(/Carefully/);
		// a version made from the restored baseline has it as parent; react's change is not in it
		const v3 = store.saveVersion({ message: 'other branch', templates: edited(store, 'replan', (s) => s.replace('{{reaction}}', '"{{reaction}}"')) }).info;
		expect(v3).toMatchObject({ parent: base, changed: ['replan'] });
		expect(store.historyOf('react').map((h) => h.version)).toEqual([v2, base]);
	});

	it('reports unsaved edits of the working copy, and their problems', () => {
		const base = store.ensureBaseline() as string;
		writeFileSync(path.join(working, 'importance.md'), louder(read(working, 'importance')));
		const w = store.working();
		expect(w.saved).toBe(false);
		expect(w.version).not.toBe(base);
		expect(w.base).toBe(base);
		expect(w.problems).toEqual([]);
		writeFileSync(path.join(working, 'importance.md'), read(working, 'importance').replace('{{memories}}', '{{memorys}}'));
		expect(store.working().problems).toEqual(
			expect.arrayContaining([{ template: 'importance', line: 29, column: 1, message: expect.stringMatching(/^unknown placeholder \{\{memorys\}\}/) }])
		);
	});

	it('leaves the store empty while the working copy cannot be stored, and labels the first saved version baseline', () => {
		const good = read(working, 'importance');
		writeFileSync(path.join(working, 'importance.md'), good.replace('{{name}}', '{{nam}}'));
		expect(store.listVersions()).toEqual([]);
		expect(store.working().problems.length).toBeGreaterThan(0);
		const fixed = store.working().templates.map((t) => ({ id: t.id, source: t.id === 'importance' ? good : t.source }));
		const v = store.saveVersion({ message: 'fixed', templates: fixed }).info;
		expect(store.labels()).toEqual({ baseline: v.version });
		expect(read(working, 'importance')).toBe(good);
	});

	it('materialises a version as a folder of exactly its templates and refuses one changed on disk', async () => {
		const base = store.ensureBaseline() as string;
		const dir = store.materialise('baseline');
		expect(readdirSync(dir).sort()).toEqual(TEMPLATE_IDS.map((id) => `${id}.md`).sort());
		expect((await loadPromptSet(dir)).version).toBe(base);
		writeFileSync(path.join(dir, 'react.md'), read(dir, 'react') + 'extra\n');
		expect(() => store.materialise(base)).toThrow(/was changed on disk/);
	});

	it('takes the working copy from SIMULACRA_PROMPTS', () => {
		expect(promptsDir({})).toBe(path.join(projectRoot(), 'prompts'));
		expect(promptsDir({ SIMULACRA_PROMPTS: ' /tmp/p ' })).toBe('/tmp/p');
		const saved = process.env.SIMULACRA_PROMPTS;
		process.env.SIMULACRA_PROMPTS = working;
		try {
			expect(new PromptStore({ home: store.home }).promptsDir).toBe(working);
		} finally {
			if (saved === undefined) delete process.env.SIMULACRA_PROMPTS;
			else process.env.SIMULACRA_PROMPTS = saved;
		}
	});
});

describe('runs with a stored version', () => {
	it('record that version, for new runs and forks, through the runner and the run manager', async () => {
		const { store, home, working } = fresh();
		const base = store.ensureBaseline() as string;
		const v1 = store.saveVersion({ message: 'care', templates: edited(store, 'importance', louder) }).info.version;
		store.restore('baseline');

		const a = await startRun({ world: 'the-ville-3', steps: 2, seed: 3, home, promptsDir: store.materialise(v1) });
		const meta = openRun(a.run, home).meta;
		expect(meta.promptSet.version).toBe(v1);
		expect(meta.promptSet.templates).toEqual(store.getVersion(v1).info.templates);
		expect(readFileSync(path.join(home, 'runs', a.run, 'prompts', 'importance.md'), 'utf8')).toMatch(/Carefully/);

		const saved = process.env.SIMULACRA_PROMPTS;
		process.env.SIMULACRA_PROMPTS = working;
		const manager = new RunManager({ home });
		try {
			const plain = await manager.start({ world: 'the-ville-3', steps: 1, seed: 3 });
			expect(openRun(plain.id, home).meta.promptSet.version).toBe(base);
			const fork = await manager.start({ from: { run: a.run, step: 1 }, steps: 1, prompts: 'baseline', paused: true });
			expect(openRun(fork.id, home).meta.promptSet.version).toBe(base);
			expect(openRun(fork.id, home).meta.parent).toEqual({ run: a.run, step: 1 });
			const inherited = await manager.start({ from: { run: a.run, step: 1 }, steps: 1, paused: true });
			expect(openRun(inherited.id, home).meta.promptSet.version).toBe(v1);
			await expect(manager.start({ world: 'the-ville-3', steps: 1, prompts: 'nope' })).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/no prompt-set version or label "nope"/) });
		} finally {
			await manager.shutdown();
			if (saved === undefined) delete process.env.SIMULACRA_PROMPTS;
			else process.env.SIMULACRA_PROMPTS = saved;
		}
		expect(existsSync(path.join(home, 'prompt-versions', 'versions', v1))).toBe(true);
	}, 120_000);
});
