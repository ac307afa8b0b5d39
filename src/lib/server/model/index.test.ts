import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModelGateway, loadPromptSet, ModelConfigError, OfflineProvider, providerFromEnv, RoutedProvider } from './index';

describe('createModelGateway', () => {
	it('uses the offline stand-in by default, without a disk cache', async () => {
		const home = mkdtempSync(path.join(tmpdir(), 'simulacra-home-'));
		try {
			const { gateway, cache } = await createModelGateway({ env: { SIMULACRA_HOME: home } });
			expect(gateway.provider).toBeInstanceOf(OfflineProvider);
			expect(cache).toBeUndefined();
			const answer = await gateway.complete({ template: 'action_emoji', vars: { activity: 'sleeping' }, key: '0/a/0' });
			expect(answer).toEqual({ value: { emoji: '😴' }, failsafe: false });
			expect(readdirSync(home)).toEqual([]);
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	});

	it('opens the cache in the data home for a real provider', async () => {
		const home = mkdtempSync(path.join(tmpdir(), 'simulacra-home-'));
		try {
			const env = { SIMULACRA_HOME: home, SIMULACRA_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
			const { gateway, cache } = await createModelGateway({ env });
			expect(gateway.provider).toBeInstanceOf(RoutedProvider);
			expect(gateway.provider.label).toBe('gpt-4o-mini (OpenAI-compatible, http://127.0.0.1:9/v1)');
			expect(cache?.dir).toBe(path.join(home, 'cache'));
			expect(readdirSync(path.join(home, 'cache')).sort()).toEqual(['answers.jsonl', 'embeddings.bin']);
			cache?.close();
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	});

	it('builds the provider from models.json in the data home', async () => {
		const home = mkdtempSync(path.join(tmpdir(), 'simulacra-home-'));
		try {
			writeFileSync(
				path.join(home, 'models.json'),
				JSON.stringify({
					endpoints: { a: { baseURL: 'http://127.0.0.1:9/v1', concurrency: 3 }, b: { baseURL: 'http://127.0.0.1:10/v1', concurrency: 4 } },
					chat: { endpoint: 'a', model: 'llama3.1' },
					embed: { endpoint: 'b', model: 'nomic-embed-text' },
					routes: { importance: { endpoint: 'b', model: 'llama3.2:3b' } }
				})
			);
			const { gateway, cache } = await createModelGateway({ env: { SIMULACRA_HOME: home, SIMULACRA_PROVIDER: 'openai' }, cacheDir: false });
			expect(cache).toBeUndefined();
			expect(gateway.provider).toMatchObject({ model: 'llama3.1', embedModel: 'nomic-embed-text', endpoint: '127.0.0.1:9', embedEndpoint: '127.0.0.1:10' });
			expect(gateway.routeOf('importance')).toEqual({ provider: 'openai', endpoint: '127.0.0.1:10', model: 'llama3.2:3b' });
			expect(gateway.routeOf('react')).toEqual({ provider: 'openai', endpoint: '127.0.0.1:9', model: 'llama3.1' });
			// a well-known embedding model's dimension stands in until the first embedding
			expect(gateway.dimensions).toBe(768);
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	});

	it('names the file and field of a bad configuration', () => {
		const home = mkdtempSync(path.join(tmpdir(), 'simulacra-home-'));
		try {
			const file = path.join(home, 'models.json');
			writeFileSync(file, JSON.stringify({ endpoints: { a: { baseURL: 'http://127.0.0.1:9/v1', structured: 'yes' } }, chat: { model: 'x' }, embed: { model: 'y' } }));
			expect(() => providerFromEnv({ SIMULACRA_PROVIDER: 'openai', SIMULACRA_MODELS: file })).toThrow(ModelConfigError);
			expect(() => providerFromEnv({ SIMULACRA_PROVIDER: 'openai', SIMULACRA_MODELS: file })).toThrow(`${file}: endpoints.a.structured: must be one of json_schema, json_object, off (got "yes")`);
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	});

	it('names a wrong provider setting', () => {
		expect(() => providerFromEnv({ SIMULACRA_PROVIDER: 'llama' })).toThrow('SIMULACRA_PROVIDER must be "offline" or "openai" (got "llama")');
	});
});

describe('loadPromptSet', () => {
	it('names the folder it cannot read and the files that are wrong', async () => {
		await expect(loadPromptSet('/nonexistent/prompts')).rejects.toThrow('cannot read the prompt folder /nonexistent/prompts: ENOENT');
		const dir = mkdtempSync(path.join(tmpdir(), 'simulacra-prompts-'));
		try {
			writeFileSync(path.join(dir, 'importance.md'), '---\nid: importance\n---\nhello');
			await expect(loadPromptSet(dir)).rejects.toThrow(/importance\.md:2: missing "description"[\s\S]*missing templates: agent_summary\.md/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
