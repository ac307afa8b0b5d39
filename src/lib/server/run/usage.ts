// A run's usage (tokens and dollars per agent, template and model) read from its calls log:
// only each line's head (up to the prompt, ../journal/call-line.ts) is decoded, which holds the
// tokens in runs written since they were put there; older lines are parsed whole.

import type { Price } from '../../api/types';
import { LogIndex } from '../journal/log';
import { CALL_HEAD, parseCallHead, parseCallLine, type CallHead } from '../journal/call-line';
import type { RunMeta } from '../journal/journal';
import { modelAtStep, UsageCounter, type CostedCall } from './cost';

/** An index of a run's calls log whose summaries are the lines' heads. */
export function callIndex(runDir: string): LogIndex<CallHead> {
	return new LogIndex(runDir, 'calls', parseCallHead, CALL_HEAD);
}

/** The price function of a run: the prices run.json records, else `fallback`. */
export function runPrices(meta: RunMeta, fallback: (model: string) => Price | null = () => null): (provider: string, model: string) => Price | null {
	return (_provider, model) => meta.prices?.[model] ?? fallback(model);
}

/** A usage counter for `meta`'s run. */
export function usageCounter(meta: RunMeta, fallback?: (model: string) => Price | null): UsageCounter {
	return new UsageCounter(runPrices(meta, fallback), modelAtStep({ provider: meta.model.provider, model: meta.model.model }, meta.modelChanges));
}

/** Adds lines [from, index.count) of a refreshed index to `counter`; returns index.count. */
export function countCalls(index: LogIndex<CallHead>, counter: UsageCounter, from = 0): number {
	for (let i = from; i < index.count; i++) {
		const head = index.summaries[i];
		const call: CostedCall = head.tokens ? (head as CostedCall) : parseCallLine(index.line(i));
		counter.add(call);
	}
	return index.count;
}

/** The usage of the calls in a run's journal (its own calls, not a fork's parent's). */
export function journalUsage(runDir: string, meta: RunMeta, fallback?: (model: string) => Price | null): UsageCounter {
	const counter = usageCounter(meta, fallback);
	countCalls(callIndex(runDir).refresh(), counter);
	return counter;
}
