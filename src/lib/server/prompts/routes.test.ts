// The /api/prompts/** handlers called the way SvelteKit calls them, on a temporary data home and
// a temporary copy of prompts/.

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckTemplateResult, PromptsErrorBody, PromptsOverview, PromptVersionDetail, PromptVersionInfo, PromptWorkingCopy, TemplateHistoryEntry } from '../../api/prompts';
import { projectRoot } from '../paths';
import * as overviewRoute from '../../../routes/api/prompts/+server';
import * as versionsRoute from '../../../routes/api/prompts/versions/+server';
import * as versionRoute from '../../../routes/api/prompts/versions/[version]/+server';
import * as restoreRoute from '../../../routes/api/prompts/versions/[version]/restore/+server';
import * as labelRoute from '../../../routes/api/prompts/labels/[label]/+server';
import * as historyRoute from '../../../routes/api/prompts/history/[template]/+server';
import * as checkRoute from '../../../routes/api/prompts/check/+server';

const dir = mkdtempSync(path.join(tmpdir(), 'prompt-routes-'));
const prompts = path.join(dir, 'prompts');
cpSync(path.join(projectRoot(), 'prompts'), prompts, { recursive: true });
process.env.SIMULACRA_HOME = path.join(dir, 'home');
process.env.SIMULACRA_PROMPTS = prompts;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (event: any) => Response | Promise<Response>;

async function call(handler: Handler, params: Record<string, string> = {}, method = 'GET', body?: unknown): Promise<{ status: number; body: unknown }> {
	const request = new Request('http://127.0.0.1/api/prompts', body === undefined ? { method } : { method, body: typeof body === 'string' ? body : JSON.stringify(body) });
	const res = await handler({ params, request, url: new URL(request.url) });
	expect(res.headers.get('content-type')).toMatch(/json/);
	return { status: res.status, body: await res.json() };
}

function refused(r: { status: number; body: unknown }, status: number): PromptsErrorBody {
	expect(r.status).toBe(status);
	const body = r.body as PromptsErrorBody;
	expect(typeof body.message).toBe('string');
	expect(body.message).not.toMatch(/\n\s+at /);
	return body;
}

describe('/api/prompts', () => {
	it('lists, saves, labels, restores and checks', async () => {
		const first = (await call(overviewRoute.GET)).body as PromptsOverview;
		expect(first.versions).toHaveLength(1);
		const base = first.versions[0].version;
		expect(first.labels).toEqual({ baseline: base });
		expect(first.working).toMatchObject({ version: base, saved: true, base, problems: [] });
		expect(first.working.templates).toHaveLength(21);

		const templates = first.working.templates.map(({ id, source }) => ({ id, source: id === 'react' ? source.replace('{{context}}', 'Context: {{context}}') : source }));
		const saved = await call(versionsRoute.POST, {}, 'POST', { message: 'label the context', templates });
		expect(saved.status).toBe(201);
		const v1 = saved.body as PromptVersionInfo;
		expect(v1).toMatchObject({ message: 'label the context', parent: base, changed: ['react'] });
		const again = await call(versionsRoute.POST, {}, 'POST', { message: 'again', templates });
		expect(again.status).toBe(200);
		expect((again.body as PromptVersionInfo).version).toBe(v1.version);

		const bad = refused(await call(versionsRoute.POST, {}, 'POST', { message: 'broken', templates: templates.map((t) => (t.id === 'react' ? { ...t, source: t.source.replace('Context: {{context}}', '{{contxt}}') } : t)) }), 400);
		expect(bad.issues).toEqual(
			expect.arrayContaining([expect.objectContaining({ template: 'react', line: expect.any(Number), message: expect.stringMatching(/unknown placeholder \{\{contxt\}\}/) })])
		);
		refused(await call(versionsRoute.POST, {}, 'POST', '{not json'), 400);

		const detail = (await call(versionRoute.GET, { version: v1.version.slice(0, 8) })).body as PromptVersionDetail;
		expect(detail.info.version).toBe(v1.version);
		expect(detail.templates.find((t) => t.id === 'react')?.source).toMatch(/Context: \{\{context\}\}/);
		expect(refused(await call(versionRoute.GET, { version: 'nope' }), 404).message).toMatch(/no prompt-set version or label "nope"/);
		refused(await call(versionRoute.GET, { version: '../x' }), 400);

		expect((await call(labelRoute.PUT, { label: 'candidate' }, 'PUT', { version: v1.version })).body).toEqual({ baseline: base, candidate: v1.version });
		refused(await call(labelRoute.PUT, { label: 'candidate' }, 'PUT', { version: 'missing' }), 404);
		refused(await call(labelRoute.PUT, { label: 'candidate' }, 'PUT', {}), 400);

		const history = (await call(historyRoute.GET, { template: 'react' })).body as TemplateHistoryEntry[];
		expect(history.map((h) => h.version)).toEqual([v1.version, base]);
		refused(await call(historyRoute.GET, { template: 'nope' }), 404);

		const restored = (await call(restoreRoute.POST, { version: 'baseline' }, 'POST')).body as PromptWorkingCopy;
		expect(restored).toMatchObject({ version: base, saved: true });
		expect(readFileSync(path.join(prompts, 'react.md'), 'utf8')).not.toMatch(/Context: \{\{context\}\}/);

		const react = readFileSync(path.join(prompts, 'react.md'), 'utf8');
		const clean = (await call(checkRoute.POST, {}, 'POST', { id: 'react', source: react })).body as CheckTemplateResult;
		expect(clean.issues).toEqual([]);
		const checked = (await call(checkRoute.POST, {}, 'POST', { id: 'react', source: react.replace('{{context}}', '{{ contxt }}') })).body as CheckTemplateResult;
		expect(checked.issues).toEqual([
			expect.objectContaining({ severity: 'error', message: 'input "context" is declared but the text never uses {{context}}' }),
			expect.objectContaining({ severity: 'error', column: expect.any(Number), endColumn: expect.any(Number), message: expect.stringMatching(/^unknown placeholder \{\{contxt\}\}/) })
		]);
		refused(await call(checkRoute.POST, {}, 'POST', { id: 'react' }), 400);
	});
});
