// Setting overrides written as KEY=VALUE (e.g. `retrieval.weights.relevance=2`,
// `retrieval.k.conversation=20`), for a run or one agent (`agents.<id>.retrieval.topK=10`). A key
// must name an existing setting and keep its type; memory counts are whole numbers.

import type { AgentSettings, SimState } from './state';

export interface Override {
	/** agent id for per-agent keys, null for the run's settings */
	agent: string | null;
	path: string[];
	value: number | string | boolean;
}

export function parseOverride(text: string): Override {
	const eq = text.indexOf('=');
	if (eq <= 0) throw new Error(`setting "${text}" is not KEY=VALUE`);
	const key = text.slice(0, eq).trim();
	const raw = text.slice(eq + 1).trim();
	let parts = key.split('.');
	let agent: string | null = null;
	if (parts[0] === 'agents') {
		if (parts.length < 3) throw new Error(`setting "${key}": write agents.<id>.<setting>`);
		agent = parts[1];
		parts = parts.slice(2);
		if (parts[0] !== 'retrieval') throw new Error(`setting "${key}": per-agent settings are under retrieval.*`);
	}
	const num = Number(raw);
	const value = raw === 'true' ? true : raw === 'false' ? false : raw !== '' && Number.isFinite(num) ? num : raw;
	return { agent, path: parts, value };
}

/** Settings that count memories (`retrieval.topK`, `retrieval.k.<purpose>`, `importance.perCall`) or give a rating. */
function isWhole(path: string[]): boolean {
	return (path[0] === 'retrieval' && (path[1] === 'topK' || path[1] === 'k')) || (path[0] === 'importance' && path[1] !== 'waitMinutes');
}

function setPath(target: Record<string, unknown>, path: string[], value: Override['value'], label: string): void {
	let node: Record<string, unknown> = target;
	for (let i = 0; i < path.length - 1; i++) {
		const next = node[path[i]];
		if (typeof next !== 'object' || next === null) throw new Error(`unknown setting "${label}"`);
		node = next as Record<string, unknown>;
	}
	const last = path[path.length - 1];
	if (!(last in node) || typeof node[last] === 'object') throw new Error(`unknown setting "${label}"`);
	if (typeof node[last] !== typeof value) {
		throw new Error(`setting "${label}" takes a ${typeof node[last]}, not ${JSON.stringify(value)}`);
	}
	if (typeof value === 'number' && value < 0) throw new Error(`setting "${label}" cannot be negative`);
	if (typeof value === 'number' && isWhole(path) && !Number.isInteger(value)) {
		throw new Error(`setting "${label}" takes a whole number, not ${value}`);
	}
	if (path.join('.') === 'importance.mundane' && (value as number) > 10) {
		throw new Error(`setting "${label}" is a rating from 1 to 10 (0: none), not ${value}`);
	}
	node[last] = value;
}

/** Applies overrides to a state (run settings and agents' own); throws on unknown keys. */
export function applyOverrides(state: SimState, overrides: readonly string[]): void {
	for (const text of overrides) {
		const o = parseOverride(text);
		const label = text.slice(0, text.indexOf('='));
		if (o.agent === null) {
			setPath(state.settings as unknown as Record<string, unknown>, o.path, o.value, label);
			continue;
		}
		const agent = state.agents.find((a) => a.id === o.agent);
		if (!agent) throw new Error(`setting "${label}": unknown agent "${o.agent}"`);
		const own: AgentSettings = {
			retrieval: structuredClone({ ...state.settings.retrieval, ...agent.settings?.retrieval })
		};
		setPath(own as unknown as Record<string, unknown>, o.path, o.value, label);
		agent.settings = own;
	}
}
