import { expect, test } from '@playwright/test';
import { blankTiles, colouredPixelsOf, expectEmojiElementsInColour, expectMapEmojiInColour } from './pixels';

// Activity emoji are drawn in colour wherever the studio shows them: over the agents on the town
// map (a canvas) and beside their names in the lists. Checked by the pixels drawn, not by the
// fonts the page lists: a web font that loads and draws nothing passed that check before.

test.describe.configure({ mode: 'serial' });

let runId = '';

test.beforeAll(async ({ request }) => {
	test.setTimeout(90_000);
	const res = await request.post('/api/runs', { data: { world: 'the-ville-3', steps: 6, seed: 7, model: 'offline' } });
	expect(res.ok(), await res.text()).toBe(true);
	runId = ((await res.json()) as { id: string }).id;
	await expect.poll(async () => (await (await request.get(`/api/runs/${runId}`)).json()).status, { timeout: 60_000 }).toBe('done');
});

test('emoji over the agents on the map are drawn in colour', async ({ page, request }) => {
	const frame = (await (await request.get(`/api/runs/${runId}/frames?from=3&to=3`)).json())[0] as { agents: { emoji: string }[] };
	expect(frame.agents.filter((a) => a.emoji).length, 'the agents have emoji at step 3').toBeGreaterThan(0);
	await blankTiles(page);
	await page.goto(`/runs/${runId}?step=3`);
	const map = page.getByRole('application', { name: 'Town map' });
	await expect(map).toHaveAttribute('data-ready', 'true');
	await expect(map).toHaveAttribute('data-step', '3');
	await expectMapEmojiInColour(map);
});

test('emoji in the agents list and the agent panel are drawn in colour', async ({ page }) => {
	await page.goto(`/runs/${runId}?step=3`);
	const list = page.getByRole('tabpanel').getByRole('list', { name: 'Agents' });
	// the emoji beside each name (hidden from screen readers: the activity says it in words)
	await expectEmojiElementsInColour(list.locator('.name [aria-hidden="true"]'));
	await list.getByRole('button').first().click();
	const now = page.getByRole('region', { name: 'Current action' }).locator('.emoji');
	await expect(now).not.toBeEmpty();
	await expect.poll(() => colouredPixelsOf(now), { message: 'the agent panel’s emoji in colour' }).toBeGreaterThan(20);
});

test('the app’s emoji font hides no system font and draws in colour itself', async ({ page }) => {
	await page.goto('/');
	await expect(page.getByRole('application', { name: 'Town map' })).toHaveAttribute('data-ready', 'true');
	const result = await page.evaluate(async () => {
		// a web font named like the system's emoji font would be used instead of it
		const shadowing = [...document.fonts].filter((f) => /^"?(Noto Color Emoji|Apple Color Emoji|Segoe UI Emoji)"?$/.test(f.family)).length;
		await document.fonts.load('40px "Studio Emoji"', '😴☕');
		const canvas = document.createElement('canvas');
		canvas.width = canvas.height = 120;
		const ctx = canvas.getContext('2d')!;
		ctx.font = '40px "Studio Emoji"';
		ctx.textBaseline = 'top';
		ctx.fillText('😴☕', 4, 4);
		const { data } = ctx.getImageData(0, 0, 120, 120);
		let coloured = 0;
		for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 128 && Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 60) coloured++;
		return { shadowing, coloured };
	});
	expect(result.shadowing).toBe(0);
	expect(result.coloured).toBeGreaterThan(200);
});
