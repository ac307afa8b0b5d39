import { describe, expect, it } from 'vitest';
import type { ModelIdentity } from '../../api/types';
import { budgetReached, checkBudget, costOf, formatUsd, modelAtStep, UsageCounter } from './cost';

const id = (model: string): ModelIdentity => ({ provider: 'openai', chat: { endpoint: 'h', model }, embed: { endpoint: 'h', model: 'e', dimensions: 8 } });

describe('cost arithmetic', () => {
	it('prices each call at the model that answered it, per million tokens', () => {
		// gpt-4o-mini's list price: $0.15 / $0.60 per million input / output tokens
		expect(costOf({ prompt: 1_000_000, completion: 0 }, { input: 0.15, output: 0.6 })).toBeCloseTo(0.15, 12);
		expect(costOf({ prompt: 2000, completion: 500 }, { input: 0.15, output: 0.6 })).toBeCloseTo(0.0006, 12);
		const prices: Record<string, { input: number; output: number }> = { big: { input: 2.5, output: 10 }, small: { input: 0.15, output: 0.6 } };
		const c = new UsageCounter((_p, m) => prices[m] ?? null, () => ({ provider: 'openai', model: 'big' }));
		c.add({ agent: 'a', template: 'plan', tokens: { prompt: 1000, completion: 100 } }); // big (the run's model)
		c.add({ agent: 'a', template: 'importance', tokens: { prompt: 400, completion: 10 }, provider: 'openai', model: 'small' });
		c.add({ agent: 'b', template: 'plan', tokens: { prompt: 300, completion: 50 }, provider: 'openai', model: 'nameless' });
		c.add({ template: 'plan', tokens: { prompt: 80, completion: 20 }, provider: 'offline', model: 'offline-standin-1' });
		const u = c.usage({ usd: 1 });
		const big = (1000 * 2.5 + 100 * 10) / 1e6;
		const small = (400 * 0.15 + 10 * 0.6) / 1e6;
		expect(u.total.calls).toBe(4);
		expect(u.total.prompt).toBe(1780);
		expect(u.total.completion).toBe(180);
		expect(u.total.usd).toBeCloseTo(big + small, 12);
		expect(u.total.unpricedTokens).toBe(350);
		expect(u.agents.a.usd).toBeCloseTo(big + small, 12);
		expect(u.agents.b).toMatchObject({ calls: 1, usd: 0, unpricedTokens: 350 });
		expect(u.agents['']).toMatchObject({ calls: 1, prompt: 80, usd: 0, unpricedTokens: 0 });
		expect(u.templates.plan.calls).toBe(3);
		expect(u.templates.importance.usd).toBeCloseTo(small, 12);
		const offline = u.models.find((m) => m.provider === 'offline');
		expect(offline).toMatchObject({ languageModel: false, price: { input: 0, output: 0 }, usd: 0, prompt: 80 });
		expect(u.models.find((m) => m.model === 'nameless')?.price).toBeNull();
		expect(u.budget).toEqual({ usd: 1 });
	});

	it('knows which model answered a step after recorded model changes', () => {
		const at = modelAtStep({ provider: 'openai', model: 'c' }, [
			{ step: 10, from: id('a'), to: id('b') },
			{ step: 20, from: id('b'), to: id('c') }
		]);
		expect([at(-1).model, at(9).model, at(10).model, at(19).model, at(20).model, at(500).model]).toEqual(['a', 'a', 'b', 'b', 'c', 'c']);
		expect(modelAtStep({ provider: 'offline', model: 'x' })(3)).toEqual({ provider: 'offline', model: 'x' });
	});

	it('checks budgets: reached at or past either limit; bad budgets are refused with the reason', () => {
		const row = { calls: 3, prompt: 900, completion: 100, usd: 0.25, unpricedTokens: 0 };
		expect(budgetReached(row, null)).toBeNull();
		expect(budgetReached(row, { tokens: 1001 })).toBeNull();
		expect(budgetReached(row, { tokens: 1000 })).toBe('budget reached: 1,000 of 1,000 tokens');
		expect(budgetReached(row, { usd: 0.25 })).toBe('budget reached: $0.250 of $0.250');
		expect(budgetReached(row, { tokens: 5000, usd: 0.3 })).toBeNull();
		expect(checkBudget({ tokens: 10, usd: 0.5 })).toEqual({ tokens: 10, usd: 0.5 });
		expect(checkBudget({})).toBeNull();
		expect(() => checkBudget({ tokens: 1.5 })).toThrow(/tokens must be a whole number of at least 1/);
		expect(() => checkBudget({ usd: -1 })).toThrow(/usd must be a positive number/);
		expect([formatUsd(0), formatUsd(12.345), formatUsd(0.0234), formatUsd(0.000123)]).toEqual(['$0', '$12.35', '$0.023', '$0.00012']);
	});
});
