// Cost in the browser: the usage and estimate endpoints, and how figures are written
// (tokens with thousands separators, dollars with cents or, for small sums, two significant digits).

import type { Budget, ModelIdentity, RunEstimate, RunUsage, StartRunRequest, UsageRow } from '$lib/api/types';
import { defaultFetch, jsonInit, request, type Fetch } from '$lib/shared/api';

export function fetchUsage(id: string, f: Fetch = defaultFetch): Promise<RunUsage> {
	return request<RunUsage>(f, `/api/runs/${encodeURIComponent(id)}/usage`);
}

export function fetchEstimate(body: StartRunRequest, f: Fetch = defaultFetch, signal?: AbortSignal): Promise<RunEstimate> {
	return request<RunEstimate>(f, '/api/runs/estimate', jsonInit('POST', body, signal));
}

export function formatTokens(n: number): string {
	return Math.round(n).toLocaleString('en');
}

export function formatUsd(usd: number): string {
	if (usd === 0) return '$0';
	if (usd >= 1) return `$${usd.toFixed(2)}`;
	if (usd >= 0.01) return `$${usd.toFixed(3)}`;
	return `$${usd.toPrecision(2)}`;
}

/** "12,345 tokens · $0.021" */
export function formatMeter(row: UsageRow | null | undefined): string {
	if (!row) return '0 tokens';
	const unpriced = row.unpricedTokens > 0 ? ` (+${formatTokens(row.unpricedTokens)} unpriced)` : '';
	return `${formatTokens(row.prompt + row.completion)} tokens · ${formatUsd(row.usd)}${unpriced}`;
}

export function formatBudget(b: Budget | null | undefined): string {
	if (!b) return 'no budget';
	return [b.tokens !== undefined ? `${formatTokens(b.tokens)} tokens` : '', b.usd !== undefined ? formatUsd(b.usd) : ''].filter(Boolean).join(' / ');
}

/**
 * A budget from two form fields ('' = not set): the budget, null when both are empty, or the
 * problem to show.
 */
export function budgetFromFields(tokens: string | number | null, usd: string | number | null): { budget: Budget | null; error: string | null } {
	const t = tokens === null ? '' : String(tokens).trim();
	const d = usd === null ? '' : String(usd).trim();
	const budget: Budget = {};
	if (t !== '') {
		const n = Number(t);
		if (!Number.isInteger(n) || n < 1) return { budget: null, error: 'The token budget must be a whole number of at least 1.' };
		budget.tokens = n;
	}
	if (d !== '') {
		const n = Number(d);
		if (!Number.isFinite(n) || n <= 0) return { budget: null, error: 'The dollar budget must be a positive number.' };
		budget.usd = n;
	}
	return { budget: t === '' && d === '' ? null : budget, error: null };
}

/** "gpt-4o-mini at api.openai.com" */
export function modelName(id: ModelIdentity): string {
	return `${id.chat.model}${id.chat.endpoint ? ` at ${id.chat.endpoint}` : ''}`;
}

/** One line for an estimate: "~1.2M tokens (3,400 calls) · ~$0.21 with gpt-4o-mini". */
export function estimateLine(e: RunEstimate): string {
	const tokens = e.tokens.prompt + e.tokens.completion;
	const cost = !e.languageModel ? 'free (offline stand-in, not a language model)' : e.usd === null ? `no price configured for ${e.model}` : `~${formatUsd(e.usd)} with ${e.model}`;
	return `~${formatTokens(tokens)} tokens (${formatTokens(e.calls)} calls) · ${cost}`;
}
