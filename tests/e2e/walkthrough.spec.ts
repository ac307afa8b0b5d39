import { expect, test, type Locator, type Page } from '@playwright/test';
import { blankTiles, expectEmojiElementsInColour, expectMapEmojiInColour } from './pixels';

// The studio as a newcomer uses it, at a laptop's and a desktop's screen size: a 25-agent run
// started from the page ends as "done" without a reload, its controls are labelled, Model calls
// shows calls, a re-scored table fits its panel, names on the map never cover each other, the
// environment graph stays readable and leaves the map its room, emoji are drawn in colour, the compare
// view lists each difference once and shows both runs whole, and the worlds list is one click away.

test.describe.configure({ mode: 'serial' });

const SIZES = [
	{ width: 1280, height: 800 },
	{ width: 1920, height: 1080 }
];

interface Rect {
	x: number;
	y: number;
	w: number;
	h: number;
}

function overlap(a: Rect, b: Rect): boolean {
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** Label boxes the town map drew (CSS pixels of the canvas). */
async function mapLabels(map: Locator): Promise<{ agents: (Rect & { id: string })[]; bubbles: Rect[]; zones: Rect[] } | null> {
	return map.evaluate((el) => (el as HTMLCanvasElement & { mapLabels?: never }).mapLabels ?? null);
}

/** Every pair of agent names that the map drew over each other. */
async function collidingNames(map: Locator): Promise<string[]> {
	const labels = await mapLabels(map);
	expect(labels, 'the map tells where it drew its names').not.toBeNull();
	const out: string[] = [];
	const list = labels!.agents;
	for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) if (overlap(list[i], list[j])) out.push(`${list[i].id} / ${list[j].id}`);
	return out;
}

/** On-screen size (CSS px) of every visible name and detail line of an environment graph. */
async function graphTextSizes(graph: Locator): Promise<number[]> {
	return graph.evaluate((root) => {
		const pane = root.querySelector('.svelte-flow') as HTMLElement;
		const viewport = root.querySelector('.svelte-flow__viewport') as HTMLElement;
		const zoom = new DOMMatrix(getComputedStyle(viewport).transform).a;
		const box = pane.getBoundingClientRect();
		const sizes: number[] = [];
		for (const el of root.querySelectorAll<HTMLElement>('.place .name, .place .detail')) {
			const r = el.getBoundingClientRect();
			if (r.width === 0 || r.height === 0) continue;
			if (r.right < box.left || r.left > box.right || r.bottom < box.top || r.top > box.bottom) continue;
			sizes.push(Number.parseFloat(getComputedStyle(el).fontSize) * zoom);
		}
		return sizes;
	});
}

async function startRun(page: Page, world: string, steps: number, paused = false): Promise<string> {
	await page.goto('/runs');
	await page.getByLabel('World').selectOption(world);
	await page.getByLabel('Steps', { exact: true }).fill(String(steps));
	await page.getByLabel('Seed').fill('11');
	await page.getByLabel(/Offline stand-in/).check();
	if (paused) await page.getByLabel('Start paused').check();
	await page.getByRole('button', { name: 'Start run' }).click();
	// A 25-agent run keeps the server busy: its page may take a while to come.
	await expect(page).toHaveURL(new RegExp(`/runs/${world}-[^/?]+`), { timeout: 90_000 });
	return new URL(page.url()).pathname.split('/').pop() ?? '';
}

for (const size of SIZES) {
	test.describe(`at ${size.width} x ${size.height}`, () => {
		test.use({ viewport: size });
		let runId = '';

		test('a 25-agent run started from the page shows "done" when it ends, without a reload', async ({ page }) => {
			test.setTimeout(180_000);
			runId = await startRun(page, 'smallville', 400);
			await expect(page.getByRole('application', { name: 'Town map' })).toHaveAttribute('data-ready', 'true');
			const toolbar = page.getByRole('toolbar', { name: 'Run controls' });
			await expect(toolbar.locator('.chip')).toHaveText('done', { timeout: 120_000 });
			await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeEnabled();
			await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeDisabled();
			expect(Number(await page.getByLabel('Current step').textContent())).toBe(400);

			// The "steps to run" and "go to a time" boxes carry visible labels.
			for (const name of ['Steps to run', 'Game time to go to']) {
				const box = toolbar.getByLabel(name, { exact: true });
				await expect(box).toBeVisible();
				const label = await box.evaluate((el) => {
					const l = (el as HTMLInputElement).labels?.[0];
					return l ? { text: l.innerText.trim(), shown: l.getBoundingClientRect().width > 0 } : null;
				});
				expect(label, `${name} has a label element`).not.toBeNull();
				expect(label!.text).toContain(name);
				expect(label!.shown).toBe(true);
			}
		});

		test('Model calls shows the calls of a run that made some', async ({ page }) => {
			const calls = await (await page.request.get(`/api/runs/${runId}/calls?limit=5`)).json();
			expect(calls.length).toBeGreaterThan(0);
			await page.goto(`/runs/${runId}?tab=calls`);
			const list = page.getByRole('list', { name: 'Model calls' });
			// a call's item, once the list has loaded (it may load again as the page settles)
			await expect(list.locator('li:not(.empty)').first()).toBeVisible();
			await expect(list.getByText('No calls match.')).toHaveCount(0);
		});

		test('after Re-score every column of the score table lies inside its panel', async ({ page }) => {
			const detail = await (await page.request.get(`/api/runs/${runId}/agents/isabella-rodriguez?step=400`)).json();
			expect(detail).toBeTruthy();
			await page.goto(`/runs/${runId}?step=400&agent=isabella-rodriguez&tab=retrievals`);
			const list = page.getByRole('list', { name: 'Retrievals' });
			await list.getByRole('button').first().click();
			const table = page.getByRole('table', { name: 'Retrieval scores' });
			await expect(table).toBeVisible();
			await expect(page.getByText(/upper number is the raw value/)).toBeVisible();
			await page.getByLabel('Relevance weight').fill('3');
			await page.getByRole('button', { name: 'Re-score' }).click();
			await expect(table.getByRole('columnheader', { name: 'New top-k' })).toBeVisible();
			const panel = await page.getByRole('tabpanel').boundingBox();
			expect(panel).not.toBeNull();
			for (const th of await table.getByRole('columnheader').all()) {
				const box = await th.boundingBox();
				expect(box, await th.innerText()).not.toBeNull();
				expect(box!.x, await th.innerText()).toBeGreaterThanOrEqual(panel!.x - 1);
				expect(box!.x + box!.width, `column "${await th.innerText()}" ends inside the panel`).toBeLessThanOrEqual(panel!.x + panel!.width + 1);
			}
		});

		test('the agents of the home map never cover each other\'s names; bubbles stay in view', async ({ page }) => {
			await page.goto('/');
			const map = page.getByRole('application', { name: 'Town map' });
			await expect(map).toHaveAttribute('data-ready', 'true');
			await page.getByRole('button', { name: 'Fit', exact: true }).click();
			await expect.poll(async () => (await mapLabels(map))?.agents.length ?? 0).toBeGreaterThan(0);
			expect(await collidingNames(map)).toEqual([]);
			for (let i = 0; i < 3; i++) {
				await page.getByRole('button', { name: 'Zoom in' }).click();
				expect(await collidingNames(map)).toEqual([]);
			}
			// Sector names shown whole inside the view.
			await page.getByRole('button', { name: 'Fit', exact: true }).click();
			await page.getByLabel('Sectors').check();
			const box = await map.boundingBox();
			const labels = await mapLabels(map);
			expect(labels!.zones.length).toBeGreaterThan(3);
			for (const z of labels!.zones) {
				expect(z.x).toBeGreaterThanOrEqual(0);
				expect(z.x + z.w).toBeLessThanOrEqual(box!.width + 0.5);
			}
		});

		test('speech bubbles of a run never cover each other and stay inside the map', async ({ page }) => {
			const timeline = await (await page.request.get(`/api/runs/${runId}/timeline`)).json();
			const talks = (timeline.markers as { kind: string; step: number }[]).filter((m) => m.kind === 'conversation');
			// Smallville's families talk at home on the first morning.
			expect(talks.length).toBeGreaterThan(0);
			await page.goto(`/runs/${runId}?step=${talks[0].step + 1}`);
			const map = page.getByRole('application', { name: 'Town map' });
			await expect(map).toHaveAttribute('data-ready', 'true');
			await page.getByRole('button', { name: 'Fit', exact: true }).click();
			const box = (await map.boundingBox())!;
			const labels = (await mapLabels(map))!;
			expect(labels.bubbles.length).toBeGreaterThan(1);
			for (let i = 0; i < labels.bubbles.length; i++) {
				const b = labels.bubbles[i];
				expect(b.x).toBeGreaterThanOrEqual(-0.5);
				expect(b.y).toBeGreaterThanOrEqual(-0.5);
				expect(b.x + b.w).toBeLessThanOrEqual(box.width + 0.5);
				expect(b.y + b.h).toBeLessThanOrEqual(box.height + 0.5);
				for (let j = i + 1; j < labels.bubbles.length; j++) expect(overlap(b, labels.bubbles[j])).toBe(false);
			}
			expect(await collidingNames(map)).toEqual([]);
		});

		test('the environment graph at Fit is readable and leaves the map its room', async ({ page }) => {
			await page.goto('/worlds/smallville/edit');
			await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-ready', 'true');
			const graph = page.getByRole('region', { name: 'Environment graph' });
			await graph.getByRole('button', { name: 'Fit view' }).click();
			await page.waitForTimeout(600);
			const sizes = await graphTextSizes(graph);
			expect(sizes.length).toBeGreaterThan(0);
			expect(Math.min(...sizes)).toBeGreaterThanOrEqual(10);
			// The map keeps the width between the side panels.
			const canvasArea = (await page.locator('main.canvas').boundingBox())!;
			const left = (await page.getByRole('complementary', { name: 'Tools' }).boundingBox())!;
			const right = (await page.getByRole('complementary', { name: 'Details' }).boundingBox())!;
			expect(canvasArea.width).toBeGreaterThanOrEqual((right.x - (left.x + left.width)) * 0.95);

			// A click anywhere on a card selects it; its tools show whole.
			const card = graph.locator('.place.sector').first();
			const cardBox = (await card.boundingBox())!;
			await page.mouse.click(cardBox.x + cardBox.width - 6, cardBox.y + cardBox.height - 5);
			await expect(card.locator('.name')).toHaveAttribute('aria-pressed', 'true');
			const tools = page.getByRole('toolbar', { name: /^Edit / });
			await expect(tools).toBeVisible();
			await page.waitForTimeout(400);
			const flow = (await graph.locator('.svelte-flow').boundingBox())!;
			const t = (await tools.boundingBox())!;
			expect(t.y + t.height).toBeLessThanOrEqual(flow.y + flow.height + 0.5);
			expect(t.x + t.width).toBeLessThanOrEqual(flow.x + flow.width + 0.5);
		});

		test("the Spatial tab's graph at Fit is readable", async ({ page }) => {
			await page.goto(`/runs/${runId}?step=400&agent=isabella-rodriguez&tab=spatial`);
			await page.getByRole('group', { name: 'Spatial memory view' }).getByRole('button', { name: 'Graph' }).click();
			const graph = page.getByRole('tabpanel');
			await graph.getByRole('button', { name: 'Fit view' }).click();
			await page.waitForTimeout(600);
			const sizes = await graphTextSizes(graph);
			expect(sizes.length).toBeGreaterThan(0);
			expect(Math.min(...sizes)).toBeGreaterThanOrEqual(10);
			await page.getByRole('group', { name: 'Spatial memory view' }).getByRole('button', { name: 'List' }).click();
		});

		test('activity emoji are drawn in colour on the map and in the list', async ({ page }) => {
			// drawn on an empty town (blank tiles): what is coloured over a head is its emoji
			await blankTiles(page);
			await page.goto(`/runs/${runId}?step=400`);
			const map = page.getByRole('application', { name: 'Town map' });
			await expect(map).toHaveAttribute('data-ready', 'true');
			await expect(map).toHaveAttribute('data-step', '400');
			// in a crowd a name may cover an emoji: most of them, not all; a conversation's 💬 is
			// white by design
			const frame = (await (await page.request.get(`/api/runs/${runId}/frames?from=400&to=400`)).json())[0] as { agents: { id: string; emoji: string }[] };
			const chatting = new Set(frame.agents.filter((a) => a.emoji === '💬').map((a) => a.id));
			await expectMapEmojiInColour(map, { share: 0.6, except: chatting });
			// some emoji are grey by design (a laptop, a pen): most of them in colour
			await expectEmojiElementsInColour(page.getByRole('tabpanel').getByRole('list', { name: 'Agents' }).locator('.name [aria-hidden="true"]'), { min: 12, share: 0.6 });
		});

		test('the compare view lists an override once, shows both runs whole and reads well', async ({ page }) => {
			test.setTimeout(120_000);
			const res = await page.request.post('/api/runs', {
				data: { from: { run: runId, step: 200 }, steps: 60, set: ['retrieval.weights.relevance=2'] }
			});
			expect(res.ok(), await res.text()).toBe(true);
			const fork = (await res.json()).id as string;
			await expect
				.poll(async () => (await (await page.request.get(`/api/runs/${fork}`)).json()).status, { timeout: 90_000 })
				.toBe('done');
			await page.goto(`/compare?a=${runId}&b=${fork}`);
			const header = page.getByRole('region', { name: 'Compared runs' });
			await expect(header).toBeVisible();
			const setUp = page.getByRole('table', { name: 'Set-up differences' });
			await expect(setUp.locator('tr', { hasText: 'retrieval.weights.relevance' })).toHaveCount(1);
			// Run B's header is not cut: nothing inside it is wider than its box or the window.
			const b = header.locator('[data-side="b"]');
			const bBox = (await b.boundingBox())!;
			expect(bBox.x + bBox.width).toBeLessThanOrEqual(size.width);
			const cut = await b.evaluate((el) => [...el.querySelectorAll<HTMLElement>('*')].filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible').length);
			expect(cut).toBe(0);
			// Captions of text diffs read "line 4 (1 shared line above ...)".
			for (const caption of await page.locator('.text-diff figcaption').allTextContents()) expect(caption).not.toMatch(/line \d+\(/);
		});

		test('the worlds list is one click away', async ({ page }) => {
			await page.goto('/');
			await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Worlds', exact: true }).click();
			await expect(page).toHaveURL(/\/worlds$/);
			await expect(page.getByRole('link', { name: /Edit Smallville/ })).toBeVisible();
		});
	});
}
