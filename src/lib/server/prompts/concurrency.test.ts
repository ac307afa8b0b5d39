// Changes to the data home's prompt versions from several real processes at once: labels,
// versions and restores each take the store's lock, so none is lost; a run started while
// versions are being restored records the version of exactly the prompts it keeps.

import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPromptSet } from '../model/load';
import { projectRoot } from '../paths';
import { startRun } from '../run/runner';
import { PromptStore, withPromptLock } from './store';

const root = mkdtempSync(path.join(tmpdir(), 'prompt-concurrency-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const cli = path.join(projectRoot(), 'src/cli/main.ts');
const storeModule = path.join(projectRoot(), 'src/lib/server/prompts/store.ts');

let n = 0;
function fresh(): { home: string; working: string; store: PromptStore } {
	const dir = path.join(root, String(++n));
	const home = path.join(dir, 'home');
	const working = path.join(dir, 'prompts');
	cpSync(path.join(projectRoot(), 'prompts'), working, { recursive: true });
	return { home, working, store: new PromptStore({ home, promptsDir: working }) };
}

/** Runs a process to its end: exit code and output. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: projectRoot(), env: { ...process.env, ...env } });
		let out = '';
		let err = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (err += d));
		child.on('close', (code) => resolve({ code, out, err }));
	});
}

/** A script that waits for `go` to exist (so that every process starts its change together), then runs `body`. */
function script(dir: string, name: string, body: string): string {
	const file = path.join(dir, `${name}.mts`);
	writeFileSync(
		file,
		`import { existsSync } from 'node:fs';
import { PromptStore } from ${JSON.stringify(storeModule)};
const [home, working, go, arg] = process.argv.slice(2);
while (!existsSync(go)) await new Promise((r) => setTimeout(r, 2));
const store = new PromptStore({ home, promptsDir: working });
${body}
`
	);
	return file;
}

/** Runs `count` processes of a script together. */
async function together(count: number, file: string, home: string, working: string, arg: (i: number) => string) {
	const go = path.join(path.dirname(file), `${path.basename(file)}.go`);
	const runs = Array.from({ length: count }, (_, i) => run([file, home, working, go, arg(i)], {}));
	// every process is started (tsx loaded) before any may change anything
	await new Promise((r) => setTimeout(r, 2500));
	writeFileSync(go, '');
	return Promise.all(runs);
}

describe('prompt versions changed by 8 processes at once', () => {
	it('keeps every label set through the CLI', async () => {
		const { home, working, store } = fresh();
		const baseline = store.ensureBaseline() as string;
		const env = { SIMULACRA_HOME: home, SIMULACRA_PROMPTS: working };
		const results = await Promise.all(Array.from({ length: 8 }, (_, i) => run([cli, 'prompts', 'label', `tag-${i}`, 'baseline'], env)));
		for (const r of results) expect(r.code, r.err).toBe(0);
		const labels = store.labels();
		for (let i = 0; i < 8; i++) expect(labels[`tag-${i}`]).toBe(baseline);
		expect(Object.keys(labels)).toHaveLength(9);
	}, 300_000);

	it('keeps every label and every version stored at the same moment', async () => {
		const { home, working, store } = fresh();
		store.ensureBaseline();
		const labeller = script(path.dirname(home), 'label', `store.setLabel('at-' + arg, 'baseline');`);
		const saver = script(
			path.dirname(home),
			'save',
			`const templates = store.working().templates.map((t) => ({ id: t.id, source: t.id === 'importance' ? t.source.replace('Rate every memory', 'Rate every memory (' + arg + ')') : t.source }));
store.saveVersion({ message: 'edit ' + arg, templates });`
		);
		const [labelled, saved] = await Promise.all([
			together(8, labeller, home, working, (i) => String(i)),
			together(8, saver, home, working, (i) => String(i))
		]);
		for (const r of [...labelled, ...saved]) expect(r.code, r.err).toBe(0);
		const labels = store.labels();
		for (let i = 0; i < 8; i++) expect(labels[`at-${i}`]).toBe(labels.baseline);
		const versions = store.listVersions();
		// the baseline and the 8 edits, in 9 distinct creation times
		expect(versions).toHaveLength(9);
		expect(new Set(versions.map((v) => v.created)).size).toBe(9);
		for (let i = 0; i < 8; i++) expect(versions.some((v) => v.message === `edit ${i}`)).toBe(true);
		// the working copy is exactly the last version written into it, never a mix
		const w = store.working();
		expect(w.saved).toBe(true);
		expect(w.base).toBe(w.version);
	}, 300_000);

	it('leaves the working copy exactly one version after concurrent restores, and runs record what they copy', async () => {
		const { home, working, store } = fresh();
		const base = store.ensureBaseline() as string;
		// versions that each change every template, so that a mix of two would be neither
		const versions = [base];
		for (let k = 1; k < 4; k++) {
			const templates = store.working().templates.map((t) => ({ id: t.id, source: `${t.source.trimEnd()}\n<!-- variant ${k} -->\n` }));
			versions.push(store.saveVersion({ message: `variant ${k}`, templates }).info.version);
		}
		const restorer = script(
			path.dirname(home),
			'restore',
			`const versions = arg.split(',');
for (let k = 0; k < 6; k++) store.restore(versions[(k + versions.length) % versions.length]);`
		);
		const restores = together(8, restorer, home, working, (i) => [...versions.slice(i % 4), ...versions.slice(0, i % 4)].join(','));
		// runs started while the working copy is being restored
		const prompts = process.env.SIMULACRA_PROMPTS;
		process.env.SIMULACRA_PROMPTS = working;
		const runs: string[] = [];
		try {
			await new Promise((r) => setTimeout(r, 2400));
			for (let k = 0; k < 6; k++) runs.push((await startRun({ world: 'the-ville-3', steps: 0, seed: 1, home })).run);
		} finally {
			if (prompts === undefined) delete process.env.SIMULACRA_PROMPTS;
			else process.env.SIMULACRA_PROMPTS = prompts;
		}
		for (const r of await restores) expect(r.code, r.err).toBe(0);
		const w = store.working();
		expect(versions).toContain(w.version);
		expect(w.base).toBe(w.version);
		for (const id of runs) {
			const dir = path.join(home, 'runs', id);
			const meta = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8'));
			const copied = await loadPromptSet(path.join(dir, 'prompts'));
			expect(copied.version).toBe(meta.promptSet.version);
			expect(versions).toContain(copied.version);
		}
	}, 300_000);
});

describe('the prompt store lock', () => {
	it('is taken over from a holder that died, and refuses with the holder named while it lives', () => {
		const dir = path.join(root, 'lock');
		// a holder that no longer exists
		withPromptLock(dir, () => undefined);
		writeFileSync(path.join(dir, '.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, since: '2020-01-01T00:00:00.000Z' }));
		expect(withPromptLock(dir, () => 'taken over')).toBe('taken over');
		expect(existsSync(path.join(dir, '.lock'))).toBe(false);
		// a holder that died between creating the file and naming itself in it
		writeFileSync(path.join(dir, '.lock'), '');
		utimesSync(path.join(dir, '.lock'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
		expect(withPromptLock(dir, () => 'taken over again')).toBe('taken over again');
		// a living holder (this test's parent process)
		writeFileSync(path.join(dir, '.lock'), JSON.stringify({ pid: process.ppid, since: '2020-01-01T00:00:00.000Z' }));
		expect(() => withPromptLock(dir, () => 'never', 50)).toThrow(`being changed by process ${process.ppid} (since 2020-01-01T00:00:00.000Z)`);
		// the same pid, but a process started after the lock was written (the pid was reused), or
		// a lock from before the machine restarted: the holder is gone
		const me = { pid: process.ppid, host: hostname(), since: '2020-01-01T00:00:00.000Z' };
		writeFileSync(path.join(dir, '.lock'), JSON.stringify({ ...me, boot: null, start: '1' }));
		expect(withPromptLock(dir, () => 'pid reused')).toBe('pid reused');
		writeFileSync(path.join(dir, '.lock'), JSON.stringify({ ...me, boot: 'another-boot', start: null }));
		expect(withPromptLock(dir, () => 'rebooted')).toBe('rebooted');
		// re-entrant within a process
		expect(withPromptLock(dir, () => withPromptLock(dir, () => 'nested'))).toBe('nested');
	});
});
