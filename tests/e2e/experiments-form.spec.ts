import { expect, test } from '@playwright/test';

// The experiments form refuses a definition with a misspelt setting before anything starts,
// naming the arm, the setting and the close name (the same check as the command line).
test('a misspelt setting is shown in the form and nothing starts', async ({ page }) => {
	await page.goto('/experiments');
	const definition = {
		name: 'typo in the form',
		world: 'the-ville-3',
		steps: 20,
		replicates: 1,
		arms: [{ name: 'base' }, { name: 'relevance x3', set: ['retrieval.weights.relevanse=3'] }]
	};
	await page.getByLabel(/^Definition/).fill(JSON.stringify(definition, null, 2));
	await page.getByRole('button', { name: 'Start experiment' }).click();
	const alert = page.getByRole('alert');
	await expect(alert).toContainText('arms[1].set[0] (arm "relevance x3"): unknown setting "retrieval.weights.relevanse" (did you mean "retrieval.weights.relevance"?)');
	await expect(page).toHaveURL(/\/experiments$/);
	// nothing was created: the list does not name it
	const listed = (await page.request.get('/api/experiments').then((r) => r.json())) as { name: string }[];
	expect(listed.map((e) => e.name)).not.toContain('typo in the form');
});
