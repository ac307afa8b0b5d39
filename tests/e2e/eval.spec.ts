import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// The evaluation report of a run, opened as a person would, shows the figures `eval --json`
// gives and the charts. The run is The Ville with its party moved to the first evening, so a
// short run reaches the party's window and attendance is measured too.

const WORLD = 'e2e-party';

interface Report {
	step: number;
	diffusion: { fact: { id: string }; start: { knowers: number }; end: { knowers: number; share: number } }[];
	relationships: { start: { density: number }; end: { density: number; edges: unknown[] } };
	events: { fact: string; status: string; counts: { invited: number; attended: number } }[];
}

/** `npm run simulacra -- eval RUN --json`, against the test server's data and worlds. */
function evalJson(run: string): Report {
	const root = process.cwd();
	const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), 'eval', run, '--json'], {
		cwd: root,
		encoding: 'utf8',
		env: {
			...process.env,
			SIMULACRA_HOME: process.env.SIMULACRA_E2E_HOME,
			SIMULACRA_WORLDS: process.env.SIMULACRA_E2E_WORLDS,
			SIMULACRA_PROMPTS: process.env.SIMULACRA_E2E_PROMPTS
		},
		timeout: 120_000
	});
	expect(r.status, r.stderr).toBe(0);
	return JSON.parse(r.stdout) as Report;
}

test('the report of a run shows the charts and the figures eval --json gives', async ({ page }) => {
	test.setTimeout(180_000);
	const worlds = process.env.SIMULACRA_E2E_WORLDS!;
	cpSync(path.join(worlds, 'the-ville-3'), path.join(worlds, WORLD), { recursive: true });
	const scenarioFile = path.join(worlds, WORLD, 'scenario.json');
	writeFileSync(scenarioFile, readFileSync(scenarioFile, 'utf8').replaceAll('2023-02-14T', '2023-02-13T'));

	const started = await page.request.post('/api/runs', { data: { world: WORLD, steps: 4400, seed: 2, model: 'offline' } });
	expect(started.ok(), await started.text()).toBe(true);
	const { id } = await started.json();
	await expect
		.poll(async () => (await (await page.request.get(`/api/runs/${id}`)).json()).status, { timeout: 90_000 })
		.toBe('done');

	const report = evalJson(id);
	expect(report.step).toBe(4400);
	expect(report.diffusion.length).toBeGreaterThan(0);

	await page.goto(`/runs/${id}`);
	await page.getByRole('link', { name: 'Evaluation' }).click();
	await expect(page).toHaveURL(new RegExp(`/runs/${id}/eval`));
	await expect(page.getByTestId('eval-page')).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });

	for (const d of report.diffusion) {
		const f = d.fact.id;
		await expect(page.getByTestId(`diffusion-${f}-start`)).toHaveAttribute('data-knowers', String(d.start.knowers));
		await expect(page.getByTestId(`diffusion-${f}-end`)).toHaveAttribute('data-knowers', String(d.end.knowers));
		await expect(page.getByTestId(`diffusion-${f}-end`)).toContainText(`${d.end.knowers} (`);
		await expect(page.getByTestId(`diffusion-line-${f}`)).toBeAttached();
	}
	await expect(page.getByTestId('density-start')).toHaveText(report.relationships.start.density.toFixed(3));
	await expect(page.getByTestId('density-end')).toHaveText(report.relationships.end.density.toFixed(3));
	const party = report.events.find((e) => e.fact === 'valentines-party')!;
	expect(party.status).toBe('complete');
	await expect(page.getByTestId('attendance-valentines-party-status')).toHaveText('complete');
	await expect(page.getByTestId('attendance-valentines-party-invited')).toHaveText(String(party.counts.invited));
	await expect(page.getByTestId('attendance-valentines-party-attended')).toHaveText(String(party.counts.attended));

	// The charts: diffusion over time, the relationship graph, attendance.
	await expect(page.getByTestId('chart-diffusion')).toHaveAttribute('role', 'img');
	await expect(page.getByTestId('chart-network')).toHaveAttribute('data-edges', String(report.relationships.end.edges.length));
	await expect(page.getByTestId('chart-attendance-valentines-party')).toBeVisible();

	// Believability rankings: the example set gives TrueSkill with error bars and the tests.
	await page.getByTestId('rankings-example').click();
	await expect(page.getByTestId('chart-trueskill')).toBeVisible();
	await expect(page.getByTestId('kruskal-df')).toHaveText('4');
	await expect(page.getByTestId('dunn-table')).toBeVisible();
	// README pictures: SCREENSHOTS=1 npx playwright test
	if (process.env.SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/evaluation.png', fullPage: true });
});
