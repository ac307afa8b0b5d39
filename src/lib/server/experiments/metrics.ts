// Metrics of one run, computed from what the run logged. A metric is one entry of `METRICS`:
// an id, a label, a description and a function from the run's journal to a number (or to several
// numbers named `<id>.<part>`, such as the fail-safe rate per template).

import type { RunReader } from '../journal/journal';
import type { StepLine } from '../journal/commit-line';
import { evaluateRun } from '../eval/metrics';
import type { RunSummary } from '../run/runner';
import { openRun } from '../run/runner';
import type { MetricInfo } from '../../api/experiments';

export interface MetricContext {
	run: string;
	home: string;
	reader: RunReader;
	steps: StepLine[];
	summary: Pick<RunSummary, 'usage'> | null;
	/** agent ids of the run */
	agents: string[];
	/** the run's evaluation at its last step (interviews), computed once on first use */
	evaluation(): ReturnType<typeof evaluateRun>;
}

export interface MetricDef extends MetricInfo {
	compute(ctx: MetricContext): number | Record<string, number> | Promise<number | Record<string, number>>;
}

function perAgent(n: number, ctx: MetricContext): number {
	return ctx.agents.length ? n / ctx.agents.length : 0;
}

/** How many of a retrieval's first memories the overlap compares (all of a small stream would always overlap fully). */
export const OVERLAP_DEPTH = 3;

function jaccard(a: readonly string[], b: readonly string[]): number {
	const sa = new Set(a);
	const sb = new Set(b);
	let common = 0;
	for (const x of sa) if (sb.has(x)) common++;
	const union = sa.size + sb.size - common;
	return union ? common / union : 1;
}

export const METRICS: readonly MetricDef[] = [
	{
		id: 'conversations',
		label: 'conversations per agent',
		description: 'conversations held (each counted for both partners) divided by the number of agents',
		compute: (ctx) => perAgent(2 * ctx.steps.reduce((n, s) => n + s.conversations.length, 0), ctx)
	},
	{
		id: 'places',
		label: 'distinct places per agent',
		description: 'mean number of distinct places (sector:arena) each agent stood in',
		compute: (ctx) => {
			const seen = new Map<string, Set<string>>();
			for (const s of ctx.steps)
				for (const a of s.agents) {
					const place = a.address.split(':').slice(0, 3).join(':');
					(seen.get(a.id) ?? seen.set(a.id, new Set()).get(a.id)!).add(place);
				}
			return perAgent([...seen.values()].reduce((n, s) => n + s.size, 0), ctx);
		}
	},
	{
		id: 'plan_adherence',
		label: 'at the planned place',
		description: "share of agent-steps spent at the place of the agent's current planned action rather than on the way",
		compute: (ctx) => {
			let at = 0;
			let all = 0;
			for (const s of ctx.steps)
				for (const a of s.agents) {
					all++;
					if (!a.path.length) at++;
				}
			return all ? at / all : 0;
		}
	},
	{
		id: 'reactions',
		label: 'reactions per agent',
		description: 'decisions to react to an agent or object (re-planning the day), per agent',
		compute: (ctx) => perAgent(ctx.steps.reduce((n, s) => n + s.events.filter((e) => e.kind === 'reaction').length, 0), ctx)
	},
	{
		id: 'reflections',
		label: 'reflections per agent',
		description: 'reflections made, per agent',
		compute: (ctx) => perAgent(ctx.steps.reduce((n, s) => n + s.events.filter((e) => e.kind === 'reflection').length, 0), ctx)
	},
	{
		id: 'retrieval_overlap',
		label: 'retrieval overlap',
		description: `mean Jaccard overlap of the first ${OVERLAP_DEPTH} memories of an agent's consecutive retrievals for the same purpose (how much retrieval repeats itself)`,
		compute: (ctx) => {
			const last = new Map<string, string[]>();
			let sum = 0;
			let n = 0;
			for (const t of ctx.reader.traces()) {
				const key = `${t.agent}\n${t.purpose}`;
				const prev = last.get(key);
				if (prev) {
					sum += jaccard(prev, t.selected.slice(0, OVERLAP_DEPTH));
					n++;
				}
				last.set(key, t.selected.slice(0, OVERLAP_DEPTH));
			}
			return n ? sum / n : 0;
		}
	},
	{
		id: 'failsafe',
		label: 'fail-safe rate',
		description: 'share of model calls answered by the fail-safe, overall and per template (failsafe.<template>)',
		compute: (ctx) => {
			const by = new Map<string, { n: number; f: number }>();
			let n = 0;
			let f = 0;
			for (const c of ctx.reader.calls()) {
				if (!c.template) continue;
				const row = by.get(c.template) ?? by.set(c.template, { n: 0, f: 0 }).get(c.template)!;
				row.n++;
				n++;
				if (c.failsafe) {
					row.f++;
					f++;
				}
			}
			const out: Record<string, number> = { '': n ? f / n : 0 };
			for (const [t, row] of [...by].sort(([a], [b]) => (a < b ? -1 : 1))) out[t] = row.f / row.n;
			return out;
		}
	},
	{
		id: 'tokens',
		label: 'tokens',
		description: "tokens of the run's own model calls (prompt + completion)",
		compute: (ctx) => (ctx.summary ? ctx.summary.usage.prompt + ctx.summary.usage.completion : ctx.reader.calls().reduce((n, c) => n + (c.tokens?.prompt ?? 0) + (c.tokens?.completion ?? 0), 0))
	},
	{
		id: 'cost',
		label: 'cost (US$)',
		description: "dollars of the run's own model calls at the configured prices (0 offline)",
		compute: (ctx) => ctx.summary?.usage.usd ?? ctx.reader.meta.usage?.usd ?? 0
	},
	{
		id: 'diffusion',
		label: 'information diffusion',
		description: "share of agents who know each tracked fact at the run's last step (interviews checked against memories), averaged over the facts",
		compute: async (ctx) => {
			const r = await ctx.evaluation();
			return r.diffusion.length ? r.diffusion.reduce((n, d) => n + d.end.share, 0) / r.diffusion.length : 0;
		}
	},
	{
		id: 'density',
		label: 'relationship density',
		description: 'network density at the last step: an edge when both agents say they know each other',
		compute: async (ctx) => (await ctx.evaluation()).relationships.end.density
	},
	{
		id: 'attendance',
		label: 'event attendance',
		description: 'agents (hosts excluded) at the scenario events during their windows, summed over events',
		compute: async (ctx) => (await ctx.evaluation()).events.reduce((n, e) => n + e.counts.attended, 0)
	}
];

export const METRIC_IDS: readonly string[] = METRICS.map((m) => m.id);

export function metricInfo(id: string): MetricInfo {
	const [family, ...rest] = id.split('.');
	const def = METRICS.find((m) => m.id === family);
	if (!def) return { id, label: id, description: '' };
	if (!rest.length) return { id, label: def.label, description: def.description };
	return { id, label: `${def.label}: ${rest.join('.')}`, description: def.description };
}

/** Every chosen metric (default: all) of a finished run, as `id` or `id.part` → value. */
export async function computeMetrics(run: string, opts: { home: string; summary?: Pick<RunSummary, 'usage'> | null; metrics?: readonly string[] }): Promise<Record<string, number>> {
	const reader = openRun(run, opts.home);
	const steps = reader.steps();
	const agents = steps.length ? steps[steps.length - 1].agents.map((a) => a.id) : [];
	let evaluation: ReturnType<typeof evaluateRun> | undefined;
	const ctx: MetricContext = {
		run,
		home: opts.home,
		reader,
		steps,
		summary: opts.summary ?? null,
		agents,
		evaluation: () => (evaluation ??= evaluateRun(run, { home: opts.home, maxIntervals: 1 }))
	};
	const out: Record<string, number> = {};
	for (const m of METRICS) {
		if (opts.metrics && !opts.metrics.includes(m.id)) continue;
		const v = await m.compute(ctx);
		if (typeof v === 'number') out[m.id] = v;
		else for (const [part, x] of Object.entries(v)) out[part ? `${m.id}.${part}` : m.id] = x;
	}
	return out;
}
