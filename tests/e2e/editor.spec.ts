import { expect, test, type Locator, type Page } from '@playwright/test';

// The world editor, used as a person would: copy a town, paint tiles, draw a collision wall
// across the street, draw a sector with an arena and an object, rename the sector in the graph
// and see the map follow, undo and redo, save, reload and find it all there; then run the
// changed town and watch an agent walk around the new wall. The tests share one world and go
// in order. (The e2e server works on a copy of worlds/, see playwright.config.ts.)

test.describe.configure({ mode: 'serial' });

const WORLD = 'e2e-ville';
/** the wall: column 18 of the street, rows 12..15; row 16 stays open */
const WALL = [12, 13, 14, 15].map((y) => ({ x: 18, y }));
/** painted on the ground layer */
const PAINTED = [30, 31, 32, 33].map((x) => ({ x, y: 14 }));

interface LayerJson {
	kind: string;
	name: string;
	data?: number[];
	objects?: { id: number; name: string; x: number; y: number; width: number; height: number; properties: { attrs: Record<string, string> }[] }[];
}

async function savedDoc(page: Page): Promise<{ width: number; layers: LayerJson[] }> {
	const res = await page.request.get(`/api/worlds/${WORLD}/map`);
	expect(res.ok()).toBe(true);
	return (await res.json()).doc;
}

/** Screen position of the centre of tile (x, y) on the editor canvas. */
async function tileAt(canvas: Locator, x: number, y: number): Promise<{ x: number; y: number }> {
	const box = await canvas.boundingBox();
	if (!box) throw new Error('the map canvas has no size');
	const size = Number(await canvas.getAttribute('data-tile-size'));
	const height = Number((await canvas.getAttribute('data-tile-height')) ?? size);
	const [left, top] = ((await canvas.getAttribute('data-origin')) ?? '0,0').split(',').map(Number);
	return { x: box.x + left + (x + 0.5) * size, y: box.y + top + (y + 0.5) * height };
}

/** A pointer drag from tile a to tile b, with a few moves in between. */
async function drag(page: Page, canvas: Locator, a: { x: number; y: number }, b: { x: number; y: number }): Promise<void> {
	const from = await tileAt(canvas, a.x, a.y);
	const to = await tileAt(canvas, b.x, b.y);
	await page.mouse.move(from.x, from.y);
	await page.mouse.down();
	await page.mouse.move(to.x, to.y, { steps: 6 });
	await page.mouse.up();
}

async function openEditor(page: Page): Promise<Locator> {
	await page.goto(`/worlds/${WORLD}/edit`);
	const canvas = page.getByTestId('map-canvas');
	await expect(canvas).toHaveAttribute('data-ready', 'true');
	return canvas;
}

function node(page: Page, address: string): Locator {
	return page.locator(`[data-address="${address}"]`);
}

test('copies The Ville into a new world from the worlds page', async ({ page }) => {
	await page.goto('/worlds');
	await page.getByLabel('World name').fill('E2E Ville');
	await page.getByLabel('Folder id').fill(WORLD);
	await page.getByLabel('Start from').selectOption('the-ville-3');
	await page.getByRole('button', { name: 'Create world' }).click();
	await expect(page).toHaveURL(new RegExp(`/worlds/${WORLD}/edit$`));
	await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-ready', 'true');
});

test('paints tiles, draws a wall and zones, renames in the graph, undoes, saves, reloads', async ({ page }) => {
	test.setTimeout(120_000);
	const canvas = await openEditor(page);
	const before = await savedDoc(page);
	const width = before.width;
	const ground = before.layers.find((l) => l.name === 'ground')!;
	const collisions = before.layers.find((l) => l.name === 'collisions')!;
	for (const t of WALL) expect(collisions.data![t.y * width + t.x]).toBe(0);

	// Paint: pick a tile the painted cells do not have, brush a stroke on the ground layer.
	const gid = PAINTED.every((t) => ground.data![t.y * width + t.x] !== 3) ? 3 : 4;
	await page.getByRole('button', { name: 'ground', exact: true }).click();
	await page.getByRole('button', { name: `Tile ${gid}`, exact: true }).click();
	await page.getByRole('button', { name: 'Brush', exact: true }).click();
	await drag(page, canvas, PAINTED[0], PAINTED.at(-1)!);
	await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes');

	// One stroke is one undo step.
	await page.keyboard.press('Control+z');
	await expect(page.getByTestId('save-status')).not.toHaveText('Unsaved changes');
	await page.keyboard.press('Control+Shift+z');
	await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes');

	// A collision wall across the street.
	await page.getByRole('button', { name: 'Collision', exact: true }).click();
	await drag(page, canvas, WALL[0], WALL.at(-1)!);

	// A sector with an arena and an object, drawn with the zone tool east of the apartment.
	await page.getByRole('button', { name: 'Zone', exact: true }).click();
	await page.getByLabel('Zone kind').selectOption('sector');
	await drag(page, canvas, { x: 34, y: 2 }, { x: 37, y: 6 });
	await page.getByLabel('Zone kind').selectOption('arena');
	await drag(page, canvas, { x: 34, y: 2 }, { x: 37, y: 4 });
	await page.getByLabel('Zone kind').selectOption('object');
	await drag(page, canvas, { x: 35, y: 3 }, { x: 35, y: 3 });
	await expect(node(page, 'new sector')).toBeVisible();
	await expect(node(page, 'new sector:new arena')).toBeVisible();
	await expect(node(page, 'new sector:new arena:new object')).toBeVisible();

	// Rename the sector in the graph; the map follows: selecting its tiles shows the new name.
	await page.getByLabel('Search places').fill('new sector');
	await page.getByRole('button', { name: 'Fit view' }).click();
	await node(page, 'new sector').getByRole('button', { name: 'new sector', exact: true }).dblclick();
	await page.getByLabel('New name').fill('Lighthouse');
	await page.getByLabel('New name').press('Enter');
	await page.getByLabel('Search places').fill('');
	await expect(node(page, 'Lighthouse')).toBeVisible();
	await expect(node(page, 'Lighthouse:new arena:new object')).toBeVisible();
	await page.getByRole('button', { name: 'Select', exact: true }).click();
	await canvas.click({ position: await relative(canvas, 36, 6) });
	await expect(page.getByLabel('Zone name')).toHaveValue('Lighthouse');

	// Undo brings the old name back on the map and in the graph; redo renames again.
	await page.getByRole('button', { name: 'Undo', exact: true }).click();
	await expect(node(page, 'new sector')).toBeVisible();
	await expect(node(page, 'Lighthouse')).toHaveCount(0);
	await page.getByRole('button', { name: 'Redo', exact: true }).click();
	await expect(node(page, 'Lighthouse')).toBeVisible();

	// README pictures: SCREENSHOTS=1 npx playwright test
	if (process.env.SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/world-editor.png' });
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(page.getByTestId('save-status')).toHaveText(/^Saved/);

	// Reload: everything is there, in the file the server wrote.
	await page.reload();
	await expect(canvas).toHaveAttribute('data-ready', 'true');
	await expect(node(page, 'Lighthouse')).toBeVisible();
	const after = await savedDoc(page);
	const ground2 = after.layers.find((l) => l.name === 'ground')!;
	const collisions2 = after.layers.find((l) => l.name === 'collisions')!;
	for (const t of PAINTED) expect(ground2.data![t.y * width + t.x]).toBe(gid);
	for (const t of WALL) expect(collisions2.data![t.y * width + t.x]).not.toBe(0);
	const sectors = after.layers.find((l) => l.name === 'sectors')!;
	const lighthouse = sectors.objects!.find((o) => o.name === 'Lighthouse');
	expect(lighthouse).toMatchObject({ x: 34 * 32, y: 2 * 32, width: 4 * 32, height: 5 * 32 });
	const objects = after.layers.find((l) => l.name === 'objects')!;
	expect(objects.objects!.find((o) => o.name === 'new object')).toMatchObject({ x: 35 * 32, y: 3 * 32, width: 32, height: 32 });
});

/** Position of tile (x, y) relative to the canvas element, for locator.click. */
async function relative(canvas: Locator, x: number, y: number): Promise<{ x: number; y: number }> {
	const box = await canvas.boundingBox();
	const p = await tileAt(canvas, x, y);
	return { x: p.x - box!.x, y: p.y - box!.y };
}

test('an agent of the changed town walks around the new wall', async ({ page }) => {
	test.setTimeout(120_000);
	const started = await page.request.post('/api/runs', { data: { world: WORLD, steps: 420, seed: 1, model: 'offline' } });
	expect(started.ok()).toBe(true);
	const { id } = await started.json();
	await expect
		.poll(async () => (await (await page.request.get(`/api/runs/${id}/timeline`)).json()).steps, { timeout: 60_000 })
		.toBe(420);
	const frames: { step: number; agents: { id: string; x: number; y: number }[] }[] = await (
		await page.request.get(`/api/runs/${id}/frames?from=0&to=420`)
	).json();
	const wall = new Set(WALL.map((t) => `${t.x},${t.y}`));
	const sides = new Map<string, Set<string>>();
	for (const f of frames)
		for (const a of f.agents) {
			expect(wall.has(`${a.x},${a.y}`), `${a.id} on the wall at step ${f.step}`).toBe(false);
			if (a.x !== 18) sides.set(a.id, (sides.get(a.id) ?? new Set()).add(a.x < 18 ? 'west' : 'east'));
		}
	// Isabella walks from her apartment (east) to the cafe (west) through the gap below the wall.
	expect([...(sides.get('isabella-rodriguez') ?? [])].sort()).toEqual(['east', 'west']);
	expect(frames.some((f) => f.agents.some((a) => a.id === 'isabella-rodriguez' && a.x === 18 && a.y === 16))).toBe(true);

	// The debugger draws the changed town.
	await page.goto(`/runs/${id}`);
	await expect(page.getByRole('application', { name: 'Town map' })).toHaveAttribute('data-ready', 'true');
});

test('places a spawn, adds a persona who lives in the new sector, and checks settings', async ({ page }) => {
	const canvas = await openEditor(page);
	await page.getByRole('button', { name: 'Spawn', exact: true }).click();
	await canvas.click({ position: await relative(canvas, 36, 5) });
	await page.getByLabel('Spawn name').fill('lena-park');
	await page.getByLabel('Spawn name').press('Enter');
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(page.getByTestId('save-status')).toHaveText(/^Saved/);

	await page.getByRole('tab', { name: 'Personas' }).click();
	await page.getByRole('button', { name: 'New persona' }).click();
	const form = page.getByRole('form', { name: 'New persona' });
	await form.getByLabel('Name', { exact: true }).fill('Lena Park');
	await expect(form.getByLabel('Id', { exact: true })).toHaveValue('lena-park');
	await form.getByLabel('First name').fill('Lena');
	await form.getByLabel('Last name').fill('Park');
	await form.getByLabel('Age').fill('-3');
	await form.getByLabel('Innate').fill('curious, patient');
	await form.getByLabel('Learned').fill('Lena Park keeps the lighthouse.');
	await form.getByLabel('Currently').fill('Lena Park is repainting the lighthouse.');
	await form.getByLabel('Lifestyle').fill('goes to bed around 10pm, wakes up around 6am');
	await form.getByLabel('Daily plan requirement').fill('Lena checks the lamp every evening.');
	await form.getByLabel('Home').selectOption('Lighthouse:new arena');
	await form.getByLabel('Spawn').selectOption('lena-park');
	// A bad age is refused at its field, and nothing is written.
	await form.getByRole('button', { name: 'Create persona' }).click();
	await expect(form.getByLabel('Age')).toHaveAttribute('aria-invalid', 'true');
	expect((await (await page.request.get(`/api/worlds/${WORLD}/personas`)).json()).some((p: { id: string }) => p.id === 'lena-park')).toBe(false);
	await form.getByLabel('Age').fill('41');
	await form.getByRole('button', { name: 'Create persona' }).click();
	await expect(page.getByText('Created personas/lena-park.json')).toBeVisible();
	const personas: { id: string; persona: { home: string; spawn: string; age: number } }[] = await (
		await page.request.get(`/api/worlds/${WORLD}/personas`)
	).json();
	expect(personas.find((p) => p.id === 'lena-park')?.persona).toMatchObject({ home: 'Lighthouse:new arena', spawn: 'lena-park', age: 41 });

	// World settings: an impossible decay is refused with its field marked; a good one is saved.
	await page.getByRole('tab', { name: 'Settings' }).click();
	await page.getByLabel('Recency decay').fill('2');
	await page.getByRole('button', { name: 'Save settings' }).click();
	await expect(page.getByLabel('Recency decay')).toHaveAttribute('aria-invalid', 'true');
	await page.getByLabel('Recency decay').fill('0.99');
	await page.getByRole('button', { name: 'Save settings' }).click();
	await expect(page.getByText('Saved world.json')).toBeVisible();
	const settings = await (await page.request.get(`/api/worlds/${WORLD}/settings`)).json();
	expect(settings.defaults.retrieval.decay).toBe(0.99);
});
