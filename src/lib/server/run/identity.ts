// A run's model identity (provider, endpoint hosts, chat and embedding models, the embedding
// dimension, per-template routes) and the rules for changing it on resume or fork: a change is
// refused unless asked for, and then recorded; an embedding dimension other than the run's
// stored memories is refused always (vectors of different sizes cannot be compared).

import type { ModelChange, ModelIdentity } from '../../api/types';
import type { RunMeta } from '../journal/journal';
import type { ModelConfig } from '../model/config';
import { ConflictError } from '../errors';

/** The host of an endpoint URL (no scheme, credentials, path or query); '' for none. */
export function endpointHost(url: string | undefined): string {
	if (!url) return '';
	try {
		return new URL(url).host;
	} catch {
		return '(invalid URL)';
	}
}

/** The identity of a model configuration (`dimensions`: the embedding size, when learned rather than configured). */
export function identityFromConfig(config: ModelConfig, dimensions?: number): ModelIdentity {
	const host = (name: string) => endpointHost(config.endpoints[name]?.baseURL);
	const routes: Record<string, { endpoint: string; model: string }> = {};
	for (const [template, ref] of Object.entries(config.routes)) if (ref) routes[template] = { endpoint: host(ref.endpoint), model: ref.model };
	return {
		provider: 'openai',
		chat: { endpoint: host(config.chat.endpoint), model: config.chat.model },
		embed: { endpoint: host(config.embed.endpoint), model: config.embed.model, dimensions: config.embed.dimensions ?? dimensions ?? 0 },
		...(Object.keys(routes).length > 0 && { routes })
	};
}

/** Canonical text of an identity: equal texts, same models. */
export function identityKey(id: ModelIdentity): string {
	const routes = Object.entries(id.routes ?? {})
		.filter(([, r]) => r.endpoint !== id.chat.endpoint || r.model !== id.chat.model)
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return JSON.stringify([id.provider, id.chat.endpoint, id.chat.model, id.embed.endpoint, id.embed.model, id.embed.dimensions, routes]);
}

export function sameIdentity(a: ModelIdentity, b: ModelIdentity): boolean {
	return identityKey(a) === identityKey(b);
}

/** "openai: chat gpt-4o-mini at api.openai.com, embeddings text-embedding-3-small (1536) at api.openai.com" */
export function describeIdentity(id: ModelIdentity): string {
	const at = (host: string) => (host ? ` at ${host}` : '');
	const routes = Object.entries(id.routes ?? {})
		.filter(([, r]) => r.endpoint !== id.chat.endpoint || r.model !== id.chat.model)
		.map(([t, r]) => `${t} -> ${r.model}${at(r.endpoint)}`);
	return (
		`${id.provider}: chat ${id.chat.model}${at(id.chat.endpoint)}, embeddings ${id.embed.model} (${id.embed.dimensions})${at(id.embed.endpoint)}` +
		(routes.length ? `; routes ${routes.join(', ')}` : '')
	);
}

/** The identity run.json records, or (runs made before it was recorded) what its model fields say. */
export function runIdentity(meta: RunMeta): ModelIdentity {
	if (meta.identity) return meta.identity;
	return {
		provider: meta.model.provider,
		chat: { endpoint: '', model: meta.model.model },
		embed: { endpoint: '', model: '', dimensions: meta.dimensions }
	};
}

/** Compares what a run recorded with the identity now configured; only the fields it recorded. */
function differs(recorded: ModelIdentity, now: ModelIdentity, partial: boolean): boolean {
	if (!partial) return !sameIdentity(recorded, now);
	return recorded.provider !== now.provider || recorded.chat.model !== now.chat.model || recorded.embed.dimensions !== now.embed.dimensions;
}

/** A resume or fork under another model than the run recorded, refused (`conflict`). */
export class ModelChangeError extends ConflictError {
	constructor(
		message: string,
		/** true when no flag can allow it (the embedding dimension differs) */
		readonly hard: boolean
	) {
		super(message);
		this.name = 'ModelChangeError';
	}
}

/**
 * The model change (if any) of continuing `meta`'s run, or forking it, under `now` at `step`.
 * Throws ModelChangeError when the identity differs and `allow` is not set, and always when the
 * embedding dimension differs from the run's stored memories.
 */
export function checkModelChange(meta: RunMeta, now: ModelIdentity, step: number, allow: boolean, what: 'resume' | 'fork'): ModelChange | null {
	const recorded = runIdentity(meta);
	if (!differs(recorded, now, !meta.identity)) return null;
	if (now.embed.dimensions !== meta.dimensions) {
		throw new ModelChangeError(
			`cannot ${what} run ${meta.id} with ${now.embed.model || now.provider} embeddings: they have ${now.embed.dimensions} dimensions and the run's memories ` +
				`have ${meta.dimensions} (vectors of different sizes cannot be compared). The run was made with ${describeIdentity(recorded)}.`,
			true
		);
	}
	if (!allow) {
		const flag = what === 'resume' ? '--allow-model-change (or the "allow model change" box)' : '--allow-model-change (or the fork dialog\'s "allow model change" box)';
		throw new ModelChangeError(
			`run ${meta.id} was made with ${describeIdentity(recorded)}, but the model configured now is ${describeIdentity(now)}. ` +
				`Use the same model configuration, or pass ${flag} to ${what} under the new model; the change is then recorded in the run.`,
			false
		);
	}
	return { step, from: recorded, to: now };
}
