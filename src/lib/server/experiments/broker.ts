// One limit of model calls in flight shared by every worker process of an experiment, and the
// spreading of those calls over a list of OpenAI-compatible endpoints (an Ollama or vLLM fleet).
// The parent holds a `CallBroker`; each worker asks it for a grant before every request and gives
// it back when the answer arrives (`installFetchGate`, over the worker's IPC channel).

export interface Grant {
	id: number;
	/** index into the broker's endpoints (-1 when it has none) */
	endpoint: number;
}

/** First come, first served grants of `limit` calls in flight, each to the least busy endpoint. */
export class CallBroker {
	private inFlight = 0;
	private nextId = 1;
	private readonly perEndpoint: number[];
	private readonly waiting: { owner: string; resolve: (g: Grant) => void }[] = [];
	private readonly held = new Map<number, { owner: string; endpoint: number }>();
	/** the most calls ever in flight at once */
	peak = 0;
	granted = 0;

	constructor(
		readonly limit: number,
		readonly endpoints: readonly string[] = []
	) {
		if (!Number.isInteger(limit) || limit < 1) throw new Error(`the limit of model calls in flight is a whole number from 1, not ${limit}`);
		this.perEndpoint = endpoints.map(() => 0);
	}

	get active(): number {
		return this.inFlight;
	}

	/** calls granted so far to each endpoint, in the endpoints' order */
	readonly counts: number[] = [];

	acquire(owner: string): Promise<Grant> {
		return new Promise((resolve) => {
			this.waiting.push({ owner, resolve });
			this.pump();
		});
	}

	release(id: number): void {
		const h = this.held.get(id);
		if (!h) return;
		this.held.delete(id);
		this.inFlight--;
		if (h.endpoint >= 0) this.perEndpoint[h.endpoint]--;
		this.pump();
	}

	/** A worker went away: its grants return and its waiting requests are dropped. */
	releaseOwner(owner: string): void {
		for (const [id, h] of [...this.held]) if (h.owner === owner) this.release(id);
		for (let i = this.waiting.length - 1; i >= 0; i--) if (this.waiting[i].owner === owner) this.waiting.splice(i, 1);
	}

	private pump(): void {
		while (this.inFlight < this.limit && this.waiting.length) {
			const { owner, resolve } = this.waiting.shift()!;
			let endpoint = -1;
			for (let i = 0; i < this.perEndpoint.length; i++) if (endpoint < 0 || this.perEndpoint[i] < this.perEndpoint[endpoint]) endpoint = i;
			const id = this.nextId++;
			this.held.set(id, { owner, endpoint });
			this.inFlight++;
			this.granted++;
			this.peak = Math.max(this.peak, this.inFlight);
			if (endpoint >= 0) {
				this.perEndpoint[endpoint]++;
				this.counts[endpoint] = (this.counts[endpoint] ?? 0) + 1;
			}
			resolve({ id, endpoint });
		}
	}
}

export interface GateOptions {
	acquire(): Promise<Grant>;
	release(id: number): void;
	/** the fleet's base URLs (a grant's `endpoint` indexes them) */
	endpoints: readonly string[];
	/** base URLs of the configured endpoints: a request under one of them may go to any of the fleet */
	configured: readonly string[];
}

/** `url` moved from the configured base it starts with to `target` (unchanged when none matches). */
export function rewriteURL(url: string, configured: readonly string[], target: string | undefined): string {
	if (!target) return url;
	const bases = [...configured].map((b) => b.replace(/\/+$/, '')).sort((a, b) => b.length - a.length);
	for (const base of bases) if (url === base || url.startsWith(base + '/')) return target.replace(/\/+$/, '') + url.slice(base.length);
	return url;
}

/**
 * Wraps `fetch` so each request waits for a grant and goes to the granted endpoint. The grant is
 * given back when the response's headers arrive (an OpenAI-compatible server answers a whole
 * completion at once) or the request fails. Returns a function that restores the old `fetch`.
 */
export function installFetchGate(opts: GateOptions, target: { fetch: typeof fetch } = globalThis): () => void {
	const original = target.fetch;
	target.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
		const grant = await opts.acquire();
		try {
			const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
			const moved = rewriteURL(url, opts.configured, opts.endpoints[grant.endpoint]);
			if (moved === url) return await original(input, init);
			if (typeof input === 'string' || input instanceof URL) return await original(moved, init);
			return await original(new Request(moved, input), init);
		} finally {
			opts.release(grant.id);
		}
	}) as typeof fetch;
	return () => {
		target.fetch = original;
	};
}
