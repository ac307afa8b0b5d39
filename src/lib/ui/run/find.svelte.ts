// UI state of the debugger's search box and changes pane, beside the run's state: the query and
// its results, what a followed link points at (`mark`), and the changes of the settled step.

import { createContext } from 'svelte';
import type { SearchAnswer, SearchResult } from '$lib/api/search';
import type { StepChange, StepChanges } from '$lib/api/changes';
import type { RunState } from './run-state.svelte';
import { changeTarget, resultTarget, type Target } from './find';

export class FindState {
	query = $state('');
	/** '' for every kind, or memory, call, conversation, a memory kind */
	kind = $state('');
	/** only the selected agent's results */
	agentOnly = $state(false);
	answer = $state.raw<SearchAnswer | null>(null);
	searching = $state(false);
	error = $state<string | null>(null);
	/** the results list is shown */
	open = $state(false);
	/** what the panel opened by a link points at: a memory id, a call key, a conversation id */
	mark = $state<string | null>(null);

	/** the changes pane beside the inspector */
	changesOpen = $state(false);
	changes = $state.raw<StepChanges | null>(null);
	changesLoading = $state(false);
	changesError = $state<string | null>(null);

	private searchAbort: AbortController | null = null;
	private changesAbort: AbortController | null = null;
	// A plain cache of committed steps (their changes never change): nothing renders from it directly.
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	private changesCache = new Map<number, StepChanges>();

	constructor(private readonly run: RunState) {}

	async search(): Promise<void> {
		const q = this.query.trim();
		this.searchAbort?.abort();
		if (!q) {
			this.answer = null;
			this.error = null;
			return;
		}
		const abort = new AbortController();
		this.searchAbort = abort;
		this.searching = true;
		this.open = true;
		try {
			const agent = this.agentOnly && this.run.selectedAgent ? this.run.selectedAgent : undefined;
			const a = await this.run.api.search(this.run.id, q, { agent, kind: this.kind || undefined, limit: 40 }, abort.signal);
			if (abort.signal.aborted) return;
			this.answer = a;
			this.error = null;
		} catch (err) {
			if (abort.signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
			this.error = err instanceof Error ? err.message : String(err);
		} finally {
			if (this.searchAbort === abort) this.searching = false;
		}
	}

	/** Goes where a link leads: the step, the agent, the panel, and marks the thing in it. */
	go(t: Target): void {
		this.run.seek(t.step);
		if (t.agent && this.run.info.agents.some((a) => a.id === t.agent)) this.run.focusAgent(t.agent);
		this.run.openTab(t.tab);
		this.mark = t.mark;
	}

	openResult(r: SearchResult): void {
		this.open = false;
		this.go(resultTarget(r));
	}

	openChange(c: StepChange): void {
		const t = changeTarget(c, this.changes?.step ?? this.run.settledStep);
		if (t) this.go(t);
	}

	/** Loads the changes of the settled step while the pane is open (cached); stale answers are dropped. */
	async loadChanges(): Promise<void> {
		const step = this.run.settledStep;
		this.changesAbort?.abort();
		if (!this.changesOpen) return;
		const cached = this.changesCache.get(step);
		if (cached) {
			this.changes = cached;
			this.changesError = null;
			return;
		}
		const abort = new AbortController();
		this.changesAbort = abort;
		this.changesLoading = true;
		try {
			const c = await this.run.api.changes(this.run.id, step, abort.signal);
			this.changesCache.set(step, c);
			if (this.changesCache.size > 32) this.changesCache.delete(this.changesCache.keys().next().value as number);
			if (abort.signal.aborted) return;
			this.changes = c;
			this.changesError = null;
		} catch (err) {
			if (abort.signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
			this.changesError = err instanceof Error ? err.message : String(err);
		} finally {
			if (this.changesAbort === abort) this.changesLoading = false;
		}
	}

	dispose(): void {
		this.searchAbort?.abort();
		this.changesAbort?.abort();
	}
}

export const [getFindState, setFindState, hasFindState] = createContext<FindState>();

/** The debugger's find state, or null outside a debugger (a panel shown on its own). */
export function findState(): FindState | null {
	return hasFindState() ? getFindState() : null;
}
