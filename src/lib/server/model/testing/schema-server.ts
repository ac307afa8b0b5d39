// A local OpenAI-compatible test server (node:http on 127.0.0.1, a free port) that answers
// every chat request with random JSON valid against the JSON Schema in that request's
// `response_format` (structured outputs), and embeddings with random unit vectors. Answers are
// random but seeded: the same seed and the same request give the same answer, whatever the
// order in which requests arrive. Usage tokens are reported as a real server does.

import { hash32 } from '../../../engine/rng';
import { chatCompletion, embeddingsResponse, startFakeOpenAI, type FakeOpenAI, type FakeRequest } from './fake-openai';
import { randomJson, randomUnitVector, type JsonSchema } from './random-json';
import { isRecord } from '../../../shared/guards';

export interface SchemaServerOptions {
	/** default 1 */
	seed?: number;
	/** embedding size (default 64) */
	dims?: number;
	/** the schema to answer when a request carries none (default: answer 400, as a strict server would) */
	schemaFor?: (req: FakeRequest) => JsonSchema | undefined;
	/** keep every request for inspection (default true; long runs turn it off to bound memory) */
	keepRequests?: boolean;
}

export interface ServerCounts {
	chat: number;
	embeddings: number;
	/** chat requests that carried no JSON Schema */
	withoutSchema: number;
	/** chat answers whose text was wrapped or bent (prose server) */
	wrapped: number;
}

export interface SchemaServer extends FakeOpenAI {
	counts: ServerCounts;
}

interface ChatBody {
	model?: string;
	messages?: { role: string; content: string }[];
	response_format?: { type?: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } };
}

/** The JSON Schema a chat request asks its answer to follow, when it sends one. */
export function requestSchema(body: unknown): JsonSchema | undefined {
	const rf = (body as ChatBody | undefined)?.response_format;
	if (rf?.type !== 'json_schema') return undefined;
	const schema = rf.json_schema?.schema;
	return isRecord(schema) ? (schema as JsonSchema) : undefined;
}

/** A stable number for a request (its messages and format) under a seed. */
export function requestSeed(body: unknown, seed: number): number {
	const b = body as ChatBody | undefined;
	return hash32(JSON.stringify([b?.messages ?? [], b?.response_format ?? null]), hash32(String(seed)));
}

/** Rough token counts (4 characters a token), like a server's `usage`. */
export function usageFor(body: unknown, content: string): { prompt_tokens: number; completion_tokens: number } {
	const messages = (body as ChatBody | undefined)?.messages ?? [];
	const chars = messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : 0), 0);
	return { prompt_tokens: Math.max(1, Math.ceil(chars / 4)), completion_tokens: Math.max(1, Math.ceil(content.length / 4)) };
}

/** Random unit vectors, one per input text, the same for the same text and seed. */
export function embeddingsHandler(seed: number, dims: number, counts: ServerCounts) {
	return (req: FakeRequest) => {
		counts.embeddings++;
		const input = (req.body as { input?: string[] | string } | undefined)?.input;
		const texts = Array.isArray(input) ? input : typeof input === 'string' ? [input] : [];
		return { json: embeddingsResponse(texts.map((t) => Array.from(randomUnitVector(t, dims, seed)))) };
	};
}

/** What a strict server says to a chat request without a JSON Schema. */
export function noSchemaReply() {
	return {
		status: 400,
		json: {
			error: {
				message: 'this test server answers only requests with response_format {type: "json_schema", json_schema: {schema}}',
				type: 'invalid_request_error'
			}
		}
	};
}

export async function startSchemaServer(opts: SchemaServerOptions = {}): Promise<SchemaServer> {
	const seed = opts.seed ?? 1;
	const dims = opts.dims ?? 64;
	const counts: ServerCounts = { chat: 0, embeddings: 0, withoutSchema: 0, wrapped: 0 };
	const server = await startFakeOpenAI({
		chat: (req) => {
			counts.chat++;
			const sent = requestSchema(req.body);
			if (!sent) counts.withoutSchema++;
			const schema = sent ?? opts.schemaFor?.(req);
			if (!schema) return noSchemaReply();
			const content = JSON.stringify(randomJson(schema, requestSeed(req.body, seed)));
			return { json: completion(req, content) };
		},
		embeddings: embeddingsHandler(seed, dims, counts),
		dims
	});
	return withCounts(server, counts, opts.keepRequests ?? true);
}

/** A chat completion for `content`, naming the requested model and counting tokens. */
export function completion(req: FakeRequest, content: string): unknown {
	const model = (req.body as ChatBody | undefined)?.model ?? 'test-model';
	return { ...(chatCompletion(content, usageFor(req.body, content)) as object), model };
}

/** Adds the counts; without `keep`, requests are not kept (a long run would hold every prompt). */
export function withCounts(server: FakeOpenAI, counts: ServerCounts, keep: boolean): SchemaServer {
	if (!keep) {
		const requests = server.requests;
		requests.push = () => requests.length;
	}
	return Object.assign(server, { counts });
}
