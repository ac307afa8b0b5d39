import { expect, test, type Locator, type Page } from '@playwright/test';

// Changing an object's state, one of the paper's three user controls, from the pages: click an
// object on the town map (or in an agent's spatial memory) and set its state for the run's next
// step, or fork with one; the fork dialog proposes the rest of the parent run. The 3-agent town,
// one run shared by the tests in order.

test.describe.configure({ mode: 'serial' });

const STOVE = 'Hobbs Cafe:kitchen:stove';
/** the stove's first tile (column, row) on the-ville-3's map; tiles are 32 px */
const STOVE_TILE = { x: 5, y: 3 };
const TARGET = 100;

let runId = '';

interface ObjectStates {
	step: number;
	objects: { address: string; state: string; setByUser?: boolean }[];
}

async function objectAt(page: Page, run: string, step: number, address: string) {
	const res = await page.request.get(`/api/runs/${run}/objects?step=${step}`);
	expect(res.ok(), await res.text()).toBe(true);
	const body = (await res.json()) as ObjectStates;
	return body.objects.find((o) => o.address === address);
}

async function markerLabels(page: Page, run: string): Promise<string[]> {
	const timeline = (await (await page.request.get(`/api/runs/${run}/timeline`)).json()) as { markers: { kind: string; label: string }[] };
	return timeline.markers.filter((m) => m.kind === 'input').map((m) => m.label);
}

async function openRun(page: Page, run: string, query = ''): Promise<Locator> {
	await page.goto(`/runs/${run}${query}`);
	const map = page.getByRole('application', { name: 'Town map' });
	await expect(map).toHaveAttribute('data-ready', 'true');
	return map;
}

/** Clicks the middle of a tile of the map, where the map says it drew it. */
async function clickTile(map: Locator, tile: { x: number; y: number }): Promise<void> {
	const view = await map.evaluate((el) => (el as HTMLCanvasElement & { mapLabels?: { view: { scale: number; offsetX: number; offsetY: number } } }).mapLabels?.view);
	expect(view, 'the map tells where it drew the town').toBeTruthy();
	await map.click({ position: { x: (tile.x + 0.5) * 32 * view!.scale + view!.offsetX, y: (tile.y + 0.5) * 32 * view!.scale + view!.offsetY } });
}

test.beforeAll(async ({ request }) => {
	const res = await request.post('/api/runs', { data: { world: 'the-ville-3', steps: TARGET, seed: 5, model: 'offline', paused: true } });
	expect(res.ok(), await res.text()).toBe(true);
	runId = ((await res.json()) as { id: string }).id;
});

test('a click on the stove sets it on fire at the live run’s next step', async ({ page }) => {
	const map = await openRun(page, runId);
	await expect(page.getByLabel('Current step')).toHaveText('0');
	await clickTile(map, STOVE_TILE);
	const popover = page.getByRole('dialog', { name: 'Object stove' });
	await expect(popover).toBeVisible();
	await expect(popover).toContainText('Hobbs Cafe › kitchen');
	await expect(popover.locator('.state')).toHaveText('idle');

	await popover.getByLabel('New state').fill('on fire');
	await expect(popover.getByLabel(/in this run, at its next step \(1\)/)).toBeChecked();
	await popover.getByRole('button', { name: 'Set state' }).click();
	await expect(popover.getByRole('status')).toContainText('Queued');

	await page.getByRole('button', { name: 'Step', exact: true }).click();
	await expect(page.getByLabel('Current step')).toHaveText('1');
	// the town at the next step: the popover, the map and the step's events say so
	await expect(popover).toContainText('At step 1');
	await expect(popover.locator('.state')).toHaveText('on fire');
	await expect(popover).toContainText('set by a user');
	await expect
		.poll(() => map.evaluate((el) => (el as HTMLCanvasElement & { mapLabels?: { objects: { address: string; text: string }[] } }).mapLabels?.objects ?? []))
		.toContainEqual(expect.objectContaining({ address: STOVE, text: 'stove: on fire' }));
	await expect(page.getByRole('list', { name: 'Events at this step' })).toContainText(`${STOVE} set to "on fire"`);

	// the run's inputs and states as the API has them
	expect(await markerLabels(page, runId)).toEqual([`${STOVE} set to "on fire"`]);
	expect(await objectAt(page, runId, 1, STOVE)).toMatchObject({ state: 'on fire', setByUser: true });
	expect((await objectAt(page, runId, 0, STOVE))?.state).toBe('idle');

	// scrubbing back shows the stove as it was
	await page.getByRole('slider', { name: 'Timeline' }).fill('0');
	await expect(popover.locator('.state')).toHaveText('idle');
	await popover.getByRole('button', { name: 'Close' }).click();
	await expect(popover).toBeHidden();
});

test('an object of an agent’s spatial memory opens the same form', async ({ page }) => {
	await openRun(page, runId, '?step=1&agent=isabella-rodriguez&tab=spatial');
	const tree = page.getByRole('list', { name: 'Spatial memory' });
	await tree.getByRole('button', { name: 'stove', exact: true }).first().click();
	const popover = page.getByRole('dialog', { name: 'Object stove' });
	await expect(popover).toBeVisible();
	await expect(popover.locator('.state')).not.toBeEmpty();
});

test('the fork dialog proposes the rest of the run and sets an object state', async ({ page }) => {
	test.setTimeout(90_000);
	await openRun(page, runId, '?step=1');
	await page.getByRole('button', { name: 'Fork here', exact: true }).click();
	const dialog = page.getByRole('dialog', { name: 'Fork at step 1' });
	await expect(dialog).toBeVisible();
	// the parent runs to step 100: 99 steps are left
	await expect(dialog.getByLabel('Steps to run in the fork')).toHaveValue(String(TARGET - 1));
	await dialog.getByLabel('Steps to run in the fork').fill('3');
	await dialog.getByLabel('Object', { exact: true }).selectOption("Isabella's Apartment:kitchen:stove");
	await dialog.getByLabel('Object state').fill('flooded');
	await dialog.getByRole('button', { name: 'Create fork' }).click();

	await expect(page).not.toHaveURL(new RegExp(`/runs/${runId}(\\?|$)`));
	const fork = new URL(page.url()).pathname.split('/').pop() ?? '';
	await expect.poll(async () => (await (await page.request.get(`/api/runs/${fork}`)).json()).status, { timeout: 60_000 }).toBe('done');
	expect(await markerLabels(page, fork)).toContain(`Isabella's Apartment:kitchen:stove set to "flooded"`);
	expect(await objectAt(page, fork, 2, "Isabella's Apartment:kitchen:stove")).toMatchObject({ state: 'flooded', setByUser: true });

	// a finished fork forked again: mid-way the rest of it, at its end as many steps as it ran
	await openRun(page, fork, '?step=2');
	await page.getByRole('button', { name: 'Fork here', exact: true }).click();
	await expect(page.getByRole('dialog', { name: 'Fork at step 2' }).getByLabel('Steps to run in the fork')).toHaveValue('2');
	await page.getByRole('dialog', { name: 'Fork at step 2' }).getByRole('button', { name: 'Cancel' }).click();
	await openRun(page, fork, '?step=4');
	await page.getByRole('button', { name: 'Fork here', exact: true }).click();
	const atEnd = page.getByRole('dialog', { name: 'Fork at step 4' });
	await expect(atEnd.getByLabel('Steps to run in the fork')).toHaveValue('3');
	await expect(atEnd).toContainText('as many as this run computed');
});
