// The IDE's side of budgets, usage and estimates: a live run pauses at its budget with the
// figures, goes on after a higher budget; usage per agent and template equals the journal.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEstimate, RunInfo, RunUsage } from '../../api/types';
import { openRun } from '../run/runner';
import { runManager } from './manager';
import * as runsRoute from '../../../routes/api/runs/+server';
import * as runRoute from '../../../routes/api/runs/[id]/+server';
import * as controlRoute from '../../../routes/api/runs/[id]/control/+server';
import * as usageRoute from '../../../routes/api/runs/[id]/usage/+server';
import * as estimateRoute from '../../../routes/api/runs/estimate/+server';

const home = mkdtempSync(path.join(tmpdir(), 'ide-cost-'));
process.env.SIMULACRA_HOME = home;
const manager = runManager();

afterAll(async () => {
	await manager.shutdown();
	rmSync(home, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (event: any) => Response | Promise<Response>;

async function call<T>(handler: Handler, params: Record<string, string>, body?: unknown): Promise<{ status: number; json: T }> {
	const url = new URL('http://127.0.0.1/api/test');
	const request = new Request(url, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
	const res = await handler({ params, url, request });
	return { status: res.status, json: (await res.json()) as T };
}

describe('budgets, usage and estimates in the IDE', () => {
	it('pauses a live run at its budget with the figures; a higher budget lets it finish', async () => {
		const started = await call<{ id: string }>(runsRoute.POST, {}, { world: 'the-ville-3', steps: 60, seed: 2, budget: { tokens: 1 } });
		expect(started.status).toBe(200);
		const id = started.json.id;
		await manager.settled(id);
		let info = (await call<RunInfo>(runRoute.GET, { id })).json;
		// the creation's calls already spent the budget: not one step is made
		expect(info.status).toBe('paused');
		expect(info.steps).toBe(0);
		expect(info.pause?.reason).toBe('budget');
		expect(info.pause?.message).toMatch(/budget reached: [\d,]+ of 1 tokens/);
		expect(info.budget).toEqual({ tokens: 1 });

		const bad = await call<{ message: string }>(controlRoute.POST, { id }, { action: 'budget', budget: { tokens: -5 } });
		expect(bad.status).toBe(400);
		expect(bad.json.message).toMatch(/tokens must be a whole number/);

		expect((await call(controlRoute.POST, { id }, { action: 'budget', budget: { tokens: 10_000_000 } })).status).toBe(200);
		await call(controlRoute.POST, { id }, { action: 'play' });
		await manager.settled(id);
		info = (await call<RunInfo>(runRoute.GET, { id })).json;
		expect(info.steps).toBe(60);
		expect(info.status).toBe('done');
		expect(info.pause).toBeNull();

		const usage = (await call<RunUsage>(usageRoute.GET, { id })).json;
		const calls = openRun(id, home).calls();
		const tokens = calls.reduce((n, c) => n + c.tokens.prompt + c.tokens.completion, 0);
		expect(usage.total.calls).toBe(calls.length);
		expect(usage.total.prompt + usage.total.completion).toBe(tokens);
		expect(info.usage?.calls).toBe(calls.length);
		const byAgent = Object.values(usage.agents).reduce((n, r) => n + r.prompt + r.completion, 0);
		const byTemplate = Object.values(usage.templates).reduce((n, r) => n + r.calls, 0);
		expect(byAgent).toBe(tokens);
		expect(byTemplate).toBe(calls.length);
		expect(usage.models).toHaveLength(1);
		expect(usage.models[0]).toMatchObject({ provider: 'offline', languageModel: false, usd: 0, price: { input: 0, output: 0 } });
		expect(usage.budget).toEqual({ tokens: 10_000_000 });
	}, 120_000);

	it('estimates a run before it starts and refuses bad requests', async () => {
		const est = await call<RunEstimate>(estimateRoute.POST, {}, { world: 'the-ville-3', steps: 120, seed: 2 });
		expect(est.status).toBe(200);
		expect(est.json.method).toBe('dry-run');
		expect(est.json.sampleSteps).toBe(120);
		expect(est.json.agents).toBe(3);
		expect(est.json.tokens.prompt).toBeGreaterThan(0);
		expect(est.json.usd).toBe(0);
		expect(est.json.languageModel).toBe(false);
		expect((await call<{ message: string }>(estimateRoute.POST, {}, { world: 'the-ville-3', steps: 0 })).status).toBe(400);
		expect((await call<{ message: string }>(estimateRoute.POST, {}, { world: 'nowhere', steps: 5 })).status).toBe(404);
	}, 60_000);
});
