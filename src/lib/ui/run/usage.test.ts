import { describe, expect, it } from 'vitest';
import { budgetFromFields, estimateLine, formatMeter, formatUsd } from './usage';

describe('cost figures in the browser', () => {
	it('reads budget fields, refusing what is not a budget', () => {
		expect(budgetFromFields('', '')).toEqual({ budget: null, error: null });
		expect(budgetFromFields('5000', '')).toEqual({ budget: { tokens: 5000 }, error: null });
		expect(budgetFromFields(null, '0.5')).toEqual({ budget: { usd: 0.5 }, error: null });
		expect(budgetFromFields('1.5', '').error).toMatch(/whole number/);
		expect(budgetFromFields('', '-2').error).toMatch(/positive/);
	});

	it('writes meters and estimates', () => {
		expect(formatUsd(0.0042)).toBe('$0.0042');
		expect(formatMeter({ calls: 2, prompt: 1200, completion: 300, usd: 0.0123, unpricedTokens: 0 })).toBe('1,500 tokens · $0.012');
		expect(formatMeter({ calls: 2, prompt: 10, completion: 0, usd: 0, unpricedTokens: 10 })).toBe('10 tokens · $0 (+10 unpriced)');
		const base = { steps: 10, agents: 1, method: 'dry-run' as const, sampleSteps: 10, callsPerAgentStep: 1, tokensPerCall: { prompt: 1, completion: 1 }, calls: 7, tokens: { prompt: 900, completion: 100 }, price: null, note: '' };
		expect(estimateLine({ ...base, usd: 0.5, model: 'gpt-4o-mini', languageModel: true })).toBe('~1,000 tokens (7 calls) · ~$0.500 with gpt-4o-mini');
		expect(estimateLine({ ...base, usd: 0, model: 'offline', languageModel: false })).toMatch(/free \(offline stand-in, not a language model\)/);
		expect(estimateLine({ ...base, usd: null, model: 'm', languageModel: true })).toMatch(/no price configured for m/);
	});
});
