// A local OpenAI-compatible test server that samples, as a model at a temperature above 0 does:
// every chat request gets a NEW random answer valid against the JSON Schema in its
// `response_format`, so the same prompt asked twice gets two answers. Each answer comes after a
// latency drawn per request, so answers arrive in another order than they were asked for.
// Everything is seeded: the same seed and the same requests in the same order give the same
// answers, latencies and faults. Embeddings do not sample: the same text always gets the same
// unit vector (as from the schema server).
//
// Optionally some chat requests are answered with the faults of real endpoints and proxies: a
// proxy's HTML page with HTTP 200, a body of megabytes, a body that drips for ever, an empty
// body with HTTP 200, or HTTP 503.

import { hash32, mulberry32 } from '../../../engine/rng';
import { startFakeOpenAI, type FakeDrip, type FakeReply } from './fake-openai';
import { randomJson } from './random-json';
import {
	completion,
	embeddingsHandler,
	noSchemaReply,
	requestSchema,
	requestSeed,
	withCounts,
	type SchemaServer,
	type SchemaServerOptions,
	type ServerCounts
} from './schema-server';

export const SAMPLING_FAULTS = ['html', 'huge', 'drip', 'empty', '503'] as const;
/**
 * `html`: a proxy's error page with HTTP 200; `huge`: a chat completion of `hugeBytes`;
 * `drip`: a completion dripped a few bytes a second, then spaces for ever; `empty`: HTTP 200
 * with no body; `503`: an overloaded server.
 */
export type SamplingFault = (typeof SAMPLING_FAULTS)[number];

export interface SamplingFaults {
	/** the fraction of chat requests answered with a fault, drawn per request */
	rate?: number;
	/** chat requests (numbered from 0 in order of arrival) answered with a fault: a list, or the fault for each */
	at?: number[] | Record<number, SamplingFault>;
	/** the fault for a request (numbered from 0), decided when it arrives: an outage a test switches on and off */
	when?: (n: number) => SamplingFault | undefined;
	/** the faults to pick from, per faulty request (default all) */
	kinds?: readonly SamplingFault[];
	/** size of a `huge` body (default 5 MB) */
	hugeBytes?: number;
	/** how a `drip` drips (default 10 bytes a second, for ever) */
	drip?: FakeDrip;
}

export interface SamplingServerOptions extends SchemaServerOptions {
	/** latency of each answer in ms, drawn per request between the two (inclusive; default [0, 0]) */
	latencyMs?: [number, number];
	faults?: SamplingFaults;
}

export interface SamplingCounts extends ServerCounts {
	/** chat requests answered with a fault */
	faults: number;
	faultsByKind: Record<SamplingFault, number>;
}

export interface SamplingServer extends SchemaServer {
	counts: SamplingCounts;
	/** the latency drawn for each chat request, in order of arrival */
	latencies: number[];
	/** the fault sent to each chat request (undefined: a good answer), in order of arrival */
	faultsSent: (SamplingFault | undefined)[];
}

/** A proxy's error page. */
export const PROXY_PAGE =
	'<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n';

export async function startSamplingServer(opts: SamplingServerOptions = {}): Promise<SamplingServer> {
	const seed = opts.seed ?? 1;
	const dims = opts.dims ?? 64;
	const [minLatency, maxLatency] = opts.latencyMs ?? [0, 0];
	if (!(minLatency >= 0 && maxLatency >= minLatency)) throw new Error(`latencyMs must be [min, max] with 0 <= min <= max (got [${minLatency}, ${maxLatency}])`);
	const faults = opts.faults ?? {};
	const kinds = faults.kinds ?? SAMPLING_FAULTS;
	if (kinds.length === 0) throw new Error('faults.kinds must name at least one fault');
	const planned: Map<number, SamplingFault | undefined> = Array.isArray(faults.at)
		? new Map(faults.at.map((n) => [n, undefined]))
		: new Map(Object.entries(faults.at ?? {}).map(([n, kind]) => [Number(n), kind]));
	// One generator for the draws made per request in order of arrival: latency, fault, fault kind.
	const rand = mulberry32(hash32('sampling-server', hash32(String(seed))));
	const counts: SamplingCounts = {
		chat: 0,
		embeddings: 0,
		withoutSchema: 0,
		wrapped: 0,
		faults: 0,
		faultsByKind: Object.fromEntries(SAMPLING_FAULTS.map((k) => [k, 0])) as Record<SamplingFault, number>
	};
	const latencies: number[] = [];
	const faultsSent: (SamplingFault | undefined)[] = [];

	const faultReply = (kind: SamplingFault, good: () => unknown): FakeReply => {
		switch (kind) {
			case 'html':
				return { status: 200, contentType: 'text/html; charset=utf-8', raw: PROXY_PAGE };
			case 'huge':
				return { hugeBytes: faults.hugeBytes ?? 5_000_000 };
			case 'drip':
				return { json: good(), drip: faults.drip ?? { bytesPerSecond: 10, forever: true } };
			case 'empty':
				return { status: 200, raw: '' };
			case '503':
				return { status: 503, json: { error: { message: 'the server is overloaded (sampling server fault)', type: 'server_error' } } };
		}
	};

	const server = await startFakeOpenAI({
		chat: (req, n) => {
			counts.chat++;
			const latency = minLatency + Math.floor(rand() * (maxLatency - minLatency + 1));
			const drawn = rand() < (faults.rate ?? 0);
			const pick = kinds[Math.floor(rand() * kinds.length)];
			latencies.push(latency);
			const sent = requestSchema(req.body);
			if (!sent) counts.withoutSchema++;
			const schema = sent ?? opts.schemaFor?.(req);
			// A new draw per request: the request and its number seed it.
			const good = () => completion(req, JSON.stringify(randomJson(schema!, hash32(String(n), requestSeed(req.body, seed)))));
			const fault = faults.when?.(n) ?? (planned.has(n) ? (planned.get(n) ?? pick) : drawn ? pick : undefined);
			faultsSent.push(fault);
			let reply: FakeReply;
			if (fault) {
				counts.faults++;
				counts.faultsByKind[fault]++;
				reply = faultReply(fault, () => (schema ? good() : {}));
			} else reply = schema ? { json: good() } : noSchemaReply();
			return latency > 0 ? { ...reply, delayMs: latency } : reply;
		},
		embeddings: embeddingsHandler(seed, dims, counts),
		dims
	});
	return Object.assign(withCounts(server, counts, opts.keepRequests ?? true), { counts, latencies, faultsSent });
}
