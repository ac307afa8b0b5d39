import { expect, test, type Locator, type Page } from '@playwright/test';

async function zoomPercent(page: Page): Promise<number> {
	const text = await page.getByLabel('Zoom level').textContent();
	return Number.parseInt(text ?? '', 10);
}

/** Share of opaque pixels and number of distinct colours on the canvas. */
async function canvasInk(canvas: Locator): Promise<{ opaque: number; colours: number }> {
	return canvas.evaluate((el) => {
		const c = el as HTMLCanvasElement;
		const ctx = c.getContext('2d');
		if (!ctx) return { opaque: 0, colours: 0 };
		const { data } = ctx.getImageData(0, 0, c.width, c.height);
		let opaque = 0;
		const colours = new Set<number>();
		for (let i = 0; i < data.length; i += 4 * 7) {
			if (data[i + 3] > 0) opaque++;
			colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
		}
		return { opaque: opaque / (data.length / (4 * 7)), colours: colours.size };
	});
}

test.describe('first screen', () => {
	test('opens Smallville: map, agents, environment and the offline label', async ({ page }) => {
		await page.goto('/');

		await expect(page.getByRole('heading', { name: 'Simulacra Studio', level: 1 })).toBeVisible();
		const badge = page.getByRole('status', { name: /^Model:/ });
		await expect(badge).toHaveText('offline stand-in, not a language model');
		await expect(page.getByRole('link', { name: 'Smallville' })).toHaveAttribute('aria-current', 'page');

		const map = page.getByRole('application', { name: 'Town map' });
		await expect(map).toBeVisible();
		await expect(map).toHaveAttribute('data-ready', 'true');
		const ink = await canvasInk(map);
		expect(ink.opaque).toBeGreaterThan(0.3);
		expect(ink.colours).toBeGreaterThan(20);

		const agents = page.getByRole('list', { name: 'Agents' }).getByRole('listitem');
		await expect(agents).toHaveCount(25);
		await expect(page.getByRole('button', { name: /Isabella Rodriguez/ })).toBeVisible();

		const tree = page.getByRole('list', { name: 'Environment tree' });
		await expect(tree.getByText('Hobbs Cafe', { exact: true })).toBeVisible();

		// README pictures: SCREENSHOTS=1 npx playwright test
		if (process.env.SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/home.png' });
	});

	test('zooms with the buttons and the mouse wheel, and pans by dragging', async ({ page }) => {
		await page.goto('/');
		const map = page.getByRole('application', { name: 'Town map' });
		await expect(map).toHaveAttribute('data-ready', 'true');

		const start = await zoomPercent(page);
		await page.getByRole('button', { name: 'Zoom in' }).click();
		await expect.poll(() => zoomPercent(page)).toBeGreaterThan(start);

		const box = await map.boundingBox();
		if (!box) throw new Error('the map has no size');
		const cx = box.x + box.width / 2;
		const cy = box.y + box.height / 2;
		const beforeWheel = await zoomPercent(page);
		await page.mouse.move(cx, cy);
		await page.mouse.wheel(0, -400);
		await expect.poll(() => zoomPercent(page)).toBeGreaterThan(beforeWheel);

		const before = await map.screenshot();
		await page.mouse.move(cx, cy);
		await page.mouse.down();
		await page.mouse.move(cx - 150, cy - 100, { steps: 5 });
		await page.mouse.up();
		await expect.poll(async () => Buffer.compare(before, await map.screenshot())).not.toBe(0);

		await page.getByRole('button', { name: 'Fit' }).click();
		await expect.poll(() => zoomPercent(page)).toBeLessThan(beforeWheel);
	});

	test('before a run, the town says plainly that activities show once a run starts', async ({ page }) => {
		await page.goto('/');
		const note = page.getByRole('note').filter({ hasText: 'once a run starts' });
		await expect(note).toBeVisible();
		await expect(page.getByText('activities show once a run starts')).toBeVisible();
		await note.getByRole('link', { name: 'start a run' }).click();
		await expect(page).toHaveURL(/\/runs$/);
	});

	test('selecting an agent in the list marks it', async ({ page }) => {
		await page.goto('/');
		await expect(page.getByRole('application', { name: 'Town map' })).toHaveAttribute('data-ready', 'true');
		const klaus = page.getByRole('button', { name: /Klaus Mueller/ });
		await klaus.click();
		await expect(klaus).toHaveAttribute('aria-pressed', 'true');
	});

	test('a world that cannot be opened shows a readable problem list', async ({ page }) => {
		await page.goto('/?world=no-such-world');
		await expect(page.getByRole('heading', { name: /could not be opened/ })).toBeVisible();
		await expect(page.getByRole('alert')).toContainText('No such world');
	});

	test('world assets are served only from inside the world folder, and only what the map uses', async ({ request }) => {
		const ok = await request.get('/api/worlds/smallville/asset/tilesets/town.png');
		expect(ok.status()).toBe(200);
		expect(ok.headers()['content-type']).toContain('image/png');
		expect((await request.get('/api/worlds/smallville/asset/world.json')).status()).toBe(404);
		expect((await request.get('/api/worlds/smallville/asset/..%2F..%2Fpackage.json')).status()).toBe(400);
		expect((await request.get('/api/worlds/smallville/asset/no-such-file.png')).status()).toBe(404);
	});
});
