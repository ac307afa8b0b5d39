// The workbench state against the real /api/prompts handlers (on a temporary data home and a
// copy of prompts/): drafts and their checks, form edits, a refused save with its lines, a
// stored version, labels, history and restoring.

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { projectRoot } from '$lib/server/paths';
import * as overviewRoute from '../../../routes/api/prompts/+server';
import * as historyRoute from '../../../routes/api/prompts/history/[template]/+server';
import * as labelsRoute from '../../../routes/api/prompts/labels/+server';
import * as labelRoute from '../../../routes/api/prompts/labels/[label]/+server';
import * as versionsRoute from '../../../routes/api/prompts/versions/+server';
import * as versionRoute from '../../../routes/api/prompts/versions/[version]/+server';
import * as restoreRoute from '../../../routes/api/prompts/versions/[version]/restore/+server';
import { createPromptsApi } from '$lib/ui/prompts-api';
import { CHECK_DELAY_MS, Workbench } from './workbench.svelte';

const dir = mkdtempSync(path.join(tmpdir(), 'prompt-workbench-'));
const prompts = path.join(dir, 'prompts');
const saved = { home: process.env.SIMULACRA_HOME, prompts: process.env.SIMULACRA_PROMPTS };
beforeAll(() => {
	cpSync(path.join(projectRoot(), 'prompts'), prompts, { recursive: true });
	process.env.SIMULACRA_HOME = path.join(dir, 'home');
	process.env.SIMULACRA_PROMPTS = prompts;
});
afterAll(() => {
	for (const [key, value] of [['SIMULACRA_HOME', saved.home], ['SIMULACRA_PROMPTS', saved.prompts]] as const) {
		if (value === undefined) delete process.env[key];
		else process.env[key] = value;
	}
	rmSync(dir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Module = Record<string, (event: any) => Response | Promise<Response>>;
const ROUTES: [RegExp, Module, string[]][] = [
	[/^\/api\/prompts$/, overviewRoute, []],
	[/^\/api\/prompts\/versions$/, versionsRoute, []],
	[/^\/api\/prompts\/versions\/([^/]+)$/, versionRoute, ['version']],
	[/^\/api\/prompts\/versions\/([^/]+)\/restore$/, restoreRoute, ['version']],
	[/^\/api\/prompts\/labels$/, labelsRoute, []],
	[/^\/api\/prompts\/labels\/([^/]+)$/, labelRoute, ['label']],
	[/^\/api\/prompts\/history\/([^/]+)$/, historyRoute, ['template']]
];

/** fetch() answered by the route handlers, as SvelteKit would call them. */
const fetchRoutes = (async (input: RequestInfo | URL, init?: RequestInit) => {
	const url = new URL(String(input), 'http://127.0.0.1');
	for (const [re, mod, names] of ROUTES) {
		const m = re.exec(url.pathname);
		if (!m) continue;
		const handler = mod[init?.method ?? 'GET'];
		if (!handler) return new Response('method not allowed', { status: 405 });
		const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
		return handler({ params, url, request: new Request(url, init) });
	}
	return new Response('not found', { status: 404 });
}) as typeof fetch;

async function open(): Promise<Workbench> {
	const api = createPromptsApi(fetchRoutes);
	return new Workbench(api, await api.overview());
}

const original = (id: string) => readFileSync(path.join(projectRoot(), 'prompts', `${id}.md`), 'utf8');

describe('Workbench', () => {
	it('holds every template of the working copy, none changed, none refused', async () => {
		const wb = await open();
		expect(wb.templates).toHaveLength(21);
		expect(wb.selected).toBe(wb.templates[0].id);
		for (const t of wb.templates) {
			expect(wb.changed[t.id], t.id).toBe(false);
			expect(wb.errorCount(t.id), t.id).toBe(0);
			expect(t.purpose.length, t.id).toBeGreaterThan(10);
		}
		expect(wb.versions).toHaveLength(1);
		expect(wb.labels.baseline).toBe(wb.versions[0].version);
		expect(wb.unsaved()).toEqual([]);
	});

	it('checks a draft once typing pauses: unknown placeholders with their line, changed marker', async () => {
		const wb = await open();
		const text = original('react').replace('Observation: {{observation}}', 'Observation: {{observation}} at {{place}}');
		vi.useFakeTimers();
		try {
			wb.setDraft('react', text.slice(0, -5));
			vi.advanceTimersByTime(CHECK_DELAY_MS - 1);
			wb.setDraft('react', text);
			expect(wb.drafts.react).toBe(text);
			// not checked yet: each keystroke restarts the wait for a pause
			vi.advanceTimersByTime(CHECK_DELAY_MS - 1);
			expect(wb.changed.react).toBe(false);
			expect(wb.checked.react).toBe(original('react'));
			vi.advanceTimersByTime(1);
		} finally {
			vi.useRealTimers();
		}
		expect(wb.checked.react).toBe(text);
		expect(wb.changed.react).toBe(true);
		const line = text.split('\n').findIndex((l) => l.includes('{{place}}')) + 1;
		expect(wb.issues.react).toContainEqual(expect.objectContaining({ line, severity: 'error', message: expect.stringContaining('unknown placeholder {{place}}') }));
		expect(wb.unsaved()).toEqual(['react']);

		// trailing spaces are not a change: saving normalises them away
		wb.setDraft('react', original('react').replace('\n---\n', '\n---   \n'));
		wb.check('react');
		expect(wb.changed.react).toBe(false);
		expect(wb.unsaved()).toEqual([]);
	});

	it('writes form edits into the draft and checks at once', async () => {
		const wb = await open();
		expect(wb.formEdit('react', { kind: 'sampling', key: 'temperature', value: 0.6 })).toBeNull();
		expect(wb.drafts.react).toContain('sampling: {temperature: 0.6, max_tokens: 150}');
		expect(wb.changed.react).toBe(true);
		expect(wb.formEdit('react', { kind: 'output', json: '{' })).toMatch(/not valid JSON/);
		expect(wb.formEdit('react', { kind: 'input-add', name: 'mood', type: 'text' })).toBeNull();
		expect(wb.issues.react.some((i) => /input "mood" is declared but the text never uses/.test(i.message))).toBe(true);
	});

	it('refuses to save a set with errors, naming template and line, and stores nothing', async () => {
		const wb = await open();
		const text = original('importance').replace('{{memories}}', '{{memory}}');
		wb.setDraft('importance', text);
		expect(await wb.save('broken')).toBeNull();
		// the problems are listed once, in saveIssues; the status line only says the set was not saved
		expect(wb.status).toEqual({ kind: 'error', text: 'Not saved' });
		const line = text.split('\n').findIndex((l) => l.includes('{{memory}}')) + 1;
		expect(wb.saveIssues).toContainEqual(expect.objectContaining({ template: 'importance', line, message: expect.stringContaining('{{memory}}') }));
		expect((await wb.api.versions()).length).toBe(1);
		expect(wb.drafts.importance).toBe(text);
	});

	it('saves every draft as a version, labels it, shows its history and restores the baseline', async () => {
		const wb = await open();
		const baseline = wb.labels.baseline;
		const text = original('inner_voice').replace('\n---\n', '\n---\nSpeak as {{name}}.\n');
		wb.setDraft('inner_voice', text);
		const info = await wb.save('Speak as the agent');
		expect(info).not.toBeNull();
		expect(info?.changed).toEqual(['inner_voice']);
		expect(wb.status).toEqual({ kind: 'ok', text: `Saved version ${info?.version.slice(0, 8)}` });
		expect(wb.versions[0].version).toBe(info?.version);
		expect(wb.changed.inner_voice).toBe(false);
		expect(wb.templates.find((t) => t.id === 'inner_voice')?.base).toBe(text);
		expect(readFileSync(path.join(prompts, 'inner_voice.md'), 'utf8')).toBe(text);

		const history = await wb.history('inner_voice');
		expect(history[0]).toMatchObject({ version: info?.version, message: 'Speak as the agent' });
		expect(await wb.setLabel('candidate', info?.version as string)).toBeNull();
		expect(wb.labels.candidate).toBe(info?.version);
		expect(wb.versions[0].labels).toEqual(['candidate']);
		expect(await wb.setLabel('Bad Label!', info?.version as string)).toMatch(/label/i);

		expect(await wb.textOf(baseline, 'inner_voice')).toBe(original('inner_voice'));
		expect(await wb.textOf('working', 'inner_voice')).toBe(text);
		wb.setDraft('inner_voice', text + '\nMore.\n');
		expect(await wb.textOf('draft', 'inner_voice')).toBe(text + '\nMore.\n');

		expect(await wb.restore('baseline')).toBe(true);
		expect(wb.drafts.inner_voice).toBe(original('inner_voice'));
		expect(wb.changed.inner_voice).toBe(false);
		expect(wb.working?.base).toBe(baseline);
		expect(readFileSync(path.join(prompts, 'inner_voice.md'), 'utf8')).toBe(original('inner_voice'));
	});
});
