import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';

// The studio on a 1280 x 800 window, as a new user found it: no page is wider than the window
// (the Town page's "New or copy..." button in view), /runs loads without a console warning (it
// warned of a hydration mismatch on every load), the re-score page keeps its header's run link
// whole and its "By purpose" rows at their height, the tile palette shows its last column, the
// relationship graph's names are at least 11 px on screen, and the calls made while a run was
// created are listed as "setup", not at step -1.

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 800 } });

let run = '';

async function noOverflow(page: Page, what: string): Promise<void> {
	const width = await page.evaluate(() => document.documentElement.scrollWidth);
	expect(width, `${what} is ${width} px wide`).toBeLessThanOrEqual(1280);
}

test('starts a short run to look at', async ({ page }) => {
	const started = await page.request.post('/api/runs', { data: { world: 'the-ville-3', steps: 120, seed: 4, model: 'offline' } });
	expect(started.ok(), await started.text()).toBe(true);
	run = (await started.json()).id;
	await expect.poll(async () => (await (await page.request.get(`/api/runs/${run}`)).json()).status, { timeout: 90_000 }).toBe('done');
});

test('no main page is wider than the window', async ({ page }) => {
	test.setTimeout(120_000);
	await page.goto('/');
	await expect(page.getByRole('application', { name: 'Town map' })).toBeVisible();
	await noOverflow(page, 'the Town page');
	await expect(page.getByRole('link', { name: 'New or copy…' })).toBeInViewport({ ratio: 1 });

	for (const [path, ready] of [
		['/worlds', 'main'],
		['/runs', 'table[aria-label="Runs"]'],
		['/prompts', '[data-testid="template-editor"][data-ready="true"]'],
		['/experiments', 'main'],
		[`/runs/${run}`, '[aria-label="Town map"][data-ready="true"]'],
		[`/runs/${run}/rescore`, 'section[aria-label="Re-scoring retrievals"]'],
		[`/compare?a=${run}&b=${run}`, 'main'],
		['/worlds/the-ville-3/edit', '[data-testid="map-canvas"][data-ready="true"]']
	] as const) {
		await page.goto(path);
		await expect(page.locator(ready).first()).toBeVisible({ timeout: 30_000 });
		await noOverflow(page, path);
	}
});

test('/runs loads without a warning in the console', async ({ page }) => {
	const said: string[] = [];
	page.on('console', (m: ConsoleMessage) => {
		if (m.type() === 'warning' || m.type() === 'error') said.push(`${m.type()}: ${m.text()}`);
	});
	for (let i = 0; i < 2; i++) {
		await page.goto('/runs');
		await expect(page.getByRole('table', { name: 'Runs' })).toBeVisible();
		await expect(page.locator(`tr[data-run="${run}"]`)).toBeVisible();
		await page.waitForTimeout(500);
	}
	expect(said).toEqual([]);
});

test('the re-score page keeps its run link whole and its "By purpose" rows at their height', async ({ page }) => {
	await page.goto(`/runs/${run}/rescore`);
	const link = page.getByRole('link', { name: run });
	await expect(link).toBeInViewport({ ratio: 1 });
	expect(await link.evaluate((a) => a.scrollWidth <= a.clientWidth)).toBe(true);

	// one purpose: "By purpose" has one row beside "By agent"'s three
	await page.getByRole('button', { name: 'Re-score' }).click();
	const purpose = page.getByLabel('Purpose');
	await expect(purpose.locator('option')).not.toHaveCount(1);
	await purpose.selectOption((await purpose.locator('option').nth(1).getAttribute('value'))!);
	await page.getByRole('button', { name: 'Re-score' }).click();
	const purposeRows = page.locator('table', { has: page.locator('caption', { hasText: 'By purpose' }) }).locator('tbody tr');
	await expect(purposeRows).toHaveCount(1);
	const heights = async (caption: string) =>
		page
			.locator('table', { has: page.locator('caption', { hasText: caption }) })
			.locator('tbody tr')
			.evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
	const agents = await heights('By agent');
	const byPurpose = await heights('By purpose');
	expect(byPurpose).toHaveLength(1);
	expect(agents.length).toBeGreaterThan(1);
	expect(byPurpose[0]).toBeLessThanOrEqual(Math.max(...agents) + 1);
});

test('the tile palette shows every column of the tileset', async ({ page }) => {
	await page.goto('/worlds/the-ville-3/edit');
	await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-ready', 'true');
	const grid = page.getByRole('group', { name: /^Tileset / });
	const fit = await grid.evaluate((g) => {
		const box = g.getBoundingClientRect();
		const right = Math.max(...[...g.querySelectorAll('.cell')].map((c) => c.getBoundingClientRect().right));
		return { scroll: g.scrollWidth, client: g.clientWidth, right, edge: box.left + g.clientWidth };
	});
	expect(fit.scroll).toBeLessThanOrEqual(fit.client);
	expect(fit.right).toBeLessThanOrEqual(fit.edge);
});

test("the relationship graph's names are at least 11 px on screen", async ({ page }) => {
	test.setTimeout(120_000);
	await page.goto(`/runs/${run}/eval`);
	await expect(page.getByTestId('eval-page')).toHaveAttribute('data-ready', 'true', { timeout: 90_000 });
	const chart = page.getByTestId('chart-network');
	await chart.scrollIntoViewIfNeeded();
	const sizes = await chart.locator('text').evaluateAll((texts) =>
		texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * ((t as SVGGraphicsElement).getScreenCTM()?.a ?? 0))
	);
	expect(sizes.length).toBeGreaterThan(0);
	for (const px of sizes) expect(px).toBeGreaterThanOrEqual(11);
	// and none is cut at the drawing's edge
	const inside = await chart.evaluate((svg) => {
		const box = svg.getBoundingClientRect();
		return [...svg.querySelectorAll('text')].every((t) => {
			const r = t.getBoundingClientRect();
			return r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
		});
	});
	expect(inside).toBe(true);
	await noOverflow(page, 'the evaluation page');
});

test('calls made while the run was created are listed as "setup", not at step -1', async ({ page }) => {
	await page.goto(`/runs/${run}?tab=calls`);
	await page.getByLabel('Steps', { exact: true }).selectOption('all');
	const list = page.getByRole('list', { name: 'Model calls' });
	await expect(list.locator('.step').first()).toBeVisible();
	// the list of every step replaces the step's own once it is loaded
	await expect.poll(() => list.locator('.step').allTextContents(), { timeout: 15_000 }).toContain('setup');
	expect(await list.locator('.step').allTextContents()).not.toContain('-1');
});
