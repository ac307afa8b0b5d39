// The command line: `npm run simulacra -- <command> [options]`. Every command takes --json.
// Errors are reported as one line (or a JSON object) and exit code 1, never a stack trace.

import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatIso } from '../lib/engine/clock';
import type { SimInput } from '../lib/engine/sim';
import type { Ablation } from '../lib/engine/state';
import { computeDiff } from '../lib/server/diff/diff';
import { formatDiff } from '../lib/server/diff/format';
import { OFFLINE_LABEL } from '../lib/server/model/providers/offline';
import { formatIssue, PromptStore, PromptStoreError } from '../lib/server/prompts/store';
import { createModel, type ModelChoice } from '../lib/server/run/models';
import { listRuns, loadState, openRun, resumeRun, startRun, stateHash, type RunSummary } from '../lib/server/run/runner';
import { findAgent, listRetrievals, retrievalTable } from '../lib/server/run/traces';
import { checkWorld, formatWorldTree, worldTreeJson } from '../lib/server/world/check';
import { importMap } from '../lib/server/world/import';
import { loadWorld } from '../lib/server/world/load';
import { WorldError, formatProblem } from '../lib/world/problems';
import type { PromptVersionInfo } from '../lib/api-prompts';
import { parseRankings } from '../lib/eval/rankings';
import { analyseRankings, formatEvaluationStats } from '../lib/eval/stats';
import { parseJson } from '../lib/world/json';
import { evaluateRun } from '../lib/server/eval/metrics';
import { interviewSetFile, runInterviews } from '../lib/server/eval/interviews';
import { formatEvalReport, formatInterviewSet } from '../lib/server/eval/format';

const HELP = `Simulacra Studio command line

  run --world W --steps N [--seed S] [--model offline|openai] [--from RUN@STEP]
      [--prompts VERSION|LABEL|DIR] [--set KEY=VALUE]... [--ablate reflection,planning,observation]
      [--whisper AGENT=TEXT] [--set-object ADDRESS=STATE]
                         run a simulation (or fork RUN at STEP) and print its id
  resume RUN [--steps N] continue an interrupted run
  inspect RUN --step N   the state after N steps: time, stateHash, agents
  world check W|PATH     validate a world; exit 1 when it has errors
  world tree W           the environment tree (world -> sector -> arena -> object)
  world import PATH --name NAME
                         make a new world from a Tiled map (.tmx, .tmj or .json)
  runs                   list runs
  diff RUN_A RUN_B       what differs between two runs: set-up, first divergence,
                         agents, conversations, memories, fail-safes
  retrievals RUN --agent NAME [--step N]
                         the agent's retrievals (id, step, purpose, query)
  retrieval RUN ID [--weights R,I,V]
                         one retrieval's full score table (optionally re-scored)
  interview RUN --agent NAME --question TEXT [--step N] [--as PERSONA] [--ablate ...]
                         ask an agent a question (read-only; the run is unchanged;
                         with --remember, a fork in which the agent keeps the exchange)
  whisper RUN --agent NAME --text TEXT [--step N] [--steps M]
                         fork RUN at step N with an inner-voice directive and run M steps
  set-object RUN --object ADDRESS --state TEXT [--step N] [--steps M]
                         fork RUN at step N with an object's state changed
  prompts list           stored prompt-set versions (newest first), labels, working copy
  prompts show V         one version (id, 8+ digit prefix or label) and its templates
  prompts save --message M
                         store the working copy (prompts/ or SIMULACRA_PROMPTS) as a version
  prompts label NAME V   point label NAME at version V (labels move)
  prompts history TEMPLATE
                         the versions in which a template's text changed
  prompts restore V      write version V into the working copy
  eval RUN [--step N] [--refresh]
                         end-to-end measures at step N (default: the last): diffusion of
                         each scenario fact, relationship density, event attendance
  interviews RUN [--step N] [--agents a,b] [--conditions full,no-reflection,...]
                         the evaluation interview (5 categories x 5 questions) under each
                         ablation condition, stored in the run's evaluations folder
  stats --input FILE     believability rankings (.json or .csv): TrueSkill ratings,
                         Kruskal-Wallis and Dunn's test with Holm-Bonferroni

Every command takes --json. The default model is the ${OFFLINE_LABEL}.`;

class UsageError extends Error {}

type Out = { json: boolean };

function print(out: Out, value: unknown, text: () => string): void {
	process.stdout.write(out.json ? JSON.stringify(value, null, 2) + '\n' : text() + '\n');
}

function progressBar(enabled: boolean): ((done: number, total: number) => void) | undefined {
	if (!enabled) return undefined;
	let last = -1;
	return (done, total) => {
		const pct = Math.floor((done / Math.max(1, total)) * 100);
		if (pct === last && done !== total) return;
		last = pct;
		const width = 30;
		const filled = Math.round((pct / 100) * width);
		process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct}% ${done}/${total} steps`);
		if (done === total) process.stderr.write('\n');
	};
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

function keyValue(text: string, flag: string): [string, string] {
	const eq = text.indexOf('=');
	if (eq <= 0) throw new UsageError(`--${flag} takes KEY=VALUE, not "${text}"`);
	return [text.slice(0, eq), text.slice(eq + 1)];
}

function summaryText(s: RunSummary): string {
	return [
		`run ${s.run}`,
		`  world ${s.world}, ${s.agents} agents, ${s.steps} steps`,
		`  model ${s.model}: ${s.llmCalls} calls (${s.cacheHits} from cache, ${s.failsafes} fail-safe)`,
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
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			json: { type: 'boolean', default: false },
			world: { type: 'string' },
			steps: { type: 'string' },
			step: { type: 'string' },
			seed: { type: 'string' },
			model: { type: 'string' },
			from: { type: 'string' },
			prompts: { type: 'string' },
			set: { type: 'string', multiple: true },
			ablate: { type: 'string' },
			whisper: { type: 'string', multiple: true },
			'set-object': { type: 'string', multiple: true },
			agent: { type: 'string' },
			question: { type: 'string' },
			as: { type: 'string' },
			text: { type: 'string' },
			object: { type: 'string' },
			state: { type: 'string' },
			weights: { type: 'string' },
			name: { type: 'string' },
			message: { type: 'string', short: 'm' },
			remember: { type: 'boolean', default: false },
			input: { type: 'string' },
			agents: { type: 'string' },
			conditions: { type: 'string' },
			refresh: { type: 'boolean', default: false },
			help: { type: 'boolean', short: 'h', default: false }
		}
	});
	const out: Out = { json: values.json === true };
	const [command, ...rest] = positionals;
	if (!command || values.help) {
		process.stdout.write(HELP + '\n');
		return command || values.help ? 0 : 1;
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
			const inputs: SimInput[] = [
				...(values.whisper ?? []).map((w) => {
					const [agent, text] = keyValue(w, 'whisper');
					return { type: 'whisper' as const, agent, text };
				}),
				...(values['set-object'] ?? []).map((w) => {
					const [address, state] = keyValue(w, 'set-object');
					return { type: 'set-object' as const, address, state };
				})
			];
			const summary = await startRun({
				world: values.world,
				steps,
				seed: int(values.seed, 'seed'),
				model,
				from,
				promptsDir: values.prompts === undefined ? undefined : promptsFolder(values.prompts),
				set: values.set,
				ablate,
				inputs,
				onProgress: progressBar(!out.json && process.stderr.isTTY === true)
			});
			print(out, summary, () => summaryText(summary));
			return 0;
		}
		case 'resume': {
			const id = rest[0];
			if (!id) throw new UsageError('resume needs a run id');
			const summary = await resumeRun(id, {
				steps: int(values.steps, 'steps'),
				onProgress: progressBar(!out.json && process.stderr.isTTY === true)
			});
			print(out, summary, () => summaryText(summary));
			return 0;
		}
		case 'inspect': {
			const id = rest[0];
			if (!id) throw new UsageError('inspect needs a run id');
			const step = int(values.step, 'step');
			if (step === undefined) throw new UsageError('inspect needs --step N');
			const { sim } = await loadState(id, step);
			const result = {
				run: id,
				step,
				time: formatIso(sim.time),
				stateHash: stateHash(sim),
				agents: sim.view().map((a) => ({ id: a.id, name: a.name, tile: [a.x, a.y], action: a.activity, emoji: a.emoji, address: a.address }))
			};
			print(out, result, () =>
				[
					`run ${id} after ${step} steps, ${result.time}`,
					`stateHash ${result.stateHash}`,
					...result.agents.map((a) => `  ${a.name.padEnd(20)} (${a.tile.join(',')}) ${a.emoji} ${a.action}  @ ${a.address}`)
				].join('\n')
			);
			return 0;
		}
		case 'world': {
			const [sub, target] = rest;
			if (sub === 'check') {
				if (!target) throw new UsageError('world check needs a world name or path');
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
				const { def } = await loadWorld(target);
				print(out, worldTreeJson(def), () => formatWorldTree(def));
				return 0;
			}
			if (sub === 'import') {
				if (!target) throw new UsageError('world import needs the path of a Tiled map (.tmx, .tmj or .json)');
				const name = need(values.name, 'world import needs --name NAME (the new world\'s folder name)');
				try {
					const report = await importMap(target, { name });
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
			const diff = await computeDiff(a, b);
			print(out, diff, () => formatDiff(diff));
			return 0;
		}
		case 'retrievals': {
			const id = need(rest[0], 'retrievals needs a run id');
			const list = listRetrievals(id, { agent: need(values.agent, 'retrievals needs --agent NAME'), step: int(values.step, 'step') });
			print(out, list, () => list.map((t) => `${t.id}  step ${t.step}  ${t.purpose}: "${t.query}" (${t.selected.length} of ${t.candidates})`).join('\n') || 'no retrievals');
			return 0;
		}
		case 'retrieval': {
			const id = need(rest[0], 'retrieval needs a run id');
			const trace = need(rest[1], 'retrieval needs a retrieval id (see the retrievals command)');
			let weights;
			if (values.weights) {
				const w = values.weights.split(',').map(Number);
				if (w.length !== 3 || w.some((x) => !Number.isFinite(x) || x < 0)) throw new UsageError('--weights takes three numbers: recency,importance,relevance');
				weights = { recency: w[0], importance: w[1], relevance: w[2] };
			}
			const table = await retrievalTable(id, trace, { weights });
			print(out, table, () => {
				const head = `${table.id} at step ${table.step}, ${table.purpose}: "${table.query}"\nweights recency ${table.weights.recency}, importance ${table.weights.importance}, relevance ${table.weights.relevance}; decay ${table.decay}; top ${table.k}`;
				const rows = [...table.candidates]
					.sort((a, b) => b.score - a.score)
					.map((r) => `${r.rank ? String(r.rank).padStart(3) : '   '} ${r.score.toFixed(3)}  rec ${r.recencyNorm.toFixed(2)} imp ${r.importanceNorm.toFixed(2)} rel ${r.relevanceNorm.toFixed(2)}  ${r.description.slice(0, 70)}`);
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
				const summary = await startRun({
					from: { run: id, step },
					steps: int(values.steps, 'steps', 1) ?? 1,
					inputs: [{ type: 'interview', agent: findAgent(id, agent), interviewer: values.as ?? 'an interviewer', question }]
				});
				print(out, summary, () => summaryText(summary));
				return 0;
			}
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
			const step = int(values.step, 'step') ?? openRun(id).committed();
			const input: SimInput =
				command === 'whisper'
					? { type: 'whisper', agent: need(values.agent, 'whisper needs --agent NAME'), text: need(values.text, 'whisper needs --text TEXT') }
					: { type: 'set-object', address: need(values.object, 'set-object needs --object ADDRESS'), state: need(values.state, 'set-object needs --state TEXT') };
			if (input.type === 'whisper') input.agent = findAgent(id, input.agent);
			const summary = await startRun({
				from: { run: id, step },
				steps: int(values.steps, 'steps', 1) ?? 1,
				inputs: [input],
				onProgress: progressBar(!out.json && process.stderr.isTTY === true)
			});
			print(out, summary, () => summaryText(summary));
			return 0;
		}
		case 'stats': {
			const file = need(values.input, 'stats needs --input FILE (rankings as .json or .csv)');
			if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`stats: no file at ${file}`);
			const { rankings } = parseRankings(readFileSync(file, 'utf8'), { file, readJson: parseJson });
			const stats = analyseRankings(rankings);
			print(out, stats, () => formatEvaluationStats(stats, file));
			return 0;
		}
		case 'eval': {
			const id = need(rest[0], 'eval needs a run id');
			const report = await evaluateRun(id, { step: int(values.step, 'step'), refresh: values.refresh === true });
			print(out, report, () => formatEvalReport(report));
			return 0;
		}
		case 'interviews': {
			const id = need(rest[0], 'interviews needs a run id');
			const list = (v: string | undefined) => v?.split(',').map((x) => x.trim()).filter(Boolean);
			const set = await runInterviews(id, { step: int(values.step, 'step'), agents: list(values.agents), conditions: list(values.conditions) });
			print(out, set, () => formatInterviewSet(set, interviewSetFile(openRun(id).dir, set.step)));
			return 0;
		}
		case 'prompts':
			return promptsCommand(rest, values.message, out);
		default:
			throw new UsageError(`unknown command "${command}"\n\n${HELP}`);
	}
}

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
