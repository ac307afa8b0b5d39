import { expect, test, type Dialog, type Locator, type Page } from '@playwright/test';

// The world editor at 1280 x 800, as a new user met it: saving a world with an error asks first
// (naming the error; Cancel keeps the changes unsaved), a problem opens its persona with the
// field at fault marked and focused, renaming an arena offers to update the personas whose home
// names it (and saving does), and a persona refused for a bad age says why beside its Save
// button with the field brought into view. The tests share one copy of The Ville and go in order.

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 800 } });

const WORLD = 'e2e-refs';
const ARENA = "Isabella's Apartment:main room";
const RENAMED = "Isabella's Apartment:studio";

/** Answers the page's confirm dialogs in order (accept or dismiss), keeping their messages. */
function answerDialogs(page: Page, answers: boolean[]): string[] {
	const seen: string[] = [];
	page.on('dialog', async (d: Dialog) => {
		seen.push(d.message());
		if (answers.shift()) await d.accept();
		else await d.dismiss();
	});
	return seen;
}

async function openEditor(page: Page): Promise<void> {
	await page.goto(`/worlds/${WORLD}/edit`);
	await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-ready', 'true');
}

/** The Problems panel, once its counts are those of the map on screen (no check due or under way). */
async function checkedProblems(page: Page): Promise<Locator> {
	const problems = page.getByRole('region', { name: /Problems/ });
	await expect(problems).toHaveAttribute('aria-busy', 'false');
	return problems;
}

/** Renames the arena through the selection panel, after finding it in the graph. */
async function renameArena(page: Page, address: string, name: string): Promise<void> {
	await page.getByLabel('Search places').fill(address.split(':')[1]);
	await page.locator(`[data-address="${address}"]`).getByRole('button', { name: address.split(':')[1], exact: true }).click();
	// the arena itself is selected (other houses have a "main room" too)
	await expect(page.getByRole('region', { name: 'Selection' }).getByRole('heading', { level: 2 })).toHaveText(`Arena ${address}`);
	await expect(page.getByLabel('Zone name')).toHaveValue(address.split(':')[1]);
	await page.getByLabel('Zone name').fill(name);
	await page.getByLabel('Zone name').press('Enter');
}

async function arenaNames(page: Page): Promise<string[]> {
	const { doc } = await (await page.request.get(`/api/worlds/${WORLD}/map`)).json();
	const arenas = doc.layers.find((l: { name: string }) => l.name === 'arenas');
	return arenas.objects.map((o: { name: string }) => o.name);
}

async function homeOf(page: Page, persona: string): Promise<string> {
	const list: { id: string; persona: { home: string } }[] = await (await page.request.get(`/api/worlds/${WORLD}/personas`)).json();
	return list.find((p) => p.id === persona)!.persona.home;
}

test('copies The Ville for these tests', async ({ page }) => {
	const made = await page.request.post('/api/worlds', { data: { id: WORLD, name: 'E2E Refs', from: 'the-ville-3' } });
	expect(made.ok(), await made.text()).toBe(true);
});

test('saving a world with an error asks first, and its problem marks the persona field at fault', async ({ page }) => {
	// decline carrying the rename over (the persona keeps the old home: an error), then cancel the save
	const dialogs = answerDialogs(page, [false, false]);
	await openEditor(page);
	await renameArena(page, ARENA, 'studio');
	await expect.poll(() => dialogs.length).toBe(1);
	expect(dialogs[0]).toContain('personas/isabella-rodriguez.json: home');
	const problems = await checkedProblems(page);
	await expect(problems.getByText('1 error', { exact: true })).toBeVisible();

	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect.poll(() => dialogs.length).toBe(2);
	expect(dialogs[1]).toContain('The world has 1 error');
	expect(dialogs[1]).toContain(`has no arena "main room"`);
	// Cancel: nothing written, the changes stay
	await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes');
	expect(await arenaNames(page)).toContain('main room');

	// The problem opens the persona with Home marked, focused and in view.
	await problems.getByRole('button', { name: /has no arena "main room"/ }).click();
	await expect(page.getByRole('tab', { name: 'Personas' })).toHaveAttribute('aria-selected', 'true');
	const form = page.getByRole('form', { name: 'Persona isabella-rodriguez' });
	const home = form.getByLabel('Home');
	await expect(home).toBeFocused();
	await expect(home).toHaveAttribute('aria-invalid', 'true');
	await expect(home).toBeInViewport();
	await expect(form.getByText(/has no arena "main room"/).first()).toBeVisible();
});

test('renaming an arena offers to update the personas naming it, and saving updates them', async ({ page }) => {
	const dialogs = answerDialogs(page, [true]);
	await openEditor(page);
	await renameArena(page, ARENA, 'studio');
	await expect.poll(() => dialogs.length).toBe(1);
	expect(dialogs[0]).toContain(`Arena "${ARENA}" is now "${RENAMED}"`);
	expect(dialogs[0]).toContain(`personas/isabella-rodriguez.json: home "${ARENA}" → "${RENAMED}"`);
	await expect(page.getByTestId('pending-references')).toBeVisible();
	// carried over, the home is no longer a problem, so saving asks nothing
	await expect((await checkedProblems(page)).getByText('0 errors', { exact: true })).toBeVisible();
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(page.getByTestId('save-status')).toHaveText(/^Saved .* · 1 reference updated$/);
	expect(dialogs).toHaveLength(1);
	expect(await arenaNames(page)).toContain('studio');
	expect(await homeOf(page, 'isabella-rodriguez')).toBe(RENAMED);
	const check = await (await page.request.post(`/api/worlds/${WORLD}/check`, { data: {} })).json();
	expect(check.errors).toEqual([]);
});

test('a persona refused for its age says why beside the Save button, with the field in view', async ({ page }) => {
	await openEditor(page);
	await page.getByRole('tab', { name: 'Personas' }).click();
	await page.getByRole('button', { name: /Klaus Mueller/ }).click();
	const form = page.getByRole('form', { name: 'Persona klaus-mueller' });
	await form.getByLabel('Age').fill('twenty');
	const save = form.getByRole('button', { name: 'Save persona' });
	await save.click();
	const why = page.getByTestId('persona-save-failure');
	await expect(why).toBeVisible();
	await expect(why).toBeInViewport();
	await expect(save).toBeInViewport();
	await expect(why).toContainText('Age');
	await expect(why).toContainText('must be a whole number');
	const age = form.getByLabel('Age');
	await expect(age).toHaveAttribute('aria-invalid', 'true');
	await expect(age).toBeFocused();
	await expect(age).toBeInViewport();
	expect((await (await page.request.get(`/api/worlds/${WORLD}/personas`)).json()).find((p: { id: string }) => p.id === 'klaus-mueller').persona.age).not.toBe('twenty');
});
