import { describe, expect, it } from 'vitest';
import { modelInfo } from './model-info.server';

describe('modelInfo', () => {
	it('names the offline stand-in as not a language model by default', () => {
		expect(modelInfo({})).toMatchObject({ label: 'offline stand-in, not a language model', offline: true });
	});

	it('describes a configured OpenAI-compatible endpoint', () => {
		const info = modelInfo({ SIMULACRA_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
		expect(info.offline).toBe(false);
		expect(info.label).toContain('OpenAI-compatible');
	});

	it('reports a broken configuration instead of failing the page', () => {
		const info = modelInfo({ SIMULACRA_PROVIDER: 'nonsense' });
		expect(info).toMatchObject({ label: 'model not configured', offline: false });
		expect(info.detail).toContain('SIMULACRA_PROVIDER');
	});
});
