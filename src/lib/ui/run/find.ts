// Pure helpers of the debugger's search box, changes pane and model-use charts: where a result
// or a change leads (step, agent, panel), the changes shown under the pane's filters, and the
// bars of the charts.

import type { SearchResult } from '$lib/api/search';
import type { StepChange, StepChangeKind } from '$lib/api/changes';
import type { ModelUse, ModelUseBucket } from '$lib/api/model-use';
import type { Tab } from './place';

/** Where a link goes: the state after `step` steps, an agent, a panel, the thing to point at. */
export interface Target {
	step: number;
	agent: string | null;
	tab: Tab;
	/** the memory id, call key or conversation id to point at in the panel */
	mark: string | null;
}

/**
 * Where a search result leads. A memory, a line or a call was made by step `s`: the state
 * after `s + 1` steps holds the memory or the committed conversation, and the calls panel at
 * that step lists the call among the recent steps' calls.
 */
export function resultTarget(r: SearchResult): Target {
	const agent = r.agent || null;
	switch (r.kind) {
		case 'memory':
			return { step: r.step + 1, agent, tab: 'memories', mark: r.id };
		case 'conversation':
			return { step: r.step + 1, agent, tab: 'chats', mark: r.id.replace(/#\d+$/, '') };
		case 'call':
			return { step: Math.max(0, r.step + 1), agent, tab: 'calls', mark: r.id };
	}
}

/** Where a change of the step to `step` leads (null: nowhere more than the step itself). */
export function changeTarget(c: StepChange, step: number): Target | null {
	const agent = 'agent' in c && c.agent ? c.agent : null;
	switch (c.kind) {
		case 'memory':
		case 'reflection':
			return { step, agent, tab: 'memories', mark: c.id };
		case 'noted':
			return agent ? { step, agent, tab: 'memories', mark: null } : null;
		case 'plan':
			return { step, agent, tab: 'plan', mark: null };
		case 'conversation':
			return { step, agent: c.agents[0], tab: 'chats', mark: c.id };
		case 'call':
			return { step, agent, tab: 'calls', mark: c.key };
		case 'object':
			return c.by ? { step, agent: c.by, tab: 'agent', mark: null } : null;
		default:
			return agent ? { step, agent, tab: 'agent', mark: null } : null;
	}
}

export const CHANGE_LABELS: Record<StepChangeKind, string> = {
	input: 'inputs',
	conversation: 'conversations',
	reaction: 'reactions',
	plan: 'plans',
	reflection: 'reflections',
	memory: 'memories',
	noted: 'noted',
	action: 'actions',
	object: 'objects',
	move: 'moves',
	call: 'model calls'
};

/** The changes a person asked to see: of the kinds not hidden, and of one agent when given. */
export function visibleChanges(changes: readonly StepChange[], hidden: ReadonlySet<StepChangeKind>, agent: string | null): StepChange[] {
	return changes.filter((c) => {
		if (hidden.has(c.kind)) return false;
		if (!agent) return true;
		if (c.kind === 'conversation') return c.agents.includes(agent);
		if (c.kind === 'object') return c.by === agent;
		return 'agent' in c && c.agent === agent;
	});
}

// ---------------------------------------------------------------- charts

export type Metric = 'calls' | 'tokens' | 'latency';

export const METRIC_LABELS: Record<Metric, string> = { calls: 'Calls', tokens: 'Tokens', latency: 'Mean latency (ms)' };

export function metricOf(b: ModelUseBucket, metric: Metric): number {
	if (metric === 'calls') return b.calls;
	if (metric === 'tokens') return b.prompt + b.completion;
	return b.calls ? b.latencyMs / b.calls : 0;
}

export interface Bar {
	hour: number;
	step: number;
	time: number;
	/** the stacked parts, bottom first: a template (or "other") and its value */
	parts: { template: string; value: number }[];
	total: number;
}

/** Templates charted on their own (the rest are "other"). */
export const CHART_TEMPLATES = 6;

/**
 * One bar per game hour. Calls and tokens stack by template (the most used ones, the rest as
 * `other`); latency is the hour's mean over all calls, one part.
 */
export function hourBars(use: ModelUse, metric: Metric, templates = CHART_TEMPLATES): Bar[] {
	const shown = use.templates.slice(0, templates).map((t) => t.template);
	return use.hours.map((h, i) => {
		if (metric === 'latency') {
			const v = metricOf(use.total[i], 'latency');
			return { hour: i, step: h.step, time: h.time, parts: [{ template: 'all', value: v }], total: v };
		}
		const parts = shown.map((t) => ({ template: t, value: metricOf(use.byTemplate[t][i], metric) }));
		const other = metricOf(use.total[i], metric) - parts.reduce((n, p) => n + p.value, 0);
		if (use.templates.length > shown.length) parts.push({ template: 'other', value: Math.max(0, other) });
		return { hour: i, step: h.step, time: h.time, parts, total: metricOf(use.total[i], metric) };
	});
}

/** A round top for a chart's axis: 1, 2 or 5 times a power of ten, at least `max`. */
export function niceMax(max: number): number {
	if (!(max > 0)) return 1;
	const p = 10 ** Math.floor(Math.log10(max));
	for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
	return 10 * p;
}
