// What the header badge and `npm start` say about the model: the provider the server is
// configured with (SIMULACRA_PROVIDER; the offline stand-in by default), named plainly so the
// stand-in's answers never pass for a language model's.

import { providerFromEnv } from '$lib/server/model';
import type { ModelInfo } from '$lib/ui/model-info';

export function modelInfo(env: NodeJS.ProcessEnv = process.env): ModelInfo {
	try {
		const provider = providerFromEnv(env);
		const offline = provider.name === 'offline';
		return {
			label: provider.label,
			offline,
			detail: offline
				? 'Answers come from a deterministic offline stand-in that follows simple rules; it is not a language model.'
				: `Chat model ${provider.model}, embeddings ${provider.embedModel}.`
		};
	} catch (err) {
		return {
			label: 'model not configured',
			offline: false,
			detail: err instanceof Error ? err.message : String(err)
		};
	}
}
