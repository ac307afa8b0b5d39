import { expect, test, type Page } from '@playwright/test';

// Finding things in a run in the debugger: the search box leads to the step, the agent and the
// memory; the changes pane shows what the step on the screen did; the model-calls tab charts
// the run's model use per game hour. One finished run of the 3-agent town, shared in order.

test.describe.configure({ mode: 'serial' });

let runId = '';

interface Result {
	agent: string;
	kind: string;
	id: string;
	step: number;
	text: string;
}

test.beforeAll(async ({ request }) => {
	const res = await request.post('/api/runs', { data: { world: 'the-ville-3', steps: 700, seed: 5, model: 'offline' } });
	expect(res.ok(), await res.text()).toBe(true);
	runId = ((await res.json()) as { id: string }).id;
	await expect.poll(async () => (await (await request.get(`/api/runs/${runId}`)).json()).status, { timeout: 120_000 }).toBe('done');
});

async function openRun(page: Page, query = ''): Promise<void> {
	await page.goto(`/runs/${runId}${query}`);
	await expect(page.getByRole('application', { name: 'Town map' })).toHaveAttribute('data-ready', 'true');
}

test('the search box finds memories, lines and calls; a result leads to its step, agent and memory', async ({ page }) => {
	await openRun(page, '?step=10');
	const api = (await (await page.request.get(`/api/runs/${runId}/search?q=Klaus&limit=40`)).json()) as { results: Result[] };
	await page.getByLabel('Search the run').fill('Klaus');
	await page.getByLabel('Search the run').press('Enter');
	const results = page.getByLabel('Search results');
	await expect(results.getByRole('status')).toContainText(`${api.results.length} results for “Klaus”`);
	const items = results.getByRole('listitem');
	await expect(items).toHaveCount(api.results.length);
	for (const kind of ['call', 'line']) await expect(results.locator(`.kind`, { hasText: kind }).first()).toBeVisible();

	const i = api.results.findIndex((r) => r.kind === 'memory');
	const memory = api.results[i];
	await items.nth(i).getByRole('button').click();
	await expect(page.getByLabel('Current step')).toHaveText(String(memory.step + 1));
	await expect(page.getByLabel('Selected agent')).toHaveValue(memory.agent);
	await expect(page.getByRole('tab', { name: 'Memories' })).toHaveAttribute('aria-selected', 'true');
	const marked = page.locator('[aria-label="Memory stream"] li.marked');
	await expect(marked).toHaveCount(1);
	await expect(marked).toHaveAttribute('data-id', memory.id);
	await expect(marked).toContainText(memory.text);
	await expect(marked).toBeInViewport();

	// a call: the model-calls tab, the call opened
	await page.getByLabel('Search the run').click();
	const c = api.results.findIndex((r) => r.kind === 'call');
	await page.getByLabel('Search results').getByRole('listitem').nth(c).getByRole('button').click();
	await expect(page.getByRole('tab', { name: 'Model calls' })).toHaveAttribute('aria-selected', 'true');
	await expect(page.locator('.calls li.marked details')).toHaveAttribute('open', '');
	await expect(page.locator('.calls li.marked')).toContainText(api.results[c].id);
});

test('the changes pane shows what the step on the screen did, as the API says, and follows the cursor', async ({ page }) => {
	await openRun(page, '?step=300');
	await page.getByRole('button', { name: 'Changes', exact: true }).click();
	const pane = page.getByRole('complementary', { name: 'Changes of the step' });
	await expect(pane.getByRole('heading')).toContainText('Step 299 → 300');
	const api = (await (await page.request.get(`/api/runs/${runId}/changes?step=300`)).json()) as { changes: { kind: string; text: string }[]; counts: Record<string, number> };
	const shown = api.changes.filter((c) => c.kind !== 'move');
	await expect(pane.getByRole('list', { name: 'Changes' }).getByRole('listitem')).toHaveCount(shown.length);
	// moves are hidden at first; their chip shows them
	if (api.counts.move) {
		await pane.getByRole('button', { name: `moves ${api.counts.move}` }).click();
		await expect(pane.getByRole('list', { name: 'Changes' }).getByRole('listitem')).toHaveCount(api.changes.length);
	}
	await page.getByRole('button', { name: 'Step back' }).click();
	await expect(pane.getByRole('heading')).toContainText('Step 298 → 299');
});

test('the model-calls tab charts calls, tokens and latency per game hour; a bar leads to its hour', async ({ page }) => {
	await openRun(page, '?step=5&tab=calls');
	const use = (await (await page.request.get(`/api/runs/${runId}/model-use`)).json()) as { hours: { step: number }[]; templates: { template: string }[] };
	const chart = page.getByRole('img', { name: 'Calls per game hour' });
	await expect(chart).toBeVisible();
	await expect(chart.locator('g.hour')).toHaveCount(use.hours.length);
	await expect(page.getByRole('list', { name: 'Templates' })).toContainText(use.templates[0].template);
	await page.getByRole('radio', { name: 'Tokens' }).check();
	await expect(page.getByRole('img', { name: 'Tokens per game hour' })).toBeVisible();
	await page.getByRole('img', { name: 'Tokens per game hour' }).locator('g.hour').nth(1).locator('rect.hit').click();
	await expect(page.getByLabel('Current step')).toHaveText(String(use.hours[1].step));
});
