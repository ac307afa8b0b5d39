import { expect, test, type Page } from '@playwright/test';

// The world editor's commands as a person meets them: a layer's own button and the commands
// menu run the same layer command (the button on its layer, the menu on the active one), each
// one undo step; and every key goes through the page's one listener: tool letters anywhere on the
// map tab, arrow keys only while the map has the focus, space held for the hand. The tests work
// on their own copy of The Ville.

test.describe.configure({ mode: 'serial' });

const WORLD = 'e2e-commands';
const TOP_FIRST = ['spawns', 'objects', 'arenas', 'sectors', 'collisions', 'decor', 'furniture', 'walls', 'floor', 'ground'];

async function openEditor(page: Page) {
	await page.goto(`/worlds/${WORLD}/edit`);
	const canvas = page.getByTestId('map-canvas');
	await expect(canvas).toHaveAttribute('data-ready', 'true');
	return canvas;
}

/** The layer list as shown, top layer first. */
function layerOrder(page: Page): Promise<string[]> {
	return page.locator('[aria-label="Layers"] li[data-layer]').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer') ?? ''));
}

test('copies The Ville for these tests', async ({ page }) => {
	const made = await page.request.post('/api/worlds', { data: { id: WORLD, name: 'E2E Commands', from: 'the-ville-3' } });
	expect(made.ok(), await made.text()).toBe(true);
});

test("a layer's button and the commands menu run one layer command, each one undo step", async ({ page }) => {
	await openEditor(page);
	expect(await layerOrder(page)).toEqual(TOP_FIRST);
	const undo = page.getByRole('button', { name: 'Undo', exact: true });

	// the button of a layer that is not the active one (ground is)
	await page.getByRole('button', { name: 'Move walls up' }).click();
	await expect.poll(() => layerOrder(page)).toEqual(['spawns', 'objects', 'arenas', 'sectors', 'collisions', 'decor', 'walls', 'furniture', 'floor', 'ground']);
	await expect(undo).toHaveAttribute('title', /^Undo Move layer "walls" up \(Ctrl\+Z\)/);
	await expect(page.getByRole('button', { name: 'Move ground down' })).toBeDisabled();

	// the menu: the same command, on the active layer
	await page.locator('summary', { hasText: 'Commands' }).click();
	await page.getByRole('menuitem', { name: 'Move layer up' }).click();
	await expect.poll(() => layerOrder(page)).toEqual(['spawns', 'objects', 'arenas', 'sectors', 'collisions', 'decor', 'walls', 'furniture', 'ground', 'floor']);
	await expect(undo).toHaveAttribute('title', /^Undo Move layer "ground" up/);
	await expect(page.getByRole('button', { name: 'Move floor down' })).toBeDisabled();
	await expect(page.getByRole('button', { name: 'Move ground down' })).toBeEnabled();

	// two commands, two undo steps
	await undo.click();
	await expect.poll(() => layerOrder(page)).toEqual(['spawns', 'objects', 'arenas', 'sectors', 'collisions', 'decor', 'walls', 'furniture', 'floor', 'ground']);
	await undo.click();
	await expect.poll(() => layerOrder(page)).toEqual(TOP_FIRST);
	await expect(undo).toBeDisabled();
	await expect(page.getByTestId('save-status')).toHaveText('Saved');

	// hiding a layer from its checkbox is one step too, named after the layer
	await page.getByRole('checkbox', { name: 'Show decor' }).uncheck();
	await expect(undo).toHaveAttribute('title', /^Undo Hide layer "decor"/);
	await undo.click();
	await expect(page.getByRole('checkbox', { name: 'Show decor' })).toBeChecked();
});

test('keys go through one listener: tool letters, arrow keys with the map focused, space held for the hand', async ({ page }) => {
	const canvas = await openEditor(page);
	const origin = () => canvas.getAttribute('data-origin');
	const start = (await origin())!.split(',').map(Number);

	// nothing focused: a tool letter works, an arrow key does not pan
	await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
	await page.keyboard.press('v');
	await expect(canvas).toHaveAttribute('data-tool', 'select');
	await page.keyboard.press('ArrowLeft');
	expect(await origin()).toBe(start.join(','));

	// the map focused: arrow keys pan, letters still switch tools
	await canvas.focus();
	await page.keyboard.press('ArrowLeft');
	await expect(canvas).toHaveAttribute('data-origin', `${start[0] + 64},${start[1]}`);
	await page.keyboard.press('b');
	await expect(canvas).toHaveAttribute('data-tool', 'brush');

	// space held: the hand, until it is let go
	await page.keyboard.down('Space');
	await expect(canvas).toHaveAttribute('data-tool-state', 'hand.idle');
	await page.keyboard.up('Space');
	await expect(canvas).toHaveAttribute('data-tool-state', 'brush.idle');

	// typing in a field is left to the field
	await page.getByRole('button', { name: 'Rename decor' }).click();
	const name = page.getByLabel('Layer name');
	await expect(name).toBeFocused();
	await page.keyboard.press('v');
	await expect(canvas).toHaveAttribute('data-tool', 'brush');
	await page.keyboard.press('Escape');
	await expect(name).toHaveCount(0);

	// another tab: the map's keys are off, saving is not
	await page.getByRole('tab', { name: 'Settings' }).click();
	await page.keyboard.press('v');
	await page.getByRole('tab', { name: 'Map' }).click();
	await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-tool', 'brush');
});
