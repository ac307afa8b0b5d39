// Reading an experiment definition (a JSON file): every problem names the file, the field and why.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { PROFILE_NAMES, profileOverrides } from '../../engine/profiles';
import { applyOverrides, parseOverride } from '../../engine/settings';
import type { SimState } from '../../engine/state';
import { DEFAULT_SETTINGS, type Settings } from '../../engine/types';
import { METRIC_IDS } from './metrics';
import type { ArmDef, ExperimentDef, Job, ModelName } from '../../api/experiments';
import { isRecord } from '../../shared/guards';
import { InvalidError } from '../errors';

/** A definition refused (`invalid`): every problem, each naming its field. */
export class ExperimentDefError extends InvalidError {
	constructor(
		readonly file: string,
		readonly reasons: string[]
	) {
		super(`${file}: ${reasons.length === 1 ? reasons[0] : reasons.map((p) => `\n  ${p}`).join('')}`, { issues: reasons.map((message) => ({ message })) });
		this.name = 'ExperimentDefError';
	}
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/;
export const WORLD_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const KNOWN = new Set(['name', 'world', 'steps', 'hours', 'minutes', 'replicates', 'seed', 'seeds', 'base', 'model', 'profile', 'arms', 'metrics', 'workers', 'concurrency', 'endpoints']);
const ARM_KNOWN = new Set(['name', 'profile', 'set', 'prompts', 'model']);
export const MAX_REPLICATES = 1000;
export const MAX_STEPS = 1_000_000;

/**
 * What an arm's settings are checked against: the settings its runs start from (the world's, or
 * the base run's) and the agents a per-agent key (`agents.<id>.retrieval...`) may name.
 */
export interface SettingsTarget {
	settings: Settings;
	agents: string[];
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
	const row = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		let diag = row[0];
		row[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const up = row[j];
			row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diag + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
			diag = up;
		}
	}
	return row[b.length];
}

/** The closest of `known` to `word`, when it is close enough to be a slip. */
export function closest(word: string, known: Iterable<string>): string | undefined {
	let best: { k: string; d: number } | undefined;
	for (const k of known) {
		const d = distance(word, k);
		if (!best || d < best.d) best = { k, d };
	}
	return best && best.d > 0 && best.d <= Math.max(2, Math.floor(word.length / 5)) ? best.k : undefined;
}

/** Every settable key of a settings object, dotted ("retrieval.weights.relevance"). */
function settingKeys(node: unknown, prefix = ''): string[] {
	if (typeof node !== 'object' || node === null) return prefix ? [prefix] : [];
	return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => settingKeys(v, prefix ? `${prefix}.${k}` : k));
}

/**
 * Checks one `KEY=VALUE` the way a run applies it (`applyOverrides`, on a copy of the settings it
 * starts from): the key must name a setting (or an agent's retrieval setting) and the value fit
 * it. Answers the problem, with the close name when there is one, or undefined.
 */
export function checkSetting(text: string, target: SettingsTarget): string | undefined {
	const settings: Settings = structuredClone(target.settings);
	settings.retrieval.k = { ...DEFAULT_SETTINGS.retrieval.k, ...settings.retrieval.k };
	const state = { settings, agents: target.agents.map((id) => ({ id })) } as unknown as SimState;
	try {
		applyOverrides(state, [text]);
		return undefined;
	} catch (e) {
		const message = (e as Error).message;
		const o = parseOverride(text);
		let hint: string | undefined;
		if (/unknown agent/.test(message) && o.agent !== null) {
			const id = closest(o.agent, target.agents);
			if (id) hint = `agents.${id}.${o.path.join('.')}`;
		} else if (/unknown setting/.test(message)) {
			const keys = o.agent === null ? settingKeys(settings) : settingKeys(settings.retrieval, 'retrieval');
			const key = closest(o.path.join('.'), keys);
			if (key) hint = o.agent === null ? key : `agents.${o.agent}.${key}`;
		}
		return hint ? `${message} (did you mean "${hint}"?)` : message;
	}
}

function wholeNumber(v: unknown, where: string, min: number, max: number, problems: string[]): number | undefined {
	if (v === undefined) return undefined;
	if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
		problems.push(`${where}: a whole number from ${min} to ${max}, not ${JSON.stringify(v)}`);
		return undefined;
	}
	return v;
}

function modelName(v: unknown, where: string, problems: string[]): ModelName | undefined {
	if (v === undefined) return undefined;
	if (v !== 'offline' && v !== 'openai') {
		problems.push(`${where}: "offline" or "openai", not ${JSON.stringify(v)}`);
		return undefined;
	}
	return v;
}

/**
 * Checks a parsed definition. The span is `steps`, or game `hours` / `minutes` turned into steps
 * with `secondsPerStep` (the world's step length, needed only then). With `target` (the settings
 * the runs start from), every arm's settings are checked as its runs will apply them, names and
 * values, so a bad one is named before anything runs.
 */
export function parseExperiment(raw: unknown, file: string, secondsPerStep?: (world: string | undefined) => number, target?: SettingsTarget): ExperimentDef {
	const problems: string[] = [];
	if (!isRecord(raw)) throw new ExperimentDefError(file, ['an experiment is a JSON object']);
	for (const k of Object.keys(raw)) if (!KNOWN.has(k)) problems.push(`"${k}": unknown field (known: ${[...KNOWN].join(', ')})`);
	const name = raw.name === undefined ? undefined : typeof raw.name === 'string' && NAME.test(raw.name) ? raw.name : (problems.push(`name: letters, digits, space, _ . -, up to 64, not ${JSON.stringify(raw.name)}`), undefined);
	let world: string | undefined;
	if (raw.world !== undefined) {
		if (typeof raw.world !== 'string' || !WORLD_ID.test(raw.world)) problems.push(`world: a world id such as "the-ville-3", not ${JSON.stringify(raw.world)}`);
		else world = raw.world;
	}
	let base: ExperimentDef['base'];
	if (raw.base !== undefined) {
		if (!isRecord(raw.base) || typeof raw.base.run !== 'string' || !raw.base.run) problems.push('base: {"run": RUN_ID, "step": N}');
		else {
			const step = wholeNumber(raw.base.step, 'base.step', 0, MAX_STEPS, problems);
			if (raw.base.step === undefined) problems.push('base.step: the step every run forks from is missing');
			if (step !== undefined) base = { run: raw.base.run, step };
		}
	}
	if (!world && !base) problems.push('world: missing (or give "base" to fork every run from a recorded run)');
	const spans = ['steps', 'hours', 'minutes'].filter((k) => raw[k] !== undefined);
	let steps: number | undefined;
	if (spans.length !== 1) problems.push(spans.length ? `give one span, not ${spans.join(' and ')}` : 'steps: missing (or "hours" / "minutes" of game time)');
	else if (spans[0] === 'steps') steps = wholeNumber(raw.steps, 'steps', 1, MAX_STEPS, problems);
	else {
		const amount = raw[spans[0]];
		if (typeof amount !== 'number' || !(amount > 0)) problems.push(`${spans[0]}: a positive number of game ${spans[0]}, not ${JSON.stringify(amount)}`);
		else if (secondsPerStep) {
			const seconds = amount * (spans[0] === 'hours' ? 3600 : 60);
			steps = Math.max(1, Math.round(seconds / secondsPerStep(world)));
			if (steps > MAX_STEPS) problems.push(`${spans[0]}: at most ${MAX_STEPS} steps`);
		} else problems.push(`${spans[0]}: game time needs the world's step length; give "steps"`);
	}
	const replicates = wholeNumber(raw.replicates, 'replicates', 1, MAX_REPLICATES, problems);
	if (raw.replicates === undefined) problems.push('replicates: missing (runs per arm)');
	const seed = wholeNumber(raw.seed, 'seed', 0, 2 ** 31 - 1, problems) ?? 1;
	const seeds = raw.seeds === undefined ? 'shared' : raw.seeds === 'shared' || raw.seeds === 'distinct' ? raw.seeds : (problems.push(`seeds: "shared" or "distinct", not ${JSON.stringify(raw.seeds)}`), 'shared' as const);
	const model = modelName(raw.model, 'model', problems) ?? 'offline';
	const arms: ArmDef[] = [];
	if (!Array.isArray(raw.arms) || raw.arms.length < 1) problems.push('arms: a list of at least one arm, [{"name": ..., "set": [...], "prompts": ...}]');
	else {
		const seen = new Set<string>();
		raw.arms.forEach((a, i) => {
			const where = `arms[${i}]`;
			if (!isRecord(a)) return void problems.push(`${where}: an object with "name"`);
			for (const k of Object.keys(a)) if (!ARM_KNOWN.has(k)) problems.push(`${where}.${k}: unknown field (known: ${[...ARM_KNOWN].join(', ')})`);
			if (typeof a.name !== 'string' || !NAME.test(a.name)) return void problems.push(`${where}.name: letters, digits, space, _ . -, up to 64, not ${JSON.stringify(a.name)}`);
			if (seen.has(a.name)) problems.push(`${where}.name: "${a.name}" names two arms`);
			seen.add(a.name);
			const arm = `(arm "${a.name}")`;
			// a profile (the arm's, else the experiment's) is its settings, before the arm's own
			const profile = a.profile ?? raw.profile;
			const set: string[] = [];
			if (profile !== undefined) {
				if (typeof profile !== 'string' || !PROFILE_NAMES.includes(profile)) {
					problems.push(`${a.profile !== undefined ? `${where}.profile ${arm}` : 'profile'}: ${PROFILE_NAMES.map((n) => `"${n}"`).join(' or ')}, not ${JSON.stringify(profile)}`);
				} else set.push(...profileOverrides(profile));
			}
			if (a.set !== undefined) {
				if (!Array.isArray(a.set)) problems.push(`${where}.set ${arm}: a list of "KEY=VALUE"`);
				else
					a.set.forEach((s, j) => {
						if (typeof s !== 'string') return void problems.push(`${where}.set[${j}] ${arm}: a "KEY=VALUE" string`);
						try {
							parseOverride(s);
						} catch (e) {
							return void problems.push(`${where}.set[${j}] ${arm}: ${(e as Error).message}`);
						}
						const problem = target && checkSetting(s, target);
						if (problem) problems.push(`${where}.set[${j}] ${arm}: ${problem}`);
						else set.push(s);
					});
			}
			if (a.prompts !== undefined && (typeof a.prompts !== 'string' || !a.prompts)) problems.push(`${where}.prompts ${arm}: a prompt version, label or folder`);
			const armModel = modelName(a.model, `${where}.model`, problems);
			arms.push({ name: a.name, set, ...(typeof a.prompts === 'string' && a.prompts && { prompts: a.prompts }), ...(armModel && { model: armModel }) });
		});
	}
	let metrics: string[] | undefined;
	if (raw.metrics !== undefined) {
		if (!Array.isArray(raw.metrics) || !raw.metrics.length) problems.push('metrics: a list of metric ids');
		else {
			metrics = [];
			for (const m of raw.metrics) {
				if (typeof m !== 'string' || !METRIC_IDS.includes(m)) problems.push(`metrics: unknown metric ${JSON.stringify(m)} (known: ${METRIC_IDS.join(', ')})`);
				else metrics.push(m);
			}
		}
	}
	const workers = wholeNumber(raw.workers, 'workers', 1, 256, problems);
	const concurrency = wholeNumber(raw.concurrency, 'concurrency', 1, 4096, problems);
	let endpoints: string[] | undefined;
	if (raw.endpoints !== undefined) {
		if (!Array.isArray(raw.endpoints) || !raw.endpoints.length) problems.push('endpoints: a list of OpenAI-compatible base URLs');
		else {
			endpoints = [];
			raw.endpoints.forEach((e, i) => {
				let ok = false;
				if (typeof e === 'string') {
					try {
						const u = new URL(e);
						ok = (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
					} catch {
						ok = false;
					}
				}
				if (ok) endpoints!.push((e as string).replace(/\/+$/, ''));
				else problems.push(`endpoints[${i}]: an http(s) base URL without credentials, such as "http://10.0.0.2:8000/v1"`);
			});
		}
	}
	if (problems.length) throw new ExperimentDefError(file, problems);
	return {
		name: name ?? (file.split(/[\\/]/).pop() ?? 'experiment').replace(/\.json$/i, ''),
		...(world && { world }),
		steps: steps!,
		replicates: replicates!,
		seed,
		seeds,
		...(base && { base }),
		model,
		arms,
		...(metrics && { metrics }),
		...(workers !== undefined && { workers }),
		...(concurrency !== undefined && { concurrency }),
		...(endpoints && { endpoints })
	};
}

/** Reads a definition file as JSON; errors name the file (and the line of broken JSON). */
export function readExperimentJson(file: string): unknown {
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (e) {
		throw new ExperimentDefError(file, [`cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`]);
	}
	try {
		return JSON.parse(text);
	} catch (e) {
		const msg = (e as Error).message;
		const at = /position (\d+)/.exec(msg);
		const line = at ? text.slice(0, Number(at[1])).split('\n').length : undefined;
		throw new ExperimentDefError(file, [`not valid JSON${line ? ` (line ${line})` : ''}: ${msg}`]);
	}
}

/** Reads and checks a definition file. */
export function readExperimentFile(file: string, secondsPerStep?: (world: string | undefined) => number): ExperimentDef {
	return parseExperiment(readExperimentJson(file), file, secondsPerStep);
}

/**
 * The experiment's id: its name and a hash of what decides its runs (world, span, seeds, base,
 * model, arms, replicates), so running the same definition again continues the same experiment.
 * Workers, concurrency, endpoints and metrics do not change the runs and are left out.
 */
export function experimentId(def: ExperimentDef): string {
	const decisive = { world: def.world ?? null, steps: def.steps, replicates: def.replicates, seed: def.seed, seeds: def.seeds, base: def.base ?? null, model: def.model, arms: def.arms };
	const hash = createHash('sha256').update(JSON.stringify(decisive)).digest('hex').slice(0, 10);
	const slug = def.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'experiment';
	return `${slug}-${hash}`;
}

/** The runs of an experiment, arm by arm: replicate r of arm a gets its seed and sampling index. */
export function experimentJobs(def: ExperimentDef): Job[] {
	const jobs: Job[] = [];
	def.arms.forEach((arm, a) => {
		for (let r = 0; r < def.replicates; r++) {
			const offset = def.seeds === 'shared' ? r : a * def.replicates + r;
			jobs.push({ key: `${arm.name}#${r}`, arm: arm.name, replicate: r, seed: def.seed + offset, sample: offset });
		}
	});
	return jobs;
}

export function defaultWorkers(): number {
	return Math.max(1, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
}
