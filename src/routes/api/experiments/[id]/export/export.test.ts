import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentId, parseExperiment } from '$lib/server/experiments/definition';
import { appendJobLine, openExperiment } from '$lib/server/experiments/store';
import { GET } from './+server';

const home = mkdtempSync(path.join(tmpdir(), 'simulacra-exp-export-'));
const saved = process.env.SIMULACRA_HOME;
let id: string;

beforeAll(() => {
	process.env.SIMULACRA_HOME = home;
	const def = parseExperiment({ name: 'export', world: 'the-ville-3', steps: 5, replicates: 2, arms: [{ name: 'A' }, { name: 'B' }] }, 'export.json');
	id = experimentId(def);
	openExperiment(id, def, null, home);
	const values: Record<string, number[]> = { A: [1, 2], B: [5, 6] };
	for (const arm of ['A', 'B']) for (const r of [0, 1]) appendJobLine(id, { key: `${arm}#${r}`, state: 'done', run: `run-${arm}-${r}`, metrics: { conversations: values[arm][r] } }, home);
});
afterAll(() => {
	if (saved === undefined) delete process.env.SIMULACRA_HOME;
	else process.env.SIMULACRA_HOME = saved;
	rmSync(home, { recursive: true, force: true });
});

const get = (query: string, which = id) => GET({ params: { id: which }, url: new URL(`http://localhost/api/experiments/${which}/export?${query}`) } as never) as Promise<Response>;

describe('GET /api/experiments/:id/export', () => {
	it('exports the report as JSON and both tables as CSV, as downloads', async () => {
		const json = await get('format=json');
		expect(json.headers.get('content-disposition')).toBe(`attachment; filename="experiment-${id}.json"`);
		const report = await json.json();
		expect(report.comparisons[0]).toMatchObject({ metric: 'conversations', a: 'A', b: 'B', effect: 4 });
		const runs = await (await get('format=csv&table=runs')).text();
		expect(runs.split('\n')[1]).toBe('A,0,run-A-0,1,0,conversations,1');
		const effects = await get('format=csv&table=effects');
		expect(effects.headers.get('content-type')).toMatch(/text\/csv/);
		expect((await effects.text()).split('\n')[0]).toBe('metric,a,b,effect,ci_low,ci_high,p,p_adjusted,cliffs_delta');
	});

	it('answers 400 for a bad format and 404 for an unknown experiment', async () => {
		const bad = await get('format=xml');
		expect(bad.status).toBe(400);
		expect((await bad.json()).message).toMatch(/format is json or csv/);
		expect((await get('format=json', 'nothing-0123456789')).status).toBe(404);
	});
});
