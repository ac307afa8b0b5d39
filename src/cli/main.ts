// The command line: `npm run simulacra -- <command> [options]`. Every command takes --json and
// --help; the options each command takes are in the table of commands.ts, which refuses the others.
// Errors are reported as one line (or a JSON object) and exit code 1, never a stack trace.

import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { formatIso } from '../lib/engine/clock';
import { inputAgent, inputFromOptions, inputFromPair, mapInputAgents, PAIR_INPUTS, type Checked, type SimInput } from '../lib/engine/inputs';
import type { Ablation } from '../lib/engine/state';
import { OFFLINE_LABEL } from '../lib/server/model/providers/offline';
import { formatIssue, PromptStore, PromptStoreError } from '../lib/server/prompts/store';
import type { ModelChoice } from '../lib/server/run/models';
import { listRuns, loadState, openRun, resumeRun, runWorld, startRun, stateHash, type RunOptions, type RunSummary } from '../lib/server/run/runner';
import { checkBudget, formatBudget, formatUsage, formatUsd } from '../lib/server/run/cost';
import type { RunCheck } from '../lib/server/store/upkeep';
import type { Budget, RunEstimate, UsageRow } from '../lib/api/types';
import type { InputFork } from './fork-text';
import type { PromptVersionInfo } from '../lib/api/prompts';
import type { GatewayActivity } from '../lib/server/model/gateway';
import { commandHelp, helpText, parseCommand, UsageError } from './commands';

// Only what `run` and `resume` need is imported here; every other command loads its own modules
// (`await import(...)` in its case below), so that starting a run does not wait for them.

const HELP = helpText(`Every command takes --json, and --help for its own options. The default model is the ${OFFLINE_LABEL}.`);

type Out = { json: boolean };

function print(out: Out, value: unknown, text: () => string): void {
	process.stdout.write(out.json ? JSON.stringify(value, null, 2) + '\n' : text() + '\n');
}

function progressBar(enabled: boolean): RunOptions['onProgress'] {
	if (!enabled) return undefined;
	let last = '';
	return (done, total, usage, activity) => {
		const pct = Math.floor((done / Math.max(1, total)) * 100);
		const meter = usage ? ` · ${formatUsage(usage)}` : '';
		const line = `${pct}% ${done}/${total} steps${meter}${activity ? ` · ${formatActivity(activity)}` : ''}`;
		if (line === last && done !== total) return;
		last = line;
		const width = 30;
		const filled = Math.round((pct / 100) * width);
		process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${line}\x1b[K`);
		if (done === total) process.stderr.write('\n');
	};
}

/** Calls in flight (of them ahead of need) and what the step waits for, e.g. "12 calls in flight (5 ahead) · waiting for dialogue_turn of isabella-rodriguez". */
function formatActivity(a: GatewayActivity): string {
	const flight = `${a.inFlight} call${a.inFlight === 1 ? '' : 's'} in flight${a.inFlightAhead ? ` (${a.inFlightAhead} ahead)` : ''}`;
	if (a.waitingFor.length === 0) return flight;
	const first = a.waitingFor[0];
	const more = a.waitingFor.length > 1 ? ` and ${a.waitingFor.length - 1} more` : '';
	return `${flight} · waiting for ${first.template}${first.agent ? ` of ${first.agent}` : ''}${more}`;
}

function budgetFrom(values: { 'budget-tokens'?: string; 'budget-usd'?: string }): Budget | null | undefined {
	if (values['budget-tokens'] === undefined && values['budget-usd'] === undefined) return undefined;
	const usd = values['budget-usd'];
	if (usd !== undefined && !(Number(usd) > 0)) throw new UsageError(`--budget-usd must be a positive number of US dollars, not "${usd}"`);
	try {
		return checkBudget({ tokens: values['budget-tokens'] === undefined ? undefined : int(values['budget-tokens'], 'budget-tokens', 1), usd: usd === undefined ? undefined : Number(usd) });
	} catch (e) {
		throw new UsageError((e as Error).message);
	}
}

function estimateText(e: RunEstimate): string {
	const n = (x: number) => Math.round(x).toLocaleString('en');
	return [
		`estimate for ${n(e.steps)} steps, ${e.agents} agents, ${e.model}:`,
		`  ${n(e.calls)} calls (${e.callsPerAgentStep.toFixed(3)} per agent-step), ${n(e.tokens.prompt)} prompt + ${n(e.tokens.completion)} completion tokens` +
			` (${n(e.tokensPerCall.prompt)} + ${n(e.tokensPerCall.completion)} per call)`,
		`  cost ${e.usd === null ? 'unknown (no price configured)' : formatUsd(e.usd)}${e.price ? ` at $${e.price.input} / $${e.price.output} per million input / output tokens` : ''}`,
		`  ${e.note}`
	].join('\n');
}

/** Prints a run's summary; a run that paused by itself exits non-zero with the reason. */
function finish(out: Out, summary: RunSummary, printed = false): number {
	if (!printed) print(out, summary, () => summaryText(summary));
	if (summary.pause?.reason === 'fault') {
		if (!out.json) process.stderr.write(`error: run ${summary.run} paused at step ${summary.pause.step}: ${summary.pause.message}\n  continue it with: npm run simulacra -- resume ${summary.run}\n`);
		return 1;
	}
	if (summary.pause?.reason === 'budget') {
		if (!out.json) process.stderr.write(`run ${summary.run} paused at step ${summary.pause.step}: ${summary.pause.message}\n  continue it with: npm run simulacra -- resume ${summary.run} --budget-tokens N | --budget-usd X\n`);
		return 2;
	}
	return 0;
}

function formatRunCheck(c: RunCheck): string {
	const head = `run ${c.run}: ${c.status}, steps ${c.firstStep}..${c.committed}, ${c.snapshots} snapshots${c.memoryRows === null ? '' : `, ${c.memoryRows} memory rows`}`;
	if (c.problems.length === 0) return `${head}\n  ok: every commit line, snapshot and memory row agrees`;
	return [head, ...c.problems.map((p) => `  ${p.where}: ${p.what}\n    repair: ${p.repair}`)].join('\n');
}

function usageLine(u: UsageRow, budget: Budget | null): string {
	return `  usage ${formatUsage(u)} (${u.prompt.toLocaleString('en')} prompt + ${u.completion.toLocaleString('en')} completion)${budget ? `, budget ${formatBudget(budget)}` : ''}`;
}

function int(value: string | undefined, name: string, min = 0): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number of at least ${min}, not "${value}"`);
	return n;
}

function runRef(text: string): { run: string; step: number } {
	const at = text.lastIndexOf('@');
	if (at <= 0) throw new UsageError(`--from takes RUN@STEP, not "${text}"`);
	return { run: text.slice(0, at), step: int(text.slice(at + 1), 'from step') as number };
}

function need<T>(value: T | undefined, message: string): T {
	if (value === undefined || value === '') throw new UsageError(message);
	return value;
}

/** An input read from the command line (../lib/engine/inputs.ts), or its message as a usage error. */
function checked<T>(r: Checked<T>): T {
	if (!r.ok) throw new UsageError(r.error);
	return r.value;
}

function summaryText(s: RunSummary): string {
	return [
		`run ${s.run}`,
		`  world ${s.world}, ${s.agents} agents, ${s.steps} steps`,
		`  model ${s.model}: ${s.llmCalls} calls (${s.cacheHits} from cache, ${s.failsafes} fail-safe)`,
		usageLine(s.usage, s.budget),
		...(s.aheadUnused.calls > 0 ? [`  made ahead of need and not used: ${formatUsage(s.aheadUnused)} (paid for, counted by the budget)`] : []),
		...(s.embeddings.calls > 0 ? [`  embedding requests: ${formatUsage(s.embeddings)} (tokens estimated, counted by the budget)`] : []),
		...s.modelChanges.map((c) => `  model changed at step ${c.step}: ${c.from.chat.model} -> ${c.to.chat.model}`),
		...(s.status === 'paused' ? [`  status paused: ${s.pause?.message ?? ''}`] : []),
		`  wall time ${(s.wallMs / 1000).toFixed(1)} s`,
		`  stateHash ${s.stateHash}`
	].join('\n');
}

const ABLATIONS: (keyof Ablation)[] = ['reflection', 'planning', 'observation'];

function parseAblation(text: string | undefined): Ablation {
	const condition: Ablation = { reflection: false, planning: false, observation: false };
	for (const part of (text ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
		if (!ABLATIONS.includes(part as keyof Ablation)) throw new UsageError(`--ablate takes ${ABLATIONS.join(', ')}; "${part}" is not one`);
		condition[part as keyof Ablation] = true;
	}
	return condition;
}

/** `--prompts`: a folder when it looks like a path or is one, else a stored version or label. */
function promptsFolder(value: string): string {
	const isDir = value.includes('/') || value.includes(path.sep) || (existsSync(value) && statSync(value).isDirectory());
	return isDir ? value : new PromptStore().materialise(value);
}

function versionLine(v: PromptVersionInfo): string {
	const labels = v.labels.length ? `  [${v.labels.join(', ')}]` : '';
	const changed = v.changed.length ? `  (${v.changed.length === Object.keys(v.templates).length ? 'all templates' : v.changed.join(', ')})` : '';
	return `${v.version}  ${v.created.slice(0, 19).replace('T', ' ')}  ${v.message.split('\n')[0]}${labels}${changed}`;
}

async function promptsCommand(args: string[], message: string | undefined, out: Out): Promise<number> {
	const [sub, a, b] = args;
	const store = new PromptStore();
	try {
		switch (sub) {
			case 'list': {
				const result = { working: store.working(), versions: store.listVersions(), labels: store.labels() };
				const { working } = result;
				print(out, { ...result, working: { ...working, templates: working.templates.map(({ source: _s, ...t }) => t) } }, () =>
					[
						`working copy ${working.version} (${working.saved ? 'saved' : 'unsaved changes'}${working.base ? `, from ${working.base}` : ''})`,
						...working.problems.map((p) => `  problem: ${formatIssue(p)}`),
						...result.versions.map(versionLine)
					].join('\n')
				);
				return 0;
			}
			case 'show': {
				const detail = store.getVersion(need(a, 'prompts show needs a version or label'));
				print(out, detail, () =>
					[
						versionLine(detail.info),
						...(detail.info.parent ? [`  parent ${detail.info.parent}`] : []),
						...Object.entries(detail.info.templates).map(([id, v]) => `  ${id.padEnd(22)} ${v}${detail.info.changed.includes(id) ? '  changed' : ''}`)
					].join('\n')
				);
				return 0;
			}
			case 'save': {
				const text = need(message, 'prompts save needs --message M (what changed)');
				const { info, created } = store.saveWorking(text);
				print(out, { ...info, created }, () => `${created ? 'saved' : 'already stored as'} ${versionLine(info)}`);
				return 0;
			}
			case 'label': {
				const label = need(a, 'prompts label needs a NAME and a version');
				const labels = store.setLabel(label, need(b, 'prompts label needs a NAME and a version'));
				print(out, labels, () => `${label} -> ${labels[label]}`);
				return 0;
			}
			case 'history': {
				const entries = store.historyOf(need(a, 'prompts history needs a template id'));
				print(out, entries, () => entries.map((h) => `${h.version}  ${h.created.slice(0, 19).replace('T', ' ')}  ${h.templateVersion}  ${h.message.split('\n')[0]}`).join('\n') || 'no versions');
				return 0;
			}
			case 'restore': {
				const working = store.restore(need(a, 'prompts restore needs a version or label'));
				print(out, { version: working.version, saved: working.saved, base: working.base }, () => `restored ${working.version} into ${store.promptsDir}`);
				return 0;
			}
			default:
				throw new UsageError(`unknown prompts command "${sub ?? ''}" (list, show, save, label, history or restore)`);
		}
	} catch (e) {
		if (!(e instanceof PromptStoreError) || !e.issues.length) throw e;
		// one line per problem (the message repeats the first few)
		const error = e.message.split('\n')[0];
		if (out.json) process.stdout.write(JSON.stringify({ ok: false, error, issues: e.issues }, null, 2) + '\n');
		else process.stderr.write(`error: ${error}\n${e.issues.map((i) => `  ${formatIssue(i)}\n`).join('')}`);
		return 1;
	}
}

async function main(argv: string[]): Promise<number> {
	const { command, rest, values, spec } = parseCommand(argv);
	const out: Out = { json: values.json === true };
	if (!command) {
		process.stdout.write(HELP + '\n');
		return values.help ? 0 : 1;
	}
	if (values.help) {
		// the command's own help (a group's: all of its commands); an unknown command's, all of them
		process.stdout.write((commandHelp(spec?.name ?? command) ?? HELP) + '\n');
		return 0;
	}
	switch (command) {
		case 'run': {
			const from = values.from ? runRef(values.from) : undefined;
			if (!from && !values.world) throw new UsageError('run needs --world W (or --from RUN@STEP)');
			const steps = int(values.steps, 'steps', 0);
			if (steps === undefined) throw new UsageError('run needs --steps N');
			const model = values.model ?? undefined;
			if (model !== undefined && model !== 'offline' && model !== 'openai') throw new UsageError(`--model is offline or openai, not "${model}"`);
			const condition = parseAblation(values.ablate);
			const ablate = ABLATIONS.filter((a) => condition[a]);
			// --whisper AGENT=TEXT, --set-object ADDRESS=STATE: the inputs the registry gives as pairs
			const inputs: SimInput[] = PAIR_INPUTS.flatMap((name) => ((values as Record<string, string[] | undefined>)[name] ?? []).map((text) => checked(inputFromPair(name, text))));
			const promptsDir = values.prompts === undefined ? undefined : promptsFolder(values.prompts);
			const budget = budgetFrom(values);
			const realModel = (model ?? (from ? openRun(from.run).meta.model.provider : 'offline')) !== 'offline';
			if (values.estimate || realModel) {
				if (steps < 1) throw new UsageError('an estimate needs --steps of at least 1');
				const { estimateRun } = await import('../lib/server/run/estimate');
				const estimate = await estimateRun({ world: values.world, steps, seed: int(values.seed, 'seed'), model, from, profile: values.profile, set: values.set, ablate, promptsDir });
				if (values.estimate) {
					print(out, estimate, () => estimateText(estimate));
					return 0;
				}
				process.stderr.write(estimateText(estimate) + '\n');
			}
			const summary = await startRun({
				world: values.world,
				steps,
				seed: int(values.seed, 'seed'),
				model,
				from,
				promptsDir,
				profile: values.profile,
				set: values.set,
				ablate,
				inputs,
				budget,
				allowModelChange: values['allow-model-change'] === true,
				onProgress: progressBar(!out.json && process.stderr.isTTY === true)
			});
			return finish(out, summary);
		}
		case 'resume': {
			const id = rest[0];
			if (!id) throw new UsageError('resume needs a run id');
			const summary = await resumeRun(id, {
				steps: int(values.steps, 'steps'),
				budget: budgetFrom(values),
				allowModelChange: values['allow-model-change'] === true,
				onProgress: progressBar(!out.json && process.stderr.isTTY === true)
			});
			return finish(out, summary);
		}
		case 'inspect': {
			const id = rest[0];
			if (!id) throw new UsageError('inspect needs a run id');
			const step = int(values.step, 'step');
			if (step === undefined) throw new UsageError('inspect needs --step N');
			const { sim, reader } = await loadState(id, step);
			const nameOf = (agent: string) => sim.state.agents.find((a) => a.id === agent)?.name ?? agent;
			// what the step that led here did (reactions, plans, reflections, conversations, inputs)
			const events = reader.steps().find((l) => l.step === step - 1)?.events ?? [];
			const diff = values.changes ? await (await import('../lib/server/read/changes')).stepChanges(id, step) : null;
			const changesText = diff ? (await import('./find')).changesText : null;
			const result = {
				run: id,
				step,
				time: formatIso(sim.time),
				stateHash: stateHash(sim),
				agents: sim.view().map((a) => ({ id: a.id, name: a.name, tile: [a.x, a.y], action: a.activity, emoji: a.emoji, address: a.address, memories: sim.stream(a.id).size })),
				events,
				...(diff ? { changes: diff.changes } : {})
			};
			print(out, result, () =>
				[
					`run ${id} after ${step} steps, ${result.time}`,
					`stateHash ${result.stateHash}`,
					...result.agents.map((a) => `  ${a.name.padEnd(20)} (${a.tile.join(',')}) ${a.emoji} ${a.action}  @ ${a.address}`),
					...(events.length ? [`events of step ${step - 1}:`] : []),
					...events.map((e) =>
						e.kind === 'reaction'
							? `  reaction: ${nameOf(e.agent)}${e.object ? ` (to ${e.object})` : ''}: ${e.reaction}`
							: e.kind === 'conversation'
								? `  conversation: ${e.agents.map(nameOf).join(' and ')}`
								: e.kind === 'input'
									? `  input: ${e.input}${e.agent ? ` for ${nameOf(e.agent)}` : ''}`
									: `  ${e.kind}: ${nameOf(e.agent)}${e.kind === 'failsafe' ? ` (${e.template})` : ''}`
					),
					...(diff && changesText ? changesText(diff) : [])
				].join('\n')
			);
			return 0;
		}
		case 'world': {
			const [sub, target] = rest;
			if (sub === 'check') {
				if (!target) throw new UsageError('world check needs a world name or path');
				const { checkWorld } = await import('../lib/server/world/check');
				const result = await checkWorld(target);
				print(out, result, () => {
					const lines = [`${result.ok ? 'ok' : 'errors in'} ${result.world}`];
					for (const p of result.errors) lines.push(`  error: ${p.file}${p.where ? ` (${p.where})` : ''}: ${p.message}`);
					for (const p of result.warnings) lines.push(`  warning: ${p.file}${p.where ? ` (${p.where})` : ''}: ${p.message}`);
					const c = result.counts;
					lines.push(`  ${c.sectors} sectors, ${c.arenas} arenas, ${c.objects} objects, ${c.spawns} spawns, ${c.personas} personas`);
					return lines.join('\n');
				});
				return result.ok ? 0 : 1;
			}
			if (sub === 'tree') {
				if (!target) throw new UsageError('world tree needs a world name or path');
				const { loadWorld } = await import('../lib/server/world/load');
				const { formatWorldTree, worldTreeJson } = await import('../lib/server/world/check');
				const { def } = await loadWorld(target);
				print(out, worldTreeJson(def), () => formatWorldTree(def));
				return 0;
			}
			if (sub === 'import') {
				if (!target) throw new UsageError('world import needs the path of a Tiled map (.tmx, .tmj or .json)');
				const name = need(values.name, 'world import needs --name NAME (the new world\'s folder name)');
				if (values.storage !== undefined) {
					const { worldImportReference } = await import('./reference');
					return worldImportReference(target, { storage: need(values.storage, 'world import --storage needs a simulation of the checkout\'s storage/ folder'), name }, out);
				}
				const { importMap } = await import('../lib/server/world/import');
				const { WorldError, formatProblem } = await import('../lib/world/problems');
				try {
					const report = await importMap(target, { name, ...(values.root !== undefined && { root: values.root }) });
					print(out, report, () =>
						[
							`imported ${target} as world "${report.world}" (${report.dir})`,
							`  map ${report.map}`,
							...report.layers.map((l) => `  layer ${l.name} (${l.kind}): ${l.role === 'none' ? 'not used' : l.role}`),
							`  ${report.zones.sectors} sectors, ${report.zones.arenas} arenas, ${report.zones.objects} objects, ${report.zones.spawns} spawns`,
							...report.warnings.map((w) => `  warning: ${w}`)
						].join('\n')
					);
					return 0;
				} catch (e) {
					if (!(e instanceof WorldError)) throw e;
					// one line per problem (the error's own message repeats them)
					const error = `cannot import ${target}: ${e.problems.length} problem${e.problems.length === 1 ? '' : 's'}`;
					if (out.json) process.stdout.write(JSON.stringify({ ok: false, error, problems: e.problems }, null, 2) + '\n');
					else process.stderr.write(`error: ${error}\n${e.problems.map((p) => `  ${formatProblem(p)}\n`).join('')}`);
					return 1;
				}
			}
			throw new UsageError(`unknown world command "${sub ?? ''}" (check, tree or import)`);
		}
		case 'runs': {
			const [sub, id] = rest;
			if (sub === 'rm' || sub === 'check') {
				if (!id) throw new UsageError(`runs ${sub} needs a run id`);
				const { checkRun, removeRun } = await import('../lib/server/store/upkeep');
				if (sub === 'rm') {
					const removed = removeRun(id);
					print(out, removed, () => `removed run ${removed.run} (${(removed.bytes / 1e6).toFixed(1)} MB)`);
					return 0;
				}
				const check = await checkRun(id);
				print(out, check, () => formatRunCheck(check));
				return check.problems.length === 0 ? 0 : 1;
			}
			if (sub === 'import') {
				const { runsImport } = await import('./reference');
				return runsImport(
					need(id, 'runs import needs the folder of a recorded simulation'),
					{ world: need(values.world, 'runs import needs --world W (a world imported from the same simulation)'), model: values.model, snapshotEvery: int(values['snapshot-every'], 'snapshot-every', 1) },
					out
				);
			}
			if (sub !== undefined) throw new UsageError(`unknown runs command "${sub}" (check, rm or import)`);
			const runs = listRuns();
			print(out, runs, () =>
				runs.length === 0
					? 'no runs yet'
					: runs.map((r) => `${r.id}  ${r.world}  ${r.steps} steps  ${r.status}  ${r.model}${r.parent ? `  (fork of ${r.parent.run}@${r.parent.step})` : ''}`).join('\n')
			);
			return 0;
		}
		case 'diff': {
			const [a, b] = rest;
			if (!a || !b) throw new UsageError('diff needs two run ids: diff RUN_A RUN_B');
			const { computeDiff } = await import('../lib/server/diff/diff');
			const { formatDiff } = await import('../lib/server/diff/format');
			const diff = await computeDiff(a, b);
			print(out, diff, () => formatDiff(diff));
			return 0;
		}
		case 'retrievals': {
			const id = need(rest[0], 'retrievals needs a run id');
			const { listRetrievals } = await import('../lib/server/run/traces');
			const list = listRetrievals(id, { agent: need(values.agent, 'retrievals needs --agent NAME'), step: int(values.step, 'step') });
			print(out, list, () => list.map((t) => `${t.id}  step ${t.step}  ${t.purpose}: "${t.query}" (${t.selected.length} of ${t.candidates})`).join('\n') || 'no retrievals');
			return 0;
		}
		case 'retrieval': {
			const id = need(rest[0], 'retrieval needs a run id');
			const trace = need(rest[1], 'retrieval needs a retrieval id (see the retrievals command)');
			let weights;
			// given more than once, the last counts
			const given = values.weights?.at(-1);
			if (given) {
				const w = given.split(',').map(Number);
				if (w.length !== 3 || w.some((x) => !Number.isFinite(x) || x < 0)) throw new UsageError('--weights takes three numbers: recency,importance,relevance');
				weights = { recency: w[0], importance: w[1], relevance: w[2] };
			}
			const { retrievalTable } = await import('../lib/server/run/traces');
			const { formatRetrievalTable } = await import('./retrieval-text');
			const table = await retrievalTable(id, trace, { weights });
			print(out, table, () => formatRetrievalTable(table));
			return 0;
		}
		case 'rescore': {
			const id = need(rest[0], 'rescore needs a run id');
			// --weights may be given many times: one weighting each
			const weightings = values.weights ?? [];
			if (weightings.length === 0) throw new UsageError('rescore needs --weights R,I,V (recency,importance,relevance; "run" for the run\'s own), once per weighting');
			const { parseGrid, weightsLabel } = await import('../lib/server/rescore/grid');
			const { rescoreRun } = await import('../lib/server/rescore/run');
			let grid;
			try {
				grid = parseGrid(weightings, values.decay ?? []);
			} catch (e) {
				throw new UsageError((e as Error).message);
			}
			const report = await rescoreRun(id, { grid, agent: values.agent, purpose: values.purpose });
			// one object per cell, in the order given (decays outer, weightings inner)
			const cells = report.cells.map((c) => ({
				weights: c.weights ?? 'run',
				decay: c.decay ?? 'run',
				retrievals: c.retrievals,
				changed: c.changed,
				reordered: c.reordered,
				skipped: report.skipped,
				mismatched: report.mismatched,
				byAgent: c.byAgent,
				byPurpose: c.byPurpose,
				entered: c.entered,
				left: c.left
			}));
			print(out, cells, () => {
				const head = `${report.run}: ${report.retrievals} retrievals re-scored${report.skipped ? `, ${report.skipped} skipped (memories not stored yet)` : ''}${report.mismatched ? `, ${report.mismatched} rebuilt differently from the record under their own weights` : ''} in ${report.ms.load + report.ms.embed + report.ms.score} ms`;
				const rows = report.cells.map((c) => {
					const pct = report.retrievals ? ((100 * c.changed) / report.retrievals).toFixed(1) : '0.0';
					const most = c.entered[0] ? `; enters most: ${c.entered[0].id} (${c.entered[0].count}x) ${c.entered[0].description.slice(0, 50)}` : '';
					return `  weights ${weightsLabel(c.weights)}  decay ${c.decay ?? 'run'}: ${c.changed} of ${c.retrievals} change their top k (${pct}%), ${c.reordered} reordered${most}`;
				});
				return [head, ...rows].join('\n');
			});
			return 0;
		}
		case 'interview': {
			const id = need(rest[0], 'interview needs a run id');
			const agent = need(values.agent, 'interview needs --agent NAME');
			const question = need(values.question, 'interview needs --question TEXT');
			const step = int(values.step, 'step') ?? openRun(id).committed();
			if (values.remember) {
				// the agent keeps the exchange: a fork whose first step carries the interview
				const { findAgent } = await import('../lib/server/run/traces');
				const summary = await startRun({
					from: { run: id, step },
					steps: int(values.steps, 'steps', 1) ?? 1,
					inputs: [await mapInputAgents(checked(inputFromOptions('interview', values)), (a) => findAgent(id, a))]
				});
				print(out, summary, () => summaryText(summary));
				return 0;
			}
			const { createModel } = await import('../lib/server/run/models');
			const model = await createModel(openRun(id).meta.model.provider as ModelChoice);
			try {
				const { sim } = await loadState(id, step, { model });
				const who = sim.agent(agent);
				const condition = parseAblation(values.ablate);
				const r = await sim.interview(who.id, values.as ?? 'an interviewer', question, model, { condition });
				const result = {
					run: id,
					step,
					agent: who.id,
					question,
					condition,
					answer: r.answer,
					memories: r.memories.map((m) => ({ id: m.id, kind: m.kind, description: m.description }))
				};
				print(out, result, () => `${who.name}: ${r.answer}`);
			} finally {
				model.close();
			}
			return 0;
		}
		case 'whisper':
		case 'set-object': {
			const id = need(rest[0], `${command} needs a run id`);
			const { findAgent } = await import('../lib/server/run/traces');
			const { controlCommands, defaultForkSteps, inputForkText } = await import('./fork-text');
			const parent = openRun(id);
			const committed = parent.committed();
			const step = int(values.step, 'step') ?? committed;
			const given = checked(inputFromOptions(command, values));
			const agentName = inputAgent(given);
			const input = await mapInputAgents(given, (a) => findAgent(id, a));
			// without --steps, one game hour: long enough for agents to come across the change and react
			const secondsPerStep = (await runWorld(parent)).secondsPerStep;
			const stepsGiven = int(values.steps, 'steps', 1);
			const steps = stepsGiven ?? defaultForkSteps(secondsPerStep);
			const summary = await startRun({
				from: { run: id, step },
				steps,
				inputs: [input],
				onProgress: progressBar(!out.json && process.stderr.isTTY === true)
			});
			const fork: InputFork = { parent: { run: id, step, committed }, fork: { run: summary.run, end: summary.steps }, input, agentName, steps, defaultSteps: stepsGiven === undefined, secondsPerStep };
			print(out, { ...summary, input, from: { run: id, step }, stepsRun: steps, compare: controlCommands(fork) }, () => `${inputForkText(fork)}\n${summaryText(summary)}`);
			return finish(out, summary, true);
		}
		case 'stats': {
			const file = need(values.input, 'stats needs --input FILE (rankings as .json or .csv)');
			if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`stats: no file at ${file}`);
			const { parseRankings } = await import('../lib/eval/rankings');
			const { analyseRankings, formatEvaluationStats } = await import('../lib/eval/stats');
			const { parseJson } = await import('../lib/world/json');
			const { rankings } = parseRankings(readFileSync(file, 'utf8'), { file, readJson: parseJson });
			const stats = analyseRankings(rankings);
			print(out, stats, () => formatEvaluationStats(stats, file));
			return 0;
		}
		case 'eval': {
			const id = need(rest[0], 'eval needs a run id');
			const { evaluateRun } = await import('../lib/server/eval/metrics');
			const { formatEvalReport } = await import('../lib/server/eval/format');
			const report = await evaluateRun(id, { step: int(values.step, 'step'), refresh: values.refresh === true });
			print(out, report, () => formatEvalReport(report));
			return 0;
		}
		case 'interviews': {
			const id = need(rest[0], 'interviews needs a run id');
			if (values.human !== undefined) {
				const file = need(values.human, 'interviews --human needs a FILE of answers (.json)');
				if (values.agents !== undefined || values.conditions !== undefined) throw new UsageError('--human imports answers; it does not run the interviews, so it takes no --agents or --conditions');
				if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`interviews --human: no file at ${file}`);
				const { parseHumanAnswersFile } = await import('../lib/server/eval/evaluation-file');
				const { WorldError } = await import('../lib/world/problems');
				const { humanAnswersFile, saveHumanAnswers } = await import('../lib/server/eval/human');
				const { formatHumanAnswers } = await import('../lib/server/eval/format');
				let parsed;
				try {
					parsed = parseHumanAnswersFile(file, readFileSync(file, 'utf8'));
				} catch (e) {
					// the message lists every problem by line already
					if (e instanceof WorldError) throw new UsageError(e.message);
					throw e;
				}
				const step = int(values.step, 'step');
				if (parsed.run !== undefined && parsed.run !== id) throw new UsageError(`${file} holds answers for run ${parsed.run}, not ${id}`);
				if (step !== undefined && parsed.step !== undefined && step !== parsed.step) throw new UsageError(`${file} is for step ${parsed.step}, but --step ${step} was given`);
				const answers = parsed.answers.map((a) => ({ ...a, where: `${file} (${a.where})` }));
				const saved = saveHumanAnswers(id, { step: step ?? parsed.step, answers });
				print(out, saved, () => formatHumanAnswers(saved, humanAnswersFile(openRun(id).dir, saved.step), answers.length));
				return 0;
			}
			const { interviewSetFile, runInterviews } = await import('../lib/server/eval/interviews');
			const { formatInterviewSet } = await import('../lib/server/eval/format');
			const list = (v: string | undefined) => v?.split(',').map((x) => x.trim()).filter(Boolean);
			const set = await runInterviews(id, { step: int(values.step, 'step'), agents: list(values.agents), conditions: list(values.conditions) });
			print(out, set, () => formatInterviewSet(set, interviewSetFile(openRun(id).dir, set.step)));
			return 0;
		}
		case 'search': {
			const [id, query] = rest;
			if (!id || query === undefined) throw new UsageError('search needs a run id and a query: search RUN "QUERY"');
			const { searchCommand } = await import('./find');
			const found = await searchCommand(id, query, { agent: values.agent, kind: values.kind, limit: int(values.limit, 'limit', 1) });
			print(out, found.value, found.text);
			return 0;
		}
		case 'export': {
			const id = rest[0];
			if (!id) throw new UsageError('export needs a run id');
			const { exportCommand } = await import('./find');
			const done = await exportCommand(id, { otlp: values.otlp, endpoint: values['otlp-endpoint'], now: values.now === true });
			print(out, done.value, done.text);
			return 0;
		}
		case 'prompts':
			return promptsCommand(rest, values.message, out);
		case 'experiment': {
			const { experimentCommand } = await import('../lib/server/experiments/cli');
			return experimentCommand(rest, out.json);
		}
		default:
			throw new UsageError(`unknown command "${command}"\n\n${HELP}`);
	}
}

// A reader that stops early (`| head`) closes the pipe: stop quietly with status 0, as Unix tools
// do, instead of an EPIPE stack trace. A closed stderr is ignored (nothing left to tell).
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
	if (e.code === 'EPIPE') process.exit(0);
	throw e;
});
process.stderr.on('error', (e: NodeJS.ErrnoException) => {
	if (e.code !== 'EPIPE') throw e;
});

const argv = process.argv.slice(2);
const json = argv.includes('--json');
main(argv).then(
	(code) => {
		process.exitCode = code;
	},
	(e: unknown) => {
		const err = e as Error & { problems?: { file: string; where?: string; message: string }[] };
		const message = err?.message ?? String(e);
		if (json) {
			process.stdout.write(JSON.stringify({ ok: false, error: message, problems: err.problems }, null, 2) + '\n');
		} else {
			process.stderr.write(`error: ${message}\n`);
			for (const p of err.problems ?? []) process.stderr.write(`  ${p.file}${p.where ? ` (${p.where})` : ''}: ${p.message}\n`);
		}
		process.exitCode = 1;
	}
);
