import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModelGateway, loadPromptSet, OfflineProvider, OpenAIProvider, providerFromEnv } from './index';

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
			expect(gateway.provider).toBeInstanceOf(OpenAIProvider);
			expect(cache?.dir).toBe(path.join(home, 'cache'));
			expect(readdirSync(path.join(home, 'cache')).sort()).toEqual(['answers.jsonl', 'embeddings.bin']);
			cache?.close();
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
