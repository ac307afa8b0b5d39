import { expect, test, type Page } from '@playwright/test';

// Where prompt versions go, at 1280 x 800: a save refused for a YAML error keeps the Form /
// Versions / Try panel in the window and shows the error once; the workbench says that saving
// writes into the working folder; the start form and the fork dialog say which prompt set a
// run will use and whether it differs from the shipped one. (The e2e server's working folder
// is a copy of prompts/; the tests put its first content back at the end.)

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 800 } });

interface Overview {
	working: { version: string; templates: { id: string; file: string; source: string }[] };
	labels: Record<string, string>;
	shipped?: { version: string } | null;
}

const overview = async (page: Page): Promise<Overview> => (await page.request.get('/api/prompts')).json();

let run = '';
let baseline = '';
let saved = '';

test('a save refused for a YAML error keeps the side panel in view and shows the error once', async ({ page }) => {
	baseline = (await overview(page)).labels.baseline ?? '';
	await page.goto('/prompts');
	await expect(page.getByTestId('prompts-folder')).toContainText('writes it into');
	await expect(page.getByTestId('prompts-folder')).toContainText('the working folder: runs started without a chosen version use it');
	await expect(page.getByTestId('prompts-folder')).toContainText('SIMULACRA_PROMPTS');

	await page.getByTestId('template-item-importance').getByRole('button').first().click();
	const editor = page.getByTestId('template-editor');
	await expect(editor).toHaveAttribute('data-ready', 'true');
	await editor.locator('.view-lines').click();
	await page.keyboard.press('Control+Home');
	await page.keyboard.press('ArrowDown');
	await page.keyboard.press('End');
	await page.keyboard.type(': : [bad');
	await page.getByLabel('Version message').fill('Broken front matter');
	await page.getByRole('button', { name: 'Save version' }).click();

	const refused = page.getByRole('list', { name: 'Save problems' });
	await expect(refused).toContainText('YAML');
	// the status line says it was not saved; the problems are listed once, below it
	await expect(page.getByTestId('save-status')).toHaveText('Not saved');
	// the panel beside the editor stays inside the window
	const side = page.getByRole('complementary', { name: 'Template tools' });
	await expect(page.getByRole('tab', { name: 'Try' })).toBeInViewport({ ratio: 1 });
	const box = (await side.boundingBox())!;
	expect(box.x + box.width).toBeLessThanOrEqual(1280);
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
});

test('the start form says which prompt set a run uses, and whether it is the shipped one', async ({ page }) => {
	// the first content of the working folder, stored as the baseline
	if (baseline) expect((await page.request.post(`/api/prompts/versions/${baseline}/restore`)).ok()).toBe(true);
	const before = await overview(page);
	await page.goto('/runs');
	const use = page.getByTestId('prompt-use');
	await expect(use).toHaveAttribute('data-version', before.working.version);
	await expect(use).toContainText(`Uses prompt set ${before.working.version.slice(0, 8)}`);
	await expect(use).toContainText('the working folder');
	if (before.shipped) await expect(use).toHaveAttribute('data-shipped', before.shipped.version === before.working.version ? 'same' : 'differs');

	// a version saved in the workbench is what new runs use from now on, and the form says so
	const templates = before.working.templates.map((t) => ({
		id: t.id,
		source: t.id === 'importance' ? `${t.source.trimEnd()}\nKeep it brief.\n` : t.source
	}));
	const res = await page.request.post('/api/prompts/versions', { data: { message: 'Brief ratings', templates } });
	expect(res.ok(), await res.text()).toBe(true);
	saved = (await res.json()).version;
	await page.reload();
	await expect(use).toHaveAttribute('data-version', saved);
	await expect(use).toContainText(`Uses prompt set ${saved.slice(0, 8)}, the working folder`);
	if (before.shipped) {
		await expect(use).toHaveAttribute('data-shipped', 'differs');
		await expect(use).toContainText('differs from the shipped prompts');
	}
	const started = await page.request.post('/api/runs', { data: { world: 'the-ville-3', steps: 20, seed: 3, model: 'offline' } });
	run = (await started.json()).id;
	const info = await (await page.request.get(`/api/runs/${run}`)).json();
	expect(info.promptSet).toBe(saved);
});

test("the fork dialog says which prompt set the fork uses: its parent's, or the one chosen", async ({ page }) => {
	await expect.poll(async () => (await (await page.request.get(`/api/runs/${run}/timeline`)).json()).steps, { timeout: 60_000 }).toBe(20);
	await page.goto(`/runs/${run}?step=10`);
	await expect(page.getByRole('application', { name: 'Town map' })).toHaveAttribute('data-ready', 'true');
	await page.getByRole('button', { name: 'Fork here' }).click();
	const dialog = page.getByRole('dialog', { name: 'Fork at step 10' });
	const use = dialog.getByTestId('prompt-use');
	await expect(use).toHaveAttribute('data-version', saved);
	await expect(use).toContainText("the parent run's prompts");
	if (baseline) {
		await dialog.getByLabel('Prompt version').selectOption(baseline);
		await expect(use).toHaveAttribute('data-version', baseline);
		await expect(use).toContainText('[baseline]');
	}
	// the working folder as it was at first
	if (baseline) expect((await page.request.post(`/api/prompts/versions/${baseline}/restore`)).ok()).toBe(true);
});
