import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyFor, endpointHost, loadModelConfig, modelConfigFromEnv, ModelConfigError, priceFor, routeFor, type ModelConfig } from './config';

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(path.join(tmpdir(), 'simulacra-models-'));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

function write(value: unknown, name = 'models.json'): string {
	const file = path.join(dir, name);
	writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
	return file;
}

const SECRET = 'sk-live-0123456789abcdefSECRET';

const example = {
	endpoints: {
		local: { baseURL: 'http://127.0.0.1:11434/v1', structured: 'json_object', concurrency: 2 },
		openai: { baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'MY_OPENAI_KEY', timeoutMs: 30000, maxRetries: 1 }
	},
	chat: { endpoint: 'openai', model: 'gpt-4o' },
	embed: { endpoint: 'local', model: 'nomic-embed-text' },
	routes: { importance: { endpoint: 'local', model: 'llama3.2:3b' }, action_emoji: { model: 'gpt-4o-mini' } },
	prices: { 'gpt-4o': { input: 2.5, output: 10 }, 'gpt-4o-mini': { input: 0.15, output: 0.6 } }
};

describe('loadModelConfig from a file', () => {
	it('reads endpoints, models, routes and prices, with defaults', () => {
		const file = write(example);
		const c = loadModelConfig({ SIMULACRA_MODELS: file });
		expect(c).toEqual({
			source: file,
			endpoints: {
				local: { baseURL: 'http://127.0.0.1:11434/v1', structured: 'json_object', concurrency: 2 },
				openai: { baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'MY_OPENAI_KEY', structured: 'json_schema', concurrency: 8, timeoutMs: 30000, maxRetries: 1 }
			},
			chat: { endpoint: 'openai', model: 'gpt-4o' },
			embed: { endpoint: 'local', model: 'nomic-embed-text' },
			routes: { importance: { endpoint: 'local', model: 'llama3.2:3b' }, action_emoji: { endpoint: 'openai', model: 'gpt-4o-mini' } },
			prices: { 'gpt-4o': { input: 2.5, output: 10 }, 'gpt-4o-mini': { input: 0.15, output: 0.6 } }
		} satisfies ModelConfig);
		expect(routeFor(c, 'importance')).toEqual({ endpoint: 'local', model: 'llama3.2:3b' });
		expect(routeFor(c, 'daily_plan')).toEqual({ endpoint: 'openai', model: 'gpt-4o' });
		expect(priceFor(c, 'gpt-4o-mini')).toEqual({ input: 0.15, output: 0.6 });
		expect(priceFor(c, 'llama3.2:3b')).toBeUndefined();
		expect(priceFor(c, 'constructor')).toBeUndefined();
	});

	it('reads the answer size limit and the default max_tokens of an endpoint', () => {
		const c = loadModelConfig({ SIMULACRA_MODELS: write({ ...example, endpoints: { ...example.endpoints, local: { baseURL: 'http://127.0.0.1:11434/v1', maxAnswerBytes: 65536, maxTokens: 400 } } }) });
		expect(c.endpoints.local).toEqual({ baseURL: 'http://127.0.0.1:11434/v1', structured: 'json_schema', concurrency: 8, maxAnswerBytes: 65536, maxTokens: 400 });
		expect(c.endpoints.openai).not.toHaveProperty('maxAnswerBytes');
		expect(c.endpoints.openai).not.toHaveProperty('maxTokens');
	});

	it('lets a single endpoint go unnamed', () => {
		const c = loadModelConfig({ SIMULACRA_MODELS: write({ endpoints: { ollama: { baseURL: 'http://127.0.0.1:11434/v1' } }, chat: { model: 'llama3.1' }, embed: { model: 'nomic-embed-text', dimensions: 768 } }) });
		expect(c.chat).toEqual({ endpoint: 'ollama', model: 'llama3.1' });
		expect(c.embed).toEqual({ endpoint: 'ollama', model: 'nomic-embed-text', dimensions: 768 });
	});

	it('finds models.json in the data home, and prefers SIMULACRA_MODELS', () => {
		const home = path.join(dir, 'home');
		mkdirSync(home);
		writeFileSync(path.join(home, 'models.json'), JSON.stringify(example));
		expect(loadModelConfig({ SIMULACRA_HOME: home }).chat.model).toBe('gpt-4o');
		const other = write({ ...example, chat: { endpoint: 'local', model: 'qwen2.5:7b' } }, 'other.json');
		expect(loadModelConfig({ SIMULACRA_HOME: home, SIMULACRA_MODELS: other }).chat.model).toBe('qwen2.5:7b');
		expect(loadModelConfig({ SIMULACRA_HOME: path.join(dir, 'empty') }).source).toBe('environment');
	});

	const bad: [string, unknown, RegExp][] = [
		['an unknown field', { ...example, chat: { ...example.chat, temperature: 0 } }, /: chat\.temperature: unknown field \(expected endpoint, model\)$/],
		['a bad structured setting', { ...example, endpoints: { ...example.endpoints, local: { baseURL: 'http://x/v1', structured: 'grammar' } } }, /: endpoints\.local\.structured: must be one of json_schema, json_object, off \(got "grammar"\)$/],
		['a base URL without a scheme', { ...example, endpoints: { ...example.endpoints, local: { baseURL: '127.0.0.1:11434' } } }, /: endpoints\.local\.baseURL: /],
		['a route for no template', { ...example, routes: { importanse: { model: 'x' } } }, /: routes\.importanse: not a template id \(templates: importance, agent_summary/],
		['a route to no endpoint', { ...example, routes: { importance: { endpoint: 'gpu', model: 'x' } } }, /: routes\.importance\.endpoint: "gpu" is not one of the endpoints \(local, openai\)$/],
		['two endpoints and chat names none', { ...example, chat: { model: 'x' } }, /: chat\.endpoint: missing; name one of the endpoints \(local, openai\)$/],
		['no embedding model', { ...example, embed: undefined }, /: embed: missing/],
		['a bad dimension', { ...example, embed: { ...example.embed, dimensions: 0 } }, /: embed\.dimensions: must be a positive whole number, or left out/],
		['a bad price', { ...example, prices: { 'gpt-4o': { input: '2.5', output: 10 } } }, /: prices\.gpt-4o\.input: must be a number of US dollars per million tokens \(got "2\.5"\)$/],
		['a bad concurrency', { ...example, endpoints: { ...example.endpoints, local: { baseURL: 'http://x/v1', concurrency: 0 } } }, /: endpoints\.local\.concurrency: must be a whole number of at least 1 \(got 0\)$/],
		['a bad answer size limit', { ...example, endpoints: { ...example.endpoints, local: { baseURL: 'http://x/v1', maxAnswerBytes: '256k' } } }, /: endpoints\.local\.maxAnswerBytes: must be a whole number of at least 1 \(got "256k"\)$/],
		['a bad max_tokens', { ...example, endpoints: { ...example.endpoints, local: { baseURL: 'http://x/v1', maxTokens: 0.5 } } }, /: endpoints\.local\.maxTokens: must be a whole number of at least 1 \(got 0\.5\)$/],
		['an unknown endpoint field', { ...example, endpoints: { ...example.endpoints, local: { baseURL: 'http://x/v1', max_tokens: 10 } } }, /: endpoints\.local\.max_tokens: unknown field \(expected baseURL, apiKeyEnv, structured, concurrency, timeoutMs, maxRetries, maxAnswerBytes, maxTokens\)$/],
		['no endpoints', { chat: { model: 'x' } }, /: endpoints: must name at least one endpoint/]
	];
	for (const [what, value, message] of bad) {
		it(`names the file and the field for ${what}`, () => {
			const file = write(value);
			const err = (() => {
				try {
					loadModelConfig({ SIMULACRA_MODELS: file });
				} catch (e) {
					return e as Error;
				}
			})();
			expect(err).toBeInstanceOf(ModelConfigError);
			expect(err!.message.startsWith(`${file}: `)).toBe(true);
			expect(err!.message).toMatch(message);
		});
	}

	it('refuses a key written in the file, without repeating it', () => {
		const file = write({ ...example, endpoints: { ...example.endpoints, openai: { baseURL: 'https://api.openai.com/v1', apiKey: SECRET } } });
		expect(() => loadModelConfig({ SIMULACRA_MODELS: file })).toThrow(`${file}: endpoints.openai.apiKey: keys are not read from this file; put the key in an environment variable and name that variable in "apiKeyEnv"`);
		try {
			loadModelConfig({ SIMULACRA_MODELS: file });
		} catch (e) {
			expect(String(e)).not.toContain(SECRET);
		}
	});

	it('reports a missing file and bad JSON by name and place, without quoting the file', () => {
		const missing = path.join(dir, 'nope.json');
		expect(() => loadModelConfig({ SIMULACRA_MODELS: missing })).toThrow(`cannot read the model configuration ${missing}: ENOENT`);
		const file = write(`{\n  "endpoints": {\n    "a": {"baseURL": "http://x/v1", "key": "${SECRET}",}\n  }\n}`);
		const err = (() => {
			try {
				loadModelConfig({ SIMULACRA_MODELS: file });
			} catch (e) {
				return e as Error;
			}
		})();
		expect(err!.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not valid JSON`));
		expect(err!.message).not.toContain(SECRET);
	});
});

describe('modelConfigFromEnv', () => {
	it('keeps the classic variables working as one endpoint', () => {
		expect(modelConfigFromEnv({})).toEqual({
			source: 'environment',
			endpoints: { default: { baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY', structured: 'json_schema', concurrency: 8 } },
			chat: { endpoint: 'default', model: 'gpt-4o-mini' },
			embed: { endpoint: 'default', model: 'text-embedding-3-small' },
			routes: {},
			prices: {}
		});
		const c = modelConfigFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', SIMULACRA_CHAT_MODEL: 'llama3.1', SIMULACRA_EMBED_DIMENSIONS: '768', SIMULACRA_STRUCTURED: 'off' });
		expect(c.endpoints.default).toMatchObject({ baseURL: 'http://127.0.0.1:11434/v1', structured: 'off' });
		expect(c.embed.dimensions).toBe(768);
		expect(loadModelConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', SIMULACRA_HOME: dir }).endpoints.default.baseURL).toBe('http://127.0.0.1:11434/v1');
	});

	it('reads the answer size limit and the default max_tokens, and names a bad one', () => {
		expect(modelConfigFromEnv({ SIMULACRA_MODEL_MAX_ANSWER_BYTES: '65536', SIMULACRA_MODEL_MAX_TOKENS: '400' }).endpoints.default).toMatchObject({ maxAnswerBytes: 65536, maxTokens: 400 });
		expect(() => modelConfigFromEnv({ SIMULACRA_MODEL_MAX_ANSWER_BYTES: '256KiB' })).toThrow('SIMULACRA_MODEL_MAX_ANSWER_BYTES must be a positive number of bytes (got "256KiB")');
		expect(() => modelConfigFromEnv({ SIMULACRA_MODEL_MAX_TOKENS: '0' })).toThrow('SIMULACRA_MODEL_MAX_TOKENS must be a positive integer (got "0")');
	});
});

describe('apiKeyFor', () => {
	it('reads the variable an endpoint names, and OPENAI_API_KEY for OpenAI itself only', () => {
		const c = loadModelConfig({ SIMULACRA_MODELS: write(example) });
		expect(apiKeyFor(c, 'openai', { MY_OPENAI_KEY: SECRET })).toBe(SECRET);
		expect(apiKeyFor(c, 'local', { OPENAI_API_KEY: SECRET })).toBeUndefined();
		const plain = loadModelConfig({ SIMULACRA_MODELS: write({ ...example, endpoints: { ...example.endpoints, openai: { baseURL: 'https://api.openai.com/v1' } } }) });
		expect(apiKeyFor(plain, 'openai', { OPENAI_API_KEY: SECRET })).toBe(SECRET);
	});

	it('names the file, the field and the variable when the key is missing', () => {
		const file = write(example);
		const c = loadModelConfig({ SIMULACRA_MODELS: file });
		expect(() => apiKeyFor(c, 'openai', {})).toThrow(`${file}: endpoints.openai.apiKeyEnv: the environment variable MY_OPENAI_KEY is not set`);
		expect(() => apiKeyFor(modelConfigFromEnv({}), 'default', {})).toThrow(/needs OPENAI_API_KEY \(or OPENAI_BASE_URL for a local server/);
		expect(apiKeyFor(modelConfigFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }), 'default', {})).toBeUndefined();
	});
});

describe('endpointHost', () => {
	it('keeps host and port only', () => {
		expect(endpointHost(`http://user:${SECRET}@127.0.0.1:11434/v1?key=${SECRET}`)).toBe('127.0.0.1:11434');
		expect(endpointHost('https://api.openai.com/v1')).toBe('api.openai.com');
		expect(endpointHost('nonsense')).toBe('(invalid URL)');
	});
});
