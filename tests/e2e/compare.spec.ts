import { expect, test, type Page } from '@playwright/test';

// The compare view's verdict and its "Next difference", on weights-only forks of Smallville
// (seed 1, reflections from an importance sum of 40, forked at step 100):
// - relevance 3 for 100 steps: the prompts differ, nobody acts differently, the memories are the
//   same; the header says so ("Same behaviour, different model calls"), not "Behaviour differs";
// - relevance 0 for 400 steps: nobody moves differently, but reflections differ; Next difference
//   steps to them, and the lanes of agents that reflected otherwise do not say "the same".

test.describe.configure({ mode: 'serial' });

const FORK_AT = 100;
let base = '';
let callsOnly = '';
let reflections = '';

interface Differences {
	kind: string;
	count: number;
	agents: string[];
	frames: [number, number][];
}

interface Diff {
	verdict: { kind: string; title: string; detail: string };
	differences: Differences[];
	firstDivergence: { frame: number } | null;
	agents: { id: string; name: string; differingSteps: number; a: { reflections: number }; b: { reflections: number } }[];
}

async function start(page: Page, data: object): Promise<string> {
	const res = await page.request.post('/api/runs', { data });
	expect(res.ok(), await res.text()).toBe(true);
	const id = (await res.json()).id as string;
	await expect
		.poll(async () => (await (await page.request.get(`/api/runs/${id}`)).json()).status, { timeout: 120_000 })
		.toBe('done');
	return id;
}

async function diffOf(page: Page, a: string, b: string): Promise<Diff> {
	return (await page.request.get(`/api/diff?a=${a}&b=${b}`)).json();
}

async function openCompare(page: Page, a: string, b: string, step?: number): Promise<void> {
	await page.goto(`/compare?a=${a}&b=${b}${step === undefined ? '' : `&step=${step}`}`);
	await expect(page.getByTestId('compare-page')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
}

test('a weights-only fork whose prompts differ: the header says same behaviour, different model calls', async ({ page }) => {
	test.setTimeout(240_000);
	base = await start(page, { world: 'smallville', steps: 500, seed: 1, model: 'offline', set: ['reflection.threshold=40'] });
	callsOnly = await start(page, { from: { run: base, step: FORK_AT }, steps: 100, set: ['retrieval.weights.relevance=3'] });
	const diff = await diffOf(page, base, callsOnly);
	expect(diff.verdict.kind).toBe('same-behaviour');
	expect(diff.differences.map((d) => d.kind)).toEqual(['calls']);

	await openCompare(page, base, callsOnly);
	const verdict = page.getByTestId('verdict');
	await expect(verdict).toHaveAttribute('data-verdict', 'same-behaviour');
	await expect(verdict.locator('strong')).toHaveText('Same behaviour, different model calls');
	await expect(verdict).toContainText('No agent moves or acts differently, and no conversation, memory or reflection differs');
	await expect(page.getByRole('region', { name: 'Compared runs' })).not.toContainText('Behaviour differs');
	await expect(page.getByText('No agent moves differently')).toBeVisible();

	// the page opens on the first divergence, where a call differs; Next goes to the next such call
	const frame = page.getByTestId('compare-frame');
	const calls = diff.differences[0].frames.map(([from]) => from);
	await expect(frame).toHaveText(String(diff.firstDivergence?.frame));
	await expect(page.getByTestId('differs-here')).toHaveText('model calls differ here');
	const next = page.getByRole('button', { name: 'Next difference' });
	await expect(next).toBeEnabled();
	await next.click();
	await expect(frame).toHaveText(String(calls[1]));
	await expect(page.getByTestId('differs-here')).toHaveText('model calls differ here');
	// the lanes agree: an agent whose calls differ does not read "the same in both runs"
	const asked = diff.agents.find((a) => diff.differences[0].agents.includes(a.id));
	await expect(page.locator(`li[data-agent="${asked?.id}"] [data-testid="lane-counts"]`)).toContainText('moves the same · model calls');
	// the lanes' colours have a legend: the places they show
	const legend = page.getByRole('list', { name: 'Lane colours by place' });
	await expect(legend).toBeVisible();
	await expect(legend.getByRole('listitem').first()).not.toBeEmpty();
	expect(await legend.getByRole('listitem').count()).toBeGreaterThan(1);
});

test('a weights-only fork whose reflections differ: Next difference steps to them though nobody moves differently', async ({ page }) => {
	test.setTimeout(240_000);
	reflections = await start(page, { from: { run: base, step: FORK_AT }, steps: 400, set: ['retrieval.weights.relevance=0'] });
	const diff = await diffOf(page, base, reflections);
	expect(diff.agents.every((a) => a.differingSteps === 0)).toBe(true);
	const refl = diff.differences.find((d) => d.kind === 'reflections');
	expect(refl).toBeDefined();
	const target = refl!.frames[0][0];

	// open just before the first frame where reflections differ
	await openCompare(page, base, reflections, target - 1);
	const verdict = page.getByTestId('verdict');
	await expect(verdict).toHaveAttribute('data-verdict', 'behaviour');
	await expect(verdict.locator('strong')).toHaveText('Behaviour differs');
	await expect(verdict).toContainText(`${refl!.count} reflection`);
	await expect(page.getByText('No agent moves differently')).toBeVisible();

	const frame = page.getByTestId('compare-frame');
	await expect(frame).toHaveText(String(target - 1));
	const next = page.getByRole('button', { name: 'Next difference' });
	await expect(next).toBeEnabled();
	await next.click();
	await expect(frame).toHaveText(String(target));
	await expect(page.getByTestId('differs-here')).toContainText('reflections');
	await page.getByRole('button', { name: 'Previous difference' }).click();
	await expect(frame).not.toHaveText(String(target));

	// an agent that reflected more often in one run: its lane names the reflections, next to its counts
	for (const agent of diff.agents.filter((a) => a.a.reflections !== a.b.reflections)) {
		const row = page.locator(`li[data-agent="${agent.id}"]`);
		await expect(row).toContainText(`${agent.a.reflections}/${agent.b.reflections} refl.`);
		await expect(row.getByTestId('lane-counts')).not.toContainText('the same in both runs');
		await expect(row.getByTestId('lane-counts')).toContainText('reflections (');
	}
});

test('an inner-voice fork whose first differing call is another template: the panel names both calls, not a template version', async ({ page }) => {
	test.setTimeout(180_000);
	const town = await start(page, { world: 'the-ville-3', steps: 240, seed: 7, model: 'offline' });
	const fork = await start(page, {
		from: { run: town, step: 180 },
		steps: 60,
		inputs: [{ type: 'whisper', agent: 'klaus-mueller', text: 'You should visit the cafe' }]
	});
	await openCompare(page, town, fork);
	await expect(page.getByTestId('verdict').locator('strong')).toHaveText('Behaviour differs');
	const divergence = page.getByRole('region', { name: 'First divergence' });
	await expect(divergence.locator('[data-reason]')).toHaveAttribute('data-reason', 'call');
	await expect(divergence.getByTestId('different-calls')).toHaveText('A called decompose_task, B called inner_voice');
	await expect(divergence).not.toContainText('Template version');
});
