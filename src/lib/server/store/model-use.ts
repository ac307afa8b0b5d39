// A run's model use over time: the lineage's calls per game hour and per template (calls,
// tokens, latency), from the calls logs. The debugger charts it in the model-calls tab.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelUse, ModelUseBucket } from '../../api/model-use';
import { dataHome } from '../paths';
import { openRun, runLineage } from './store';

const HOUR = 3_600_000;

function empty(): ModelUseBucket {
	return { calls: 0, prompt: 0, completion: 0, latencyMs: 0, maxLatencyMs: 0, failsafes: 0, cacheHits: 0 };
}

function worldClock(dir: string): { start: number; secondsPerStep: number } {
	try {
		const w = JSON.parse(readFileSync(path.join(dir, 'world', 'world.json'), 'utf8')) as { start?: unknown; secondsPerStep?: unknown };
		const start = typeof w.start === 'string' ? Date.parse(`${w.start}Z`) : NaN;
		const sps = typeof w.secondsPerStep === 'number' && w.secondsPerStep > 0 ? w.secondsPerStep : 10;
		return { start: Number.isFinite(start) ? start : 0, secondsPerStep: sps };
	} catch {
		return { start: 0, secondsPerStep: 10 };
	}
}

function percentile(sorted: readonly number[], p: number): number {
	if (sorted.length === 0) return 0;
	return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

export function modelUse(id: string, opts: { home?: string } = {}): ModelUse {
	const home = opts.home ?? dataHome();
	const spans = runLineage(id, { home });
	const root = openRun(spans[0]?.run ?? id, home);
	const { start, secondsPerStep } = worldClock(root.dir);
	const first = spans[0]?.from ?? 0;
	const steps = spans.at(-1)?.to ?? first;
	const stepMs = secondsPerStep * 1000;
	const hourOf = (s: number) => Math.floor((start + Math.max(s, first) * stepMs) / HOUR);
	const h0 = hourOf(first);
	const count = Math.max(1, hourOf(Math.max(first, steps - 1)) - h0 + 1);
	const hours = Array.from({ length: count }, (_, i) => {
		const time = (h0 + i) * HOUR;
		return { step: Math.max(first, Math.ceil((time - start) / stepMs)), time: Math.max(time, start + first * stepMs) };
	});
	const total = hours.map(empty);
	const byTemplate: Record<string, ModelUseBucket[]> = {};
	const latencies = new Map<string, number[]>();
	for (const span of spans) {
		const reader = openRun(span.run, home);
		for (const c of reader.calls()) {
			// an ancestor's calls count up to the fork step; a run's own, all of them
			if (span.run !== id && c.s >= span.to) continue;
			const i = Math.min(count - 1, Math.max(0, hourOf(c.s) - h0));
			const series = (byTemplate[c.template] ??= hours.map(empty));
			for (const b of [total[i], series[i]]) {
				b.calls++;
				b.prompt += c.tokens.prompt;
				b.completion += c.tokens.completion;
				b.latencyMs += c.latencyMs;
				b.maxLatencyMs = Math.max(b.maxLatencyMs, c.latencyMs);
				if (c.failsafe) b.failsafes++;
				if (c.cacheHit) b.cacheHits++;
			}
			let l = latencies.get(c.template);
			if (!l) latencies.set(c.template, (l = []));
			l.push(c.latencyMs);
		}
	}
	const templates = Object.entries(byTemplate)
		.map(([template, series]) => {
			const sum = series.reduce((a, b) => ({ calls: a.calls + b.calls, prompt: a.prompt + b.prompt, completion: a.completion + b.completion, latencyMs: a.latencyMs + b.latencyMs }), { calls: 0, prompt: 0, completion: 0, latencyMs: 0 });
			const sorted = (latencies.get(template) ?? []).sort((a, b) => a - b);
			return { template, ...sum, p50LatencyMs: percentile(sorted, 0.5), p95LatencyMs: percentile(sorted, 0.95) };
		})
		.sort((a, b) => b.calls - a.calls || (a.template < b.template ? -1 : 1));
	return { run: id, steps, secondsPerStep, hours, total, templates, byTemplate };
}
