// What a run's model calls cost: tokens per call (as recorded), totals per agent, template and
// model, dollars at each model's price (US dollars per million input / output tokens), and the
// budget check made between steps. The offline stand-in's tokens are counted (4 characters a
// token) but cost nothing: it is not a language model.

import type { Budget, ModelIdentity, ModelUsage, Price, RunUsage, UsageRow } from '../../api/types';
import { InvalidError } from '../errors';

/** The fields of a recorded call that cost is made of. */
export interface CostedCall {
	s?: number;
	agent?: string;
	template: string;
	tokens: { prompt: number; completion: number };
	provider?: string;
	model?: string;
}

export const OFFLINE_PRICE: Price = { input: 0, output: 0 };

/** Dollars for `tokens` at `price` (per million tokens). */
export function costOf(tokens: { prompt: number; completion: number }, price: Price): number {
	return (tokens.prompt * price.input + tokens.completion * price.output) / 1_000_000;
}

export function emptyRow(): UsageRow {
	return { calls: 0, prompt: 0, completion: 0, usd: 0, unpricedTokens: 0 };
}

/** Two usage rows added up. */
export function sumRows(a: UsageRow, b: UsageRow): UsageRow {
	return { calls: a.calls + b.calls, prompt: a.prompt + b.prompt, completion: a.completion + b.completion, usd: a.usd + b.usd, unpricedTokens: a.unpricedTokens + b.unpricedTokens };
}

function addTo(row: UsageRow, tokens: { prompt: number; completion: number }, price: Price | null): void {
	row.calls++;
	row.prompt += tokens.prompt;
	row.completion += tokens.completion;
	if (price) row.usd += costOf(tokens, price);
	else row.unpricedTokens += tokens.prompt + tokens.completion;
}

/** The model that answered calls of step `s`, by the run's identity and its recorded changes. */
export interface ModelAtStep {
	(s: number): { provider: string; model: string };
}

/** `modelAt` for a run: its first identity until the first change, and so on. */
export function modelAtStep(
	current: { provider: string; model: string },
	changes: readonly { step: number; from: ModelIdentity; to: ModelIdentity }[] = []
): ModelAtStep {
	if (changes.length === 0) return () => current;
	const first = { provider: changes[0].from.provider, model: changes[0].from.chat.model };
	return (s) => {
		let at = first;
		for (const c of changes) if (s >= c.step) at = { provider: c.to.provider, model: c.to.chat.model };
		return at;
	};
}

/**
 * Running totals of a run's calls. `price(provider, model)` gives a model's price (null: no
 * price known); the offline stand-in always costs 0.
 */
export class UsageCounter {
	readonly total = emptyRow();
	readonly agents = new Map<string, UsageRow>();
	readonly templates = new Map<string, UsageRow>();
	private readonly models = new Map<string, ModelUsage>();

	constructor(
		private readonly price: (provider: string, model: string) => Price | null,
		private readonly modelAt: ModelAtStep
	) {}

	add(call: CostedCall): void {
		const fallback = this.modelAt(call.s ?? 0);
		const provider = call.provider ?? fallback.provider;
		const model = call.model ?? fallback.model;
		const key = `${provider}\u0000${model}`;
		let m = this.models.get(key);
		if (!m) {
			const price = provider === 'offline' ? OFFLINE_PRICE : this.price(provider, model);
			m = { ...emptyRow(), model, provider, price, languageModel: provider !== 'offline' };
			this.models.set(key, m);
		}
		const tokens = call.tokens ?? { prompt: 0, completion: 0 };
		addTo(this.total, tokens, m.price);
		addTo(m, tokens, m.price);
		const agent = call.agent ?? '';
		let a = this.agents.get(agent);
		if (!a) this.agents.set(agent, (a = emptyRow()));
		addTo(a, tokens, m.price);
		let t = this.templates.get(call.template);
		if (!t) this.templates.set(call.template, (t = emptyRow()));
		addTo(t, tokens, m.price);
	}

	addAll(calls: Iterable<CostedCall>): this {
		for (const c of calls) this.add(c);
		return this;
	}

	usage(budget: Budget | null = null): RunUsage {
		const sorted = <T>(m: Map<string, T>) => Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, { ...v }]));
		return {
			total: { ...this.total },
			agents: sorted(this.agents),
			templates: sorted(this.templates),
			models: [...this.models.values()].map((m) => ({ ...m })),
			budget
		};
	}
}

/** Tokens of a usage row (prompt + completion). */
export function tokensOf(row: UsageRow): number {
	return row.prompt + row.completion;
}

const int = (n: number) => Math.round(n).toLocaleString('en');

/** Dollars as people read them: cents for sums over a dollar, more digits for small ones. */
export function formatUsd(usd: number): string {
	if (usd === 0) return '$0';
	if (usd >= 1) return `$${usd.toFixed(2)}`;
	if (usd >= 0.01) return `$${usd.toFixed(3)}`;
	return `$${usd.toPrecision(2)}`;
}

/** "12,345 tokens, $0.021" (with the unpriced tokens named). */
export function formatUsage(row: UsageRow): string {
	const unpriced = row.unpricedTokens > 0 ? ` (${int(row.unpricedTokens)} tokens of models without a price)` : '';
	return `${int(tokensOf(row))} tokens, ${formatUsd(row.usd)}${unpriced}`;
}

/** Checks a budget: the reason to pause when it is reached, else null. */
export function budgetReached(row: UsageRow, budget: Budget | null | undefined): string | null {
	if (!budget) return null;
	const parts: string[] = [];
	if (budget.tokens !== undefined && tokensOf(row) >= budget.tokens) parts.push(`${int(tokensOf(row))} of ${int(budget.tokens)} tokens`);
	if (budget.usd !== undefined && row.usd >= budget.usd) parts.push(`${formatUsd(row.usd)} of ${formatUsd(budget.usd)}`);
	return parts.length ? `budget reached: ${parts.join(', ')}` : null;
}

/** A budget from user input: positive numbers only; null when neither is given. */
export function checkBudget(budget: { tokens?: unknown; usd?: unknown } | null | undefined, where = 'budget'): Budget | null {
	if (budget === null || budget === undefined) return null;
	const out: Budget = {};
	if (budget.tokens !== undefined && budget.tokens !== null) {
		const n = Number(budget.tokens);
		if (!Number.isInteger(n) || n < 1) throw new InvalidError(`${where}: tokens must be a whole number of at least 1, not ${JSON.stringify(budget.tokens)}`);
		out.tokens = n;
	}
	if (budget.usd !== undefined && budget.usd !== null) {
		const n = Number(budget.usd);
		if (!Number.isFinite(n) || n <= 0) throw new InvalidError(`${where}: usd must be a positive number of dollars, not ${JSON.stringify(budget.usd)}`);
		out.usd = n;
	}
	return out.tokens === undefined && out.usd === undefined ? null : out;
}

/** "10,000 tokens / $0.50" */
export function formatBudget(budget: Budget | null | undefined): string {
	if (!budget) return 'none';
	return [budget.tokens !== undefined ? `${int(budget.tokens)} tokens` : '', budget.usd !== undefined ? formatUsd(budget.usd) : ''].filter(Boolean).join(' / ');
}
