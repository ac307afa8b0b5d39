// Which language models answer, where they run and what they cost. Read from a JSON file named by
// SIMULACRA_MODELS (or `models.json` in the data home); without one, the classic environment
// variables (OPENAI_BASE_URL, OPENAI_API_KEY, SIMULACRA_CHAT_MODEL, ...) describe one endpoint.
//
//   {
//     "endpoints": {
//       "local":  { "baseURL": "http://127.0.0.1:11434/v1", "concurrency": 2 },
//       "openai": { "baseURL": "https://api.openai.com/v1", "apiKeyEnv": "OPENAI_API_KEY" }
//     },
//     "chat":   { "endpoint": "openai", "model": "gpt-4o" },
//     "embed":  { "endpoint": "local", "model": "nomic-embed-text" },
//     "routes": { "importance": { "endpoint": "local", "model": "llama3.2:3b" } },
//     "prices": { "gpt-4o": { "input": 2.5, "output": 10 } }
//   }
//
// The configuration never holds a key: an endpoint names the environment variable its key is in
// (`apiKeyEnv`), and the key is read only when the provider is built.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TEMPLATE_IDS, type TemplateId } from '../../engine/model';
import { dataHome } from '../paths';
import { isRecord } from '../../shared/guards';
import { UnavailableError } from '../errors';

export const STRUCTURED_MODES = ['json_schema', 'json_object', 'off'] as const;
/**
 * How an endpoint is asked for JSON: `json_schema` sends each call's schema (strict structured
 * outputs), `json_object` asks for any JSON object, `off` asks for nothing (the answer is still
 * extracted and checked).
 */
export type StructuredMode = (typeof STRUCTURED_MODES)[number];

export interface EndpointConfig {
	/** e.g. http://127.0.0.1:11434/v1 */
	baseURL: string;
	/** the environment variable that holds this endpoint's key */
	apiKeyEnv?: string;
	structured: StructuredMode;
	/** requests in flight at once */
	concurrency: number;
	/** deadline in ms for the whole exchange of one attempt (headers and body) */
	timeoutMs?: number;
	/** retries after the first attempt for 429, 5xx, timeouts, connection errors and answers that are not completions */
	maxRetries?: number;
	/** largest chat response body in bytes (the provider's default is 256 KiB) */
	maxAnswerBytes?: number;
	/** max_tokens sent with a chat request whose template's sampling sets none (the provider's default is 1024) */
	maxTokens?: number;
}

export interface ModelRef {
	/** a key of `endpoints` */
	endpoint: string;
	model: string;
}

/** US dollars per million tokens. */
export interface ModelPrice {
	input: number;
	output: number;
}

export interface ModelConfig {
	/** where it was read from: a file path, or "environment" */
	source: string;
	endpoints: Record<string, EndpointConfig>;
	chat: ModelRef;
	/** `dimensions` unset: learned from the first embedding */
	embed: ModelRef & { dimensions?: number };
	/** templates answered by another model than `chat` */
	routes: Partial<Record<TemplateId, ModelRef>>;
	prices: Record<string, ModelPrice>;
}

export const DEFAULT_CHAT_MODEL = 'gpt-4o-mini';
export const DEFAULT_EMBED_MODEL = 'text-embedding-3-small';
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_CONCURRENCY = 8;

/** A configuration that cannot be used; the message names the file (or variable) and the field. */
export class ModelConfigError extends UnavailableError {
	constructor(message: string) {
		super(message);
		this.name = 'ModelConfigError';
	}
}

/** Host and port of a base URL, without credentials, path or query ("api.openai.com", "127.0.0.1:11434"). */
export function endpointHost(baseURL: string): string {
	try {
		return new URL(baseURL).host || '(invalid URL)';
	} catch {
		return '(invalid URL)';
	}
}

/** A base URL without credentials or query, fit for labels and messages. */
export function safeURL(url: string): string {
	try {
		const u = new URL(url);
		u.username = '';
		u.password = '';
		u.search = '';
		u.hash = '';
		return u.toString().replace(/\/$/, '');
	} catch {
		return '(invalid URL)';
	}
}

function checkURL(raw: unknown, where: string): string {
	if (typeof raw !== 'string' || !raw.trim()) throw new ModelConfigError(`${where}: must be the endpoint's URL, e.g. "http://127.0.0.1:11434/v1"`);
	let u: URL;
	try {
		u = new URL(raw.trim());
	} catch {
		throw new ModelConfigError(`${where}: not a URL (expected e.g. "http://127.0.0.1:11434/v1")`);
	}
	if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ModelConfigError(`${where}: must start with http:// or https:// (got ${u.protocol})`);
	return raw.trim();
}

// ---------------------------------------------------------------------------
// from the environment

function envNumber(env: NodeJS.ProcessEnv, name: string, check: (n: number) => boolean, what: string): number | undefined {
	const raw = env[name]?.trim();
	if (!raw) return undefined;
	const n = Number(raw);
	if (!Number.isFinite(n) || !check(n)) throw new ModelConfigError(`${name} must be ${what} (got "${raw}")`);
	return n;
}

const positiveInt = (n: number) => Number.isInteger(n) && n > 0;

function structuredFromEnv(env: NodeJS.ProcessEnv): StructuredMode {
	const raw = env.SIMULACRA_STRUCTURED?.trim().toLowerCase();
	if (raw) {
		if (!(STRUCTURED_MODES as readonly string[]).includes(raw)) {
			throw new ModelConfigError(`SIMULACRA_STRUCTURED must be one of ${STRUCTURED_MODES.join(', ')} (got "${raw}")`);
		}
		return raw as StructuredMode;
	}
	// The older switch: on = any JSON object, off = nothing asked.
	const json = env.SIMULACRA_JSON_MODE?.trim().toLowerCase();
	if (json) return ['1', 'true', 'yes', 'on'].includes(json) ? 'json_object' : 'off';
	return 'json_schema';
}

/**
 * One endpoint from OPENAI_BASE_URL (default OpenAI) with its key in OPENAI_API_KEY, models
 * from SIMULACRA_CHAT_MODEL, SIMULACRA_EMBED_MODEL and SIMULACRA_EMBED_DIMENSIONS, limits from
 * SIMULACRA_MODEL_CONCURRENCY, SIMULACRA_MODEL_TIMEOUT_MS, SIMULACRA_MODEL_MAX_RETRIES,
 * SIMULACRA_MODEL_MAX_ANSWER_BYTES, SIMULACRA_MODEL_MAX_TOKENS, and SIMULACRA_STRUCTURED (or the
 * older SIMULACRA_JSON_MODE).
 */
export function modelConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ModelConfig {
	const base = env.OPENAI_BASE_URL?.trim();
	const endpoint: EndpointConfig = {
		baseURL: base ? checkURL(base, 'OPENAI_BASE_URL') : OPENAI_BASE_URL,
		apiKeyEnv: 'OPENAI_API_KEY',
		structured: structuredFromEnv(env),
		concurrency: envNumber(env, 'SIMULACRA_MODEL_CONCURRENCY', positiveInt, 'a positive integer') ?? DEFAULT_CONCURRENCY
	};
	const timeoutMs = envNumber(env, 'SIMULACRA_MODEL_TIMEOUT_MS', positiveInt, 'a positive number of milliseconds');
	const maxRetries = envNumber(env, 'SIMULACRA_MODEL_MAX_RETRIES', (n) => Number.isInteger(n) && n >= 0, 'a whole number');
	if (timeoutMs !== undefined) endpoint.timeoutMs = timeoutMs;
	if (maxRetries !== undefined) endpoint.maxRetries = maxRetries;
	const maxAnswerBytes = envNumber(env, 'SIMULACRA_MODEL_MAX_ANSWER_BYTES', positiveInt, 'a positive number of bytes');
	const maxTokens = envNumber(env, 'SIMULACRA_MODEL_MAX_TOKENS', positiveInt, 'a positive integer');
	if (maxAnswerBytes !== undefined) endpoint.maxAnswerBytes = maxAnswerBytes;
	if (maxTokens !== undefined) endpoint.maxTokens = maxTokens;
	const dimensions = envNumber(env, 'SIMULACRA_EMBED_DIMENSIONS', positiveInt, 'a positive integer');
	return {
		source: 'environment',
		endpoints: { default: endpoint },
		chat: { endpoint: 'default', model: env.SIMULACRA_CHAT_MODEL?.trim() || DEFAULT_CHAT_MODEL },
		embed: { endpoint: 'default', model: env.SIMULACRA_EMBED_MODEL?.trim() || DEFAULT_EMBED_MODEL, ...(dimensions !== undefined && { dimensions }) },
		routes: {},
		prices: {}
	};
}

// ---------------------------------------------------------------------------
// from a file

const TOP_FIELDS = ['endpoints', 'chat', 'embed', 'routes', 'prices'];
const ENDPOINT_FIELDS = ['baseURL', 'apiKeyEnv', 'structured', 'concurrency', 'timeoutMs', 'maxRetries', 'maxAnswerBytes', 'maxTokens'];

function unknownFields(obj: Record<string, unknown>, allowed: string[], where: string, file: string): void {
	for (const key of Object.keys(obj)) {
		if (/^(api_?key|key|token|secret|password)$/i.test(key)) {
			throw new ModelConfigError(
				`${file}: ${where}${key}: keys are not read from this file; put the key in an environment variable and name that variable in "apiKeyEnv"`
			);
		}
		if (!allowed.includes(key)) throw new ModelConfigError(`${file}: ${where}${key}: unknown field (expected ${allowed.join(', ')})`);
	}
}

function parseEndpoint(raw: unknown, name: string, file: string): EndpointConfig {
	const where = `endpoints.${name}`;
	if (!isRecord(raw)) throw new ModelConfigError(`${file}: ${where}: must be an object with a "baseURL"`);
	unknownFields(raw, ENDPOINT_FIELDS, `${where}.`, file);
	const out: EndpointConfig = {
		baseURL: checkURL(raw.baseURL, `${file}: ${where}.baseURL`),
		structured: 'json_schema',
		concurrency: DEFAULT_CONCURRENCY
	};
	if (raw.apiKeyEnv !== undefined) {
		if (typeof raw.apiKeyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw.apiKeyEnv)) {
			throw new ModelConfigError(`${file}: ${where}.apiKeyEnv: must be the name of an environment variable, e.g. "OPENAI_API_KEY"`);
		}
		out.apiKeyEnv = raw.apiKeyEnv;
	}
	if (raw.structured !== undefined) {
		if (typeof raw.structured !== 'string' || !(STRUCTURED_MODES as readonly string[]).includes(raw.structured)) {
			throw new ModelConfigError(`${file}: ${where}.structured: must be one of ${STRUCTURED_MODES.join(', ')} (got ${JSON.stringify(raw.structured)})`);
		}
		out.structured = raw.structured as StructuredMode;
	}
	const ints: [keyof EndpointConfig & ('concurrency' | 'timeoutMs' | 'maxRetries' | 'maxAnswerBytes' | 'maxTokens'), number][] = [
		['concurrency', 1],
		['timeoutMs', 1],
		['maxRetries', 0],
		['maxAnswerBytes', 1],
		['maxTokens', 1]
	];
	for (const [field, min] of ints) {
		const v = raw[field];
		if (v === undefined) continue;
		if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
			throw new ModelConfigError(`${file}: ${where}.${field}: must be a whole number of at least ${min} (got ${JSON.stringify(v)})`);
		}
		out[field] = v;
	}
	return out;
}

function parseRef(raw: unknown, where: string, file: string, endpoints: Record<string, EndpointConfig>, fallback: string | undefined, extra: string[] = []): ModelRef & Record<string, unknown> {
	const names = Object.keys(endpoints);
	if (!isRecord(raw)) throw new ModelConfigError(`${file}: ${where}: must be an object with "endpoint" and "model"`);
	unknownFields(raw, ['endpoint', 'model', ...extra], `${where}.`, file);
	let endpoint = raw.endpoint;
	if (endpoint === undefined) {
		if (fallback === undefined) {
			throw new ModelConfigError(`${file}: ${where}.endpoint: missing; name one of the endpoints (${names.join(', ')})`);
		}
		endpoint = fallback;
	}
	if (typeof endpoint !== 'string' || !(endpoint in endpoints)) {
		throw new ModelConfigError(`${file}: ${where}.endpoint: ${JSON.stringify(endpoint)} is not one of the endpoints (${names.join(', ')})`);
	}
	if (typeof raw.model !== 'string' || !raw.model.trim()) throw new ModelConfigError(`${file}: ${where}.model: must be the model's name`);
	return { ...raw, endpoint, model: raw.model.trim() };
}

/** Checks a parsed configuration file; every error names `file` and the field. */
export function parseModelConfig(raw: unknown, file: string): ModelConfig {
	if (!isRecord(raw)) throw new ModelConfigError(`${file}: must be a JSON object with "endpoints", "chat" and "embed"`);
	unknownFields(raw, TOP_FIELDS, '', file);
	if (!isRecord(raw.endpoints) || Object.keys(raw.endpoints).length === 0) {
		throw new ModelConfigError(`${file}: endpoints: must name at least one endpoint, e.g. {"local": {"baseURL": "http://127.0.0.1:11434/v1"}}`);
	}
	const endpoints: Record<string, EndpointConfig> = {};
	for (const [name, ep] of Object.entries(raw.endpoints)) {
		if (!/^[\w.-]+$/.test(name)) throw new ModelConfigError(`${file}: endpoints.${name}: an endpoint name is letters, digits, ".", "_" or "-"`);
		endpoints[name] = parseEndpoint(ep, name, file);
	}
	const only = Object.keys(endpoints).length === 1 ? Object.keys(endpoints)[0] : undefined;
	if (raw.chat === undefined) throw new ModelConfigError(`${file}: chat: missing; e.g. {"endpoint": "${only ?? Object.keys(endpoints)[0]}", "model": "llama3.1"}`);
	const chatRef = parseRef(raw.chat, 'chat', file, endpoints, only);
	const chat: ModelRef = { endpoint: chatRef.endpoint, model: chatRef.model };
	if (raw.embed === undefined) throw new ModelConfigError(`${file}: embed: missing; e.g. {"endpoint": "${chat.endpoint}", "model": "nomic-embed-text"}`);
	const embedRef = parseRef(raw.embed, 'embed', file, endpoints, only, ['dimensions']);
	const embed: ModelConfig['embed'] = { endpoint: embedRef.endpoint, model: embedRef.model };
	if (embedRef.dimensions !== undefined) {
		const d = embedRef.dimensions;
		if (typeof d !== 'number' || !Number.isInteger(d) || d <= 0) {
			throw new ModelConfigError(`${file}: embed.dimensions: must be a positive whole number, or left out to learn it from the first embedding`);
		}
		embed.dimensions = d;
	}
	const routes: ModelConfig['routes'] = {};
	if (raw.routes !== undefined) {
		if (!isRecord(raw.routes)) throw new ModelConfigError(`${file}: routes: must map template ids to {"endpoint", "model"}`);
		for (const [template, ref] of Object.entries(raw.routes)) {
			if (!(TEMPLATE_IDS as readonly string[]).includes(template)) {
				throw new ModelConfigError(`${file}: routes.${template}: not a template id (templates: ${TEMPLATE_IDS.join(', ')})`);
			}
			const r = parseRef(ref, `routes.${template}`, file, endpoints, chat.endpoint);
			routes[template as TemplateId] = { endpoint: r.endpoint, model: r.model };
		}
	}
	const prices: Record<string, ModelPrice> = {};
	if (raw.prices !== undefined) {
		if (!isRecord(raw.prices)) throw new ModelConfigError(`${file}: prices: must map model names to {"input", "output"} (US dollars per million tokens)`);
		for (const [model, price] of Object.entries(raw.prices)) {
			const where = `prices.${model}`;
			if (!isRecord(price)) throw new ModelConfigError(`${file}: ${where}: must be {"input": <dollars>, "output": <dollars>} per million tokens`);
			unknownFields(price, ['input', 'output'], `${where}.`, file);
			for (const side of ['input', 'output'] as const) {
				const v = price[side];
				if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
					throw new ModelConfigError(`${file}: ${where}.${side}: must be a number of US dollars per million tokens (got ${JSON.stringify(v)})`);
				}
			}
			prices[model] = { input: price.input as number, output: price.output as number };
		}
	}
	return { source: file, endpoints, chat, embed, routes, prices };
}

/** Where the configuration file is: SIMULACRA_MODELS, else `<data home>/models.json` when it exists. */
export function modelConfigFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
	const named = env.SIMULACRA_MODELS?.trim();
	if (named) return path.resolve(named);
	const home = path.join(dataHome(env), 'models.json');
	return existsSync(home) ? home : undefined;
}

/** Line and column of a character offset, for JSON syntax errors. */
function lineColumn(text: string, offset: number): string {
	const before = text.slice(0, offset);
	const line = before.split('\n').length;
	return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/** The model configuration: from the file (see `modelConfigFile`), else from the environment. */
export function loadModelConfig(env: NodeJS.ProcessEnv = process.env): ModelConfig {
	const file = modelConfigFile(env);
	if (!file) return modelConfigFromEnv(env);
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (e) {
		const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
		throw new ModelConfigError(`cannot read the model configuration ${file}: ${code}`);
	}
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch (e) {
		// The parser's message may quote the file; only the position is kept.
		const at = /position (\d+)/.exec((e as Error).message);
		throw new ModelConfigError(`${file}: not valid JSON${at ? ` (at ${lineColumn(text, Number(at[1]))})` : ''}`);
	}
	return parseModelConfig(raw, file);
}

/** The price of `model` (US dollars per million input / output tokens), when the configuration has one. */
export function priceFor(config: ModelConfig, model: string): ModelPrice | undefined {
	return Object.hasOwn(config.prices, model) ? config.prices[model] : undefined;
}

/** The endpoint and model that answer `template`: its route, else the chat model. */
export function routeFor(config: ModelConfig, template: string): ModelRef {
	return (config.routes as Record<string, ModelRef | undefined>)[template] ?? config.chat;
}

/**
 * The key for endpoint `name`, read from the variable its `apiKeyEnv` names. An endpoint with
 * no `apiKeyEnv` sends no key, except OpenAI itself, which gets OPENAI_API_KEY.
 */
export function apiKeyFor(config: ModelConfig, name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
	const ep = config.endpoints[name];
	const variable = ep.apiKeyEnv ?? (endpointHost(ep.baseURL) === 'api.openai.com' ? 'OPENAI_API_KEY' : undefined);
	if (!variable) return undefined;
	const key = env[variable]?.trim();
	if (key) return key;
	if (config.source === 'environment') {
		if (endpointHost(ep.baseURL) === 'api.openai.com') {
			throw new ModelConfigError('the openai provider needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server that needs no key)');
		}
		return undefined;
	}
	if (ep.apiKeyEnv) throw new ModelConfigError(`${config.source}: endpoints.${name}.apiKeyEnv: the environment variable ${variable} is not set`);
	throw new ModelConfigError(`${config.source}: endpoints.${name}: OpenAI needs a key: set OPENAI_API_KEY, or name the variable that holds it in "apiKeyEnv"`);
}
