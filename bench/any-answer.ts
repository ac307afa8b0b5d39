// The acceptance run for "any schema-valid answer is a valid answer": a 25-agent Smallville game
// day (8,640 steps) with the OpenAI-compatible provider against local test servers, checking the
// engine's invariants after every step and restoring the last step from the journal to the same
// state hash.
//   schema server: random JSON valid for each request's JSON Schema (structured outputs)
//   prose server:  the same answers wrapped in prose, code fences, <think> blocks, trailing commas
//   sampling server: a new random answer per request (a model sampling at a temperature above
//                  0), each after a random latency of 0-50 ms; the run is then made again with
//                  the same command, forked halfway, and made twice at once in a fresh data home
//                  (two identical arms of an experiment): each must end in the same state
//
// npm run bench -- --only any-answer          (both servers, rows for the table)
// npx tsx bench/any-answer.ts [--steps 8640] [--server schema,prose,sampling] [--seed 1]
//   prints the figures and exits non-zero when the run fails its aim: an invariant broken, the
//   journal restoring another state, any fail-safe against the schema server, or fail-safes on
//   2% of calls or more against the prose server, a rerun, fork or twin run in another state.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { invariantProblems, memoryTracker } from '../src/lib/engine/invariants';
import { LiveRun, loadState, openRun, startRun, stateHash } from '../src/lib/server/run/runner';
import { startProseServer } from '../src/lib/server/model/testing/prose-server';
import { startSchemaServer, type SchemaServer } from '../src/lib/server/model/testing/schema-server';
import { startSamplingServer } from '../src/lib/server/model/testing/sampling-server';

const SERVERS: Record<ServerKind, (opts: { seed: number; dims: number; keepRequests: boolean }) => Promise<SchemaServer>> = {
	schema: startSchemaServer,
	prose: startProseServer,
	sampling: (opts) => startSamplingServer({ ...opts, latencyMs: [0, 50] })
};

export type ServerKind = 'schema' | 'prose' | 'sampling';

export interface AnyAnswerResult {
	server: ServerKind;
	steps: number;
	agents: number;
	wallMs: number;
	calls: number;
	failsafes: number;
	/** fail-safes per template */
	failsafesBy: Record<string, number>;
	/** why the first fail-safes were used (the gateway's reasons), at most 10 */
	failsafeReasons: string[];
	requests: number;
	wrapped: number;
	tokens: { prompt: number; completion: number };
	/** the first broken invariants, at most 20 */
	problems: string[];
	problemCount: number;
	replayMatches: boolean;
	replayMs: number;
	/** against the sampling server: the state hashes of the run, its rerun, its fork halfway and two runs made at once */
	identity?: { run: string; rerun: string; fork: string; twins: [string, string]; ms: number };
}

const DIMS = 64;
const ENV = {
	OPENAI_BASE_URL: '',
	SIMULACRA_CHAT_MODEL: 'random-valid-json',
	SIMULACRA_EMBED_MODEL: 'random-unit-vectors',
	SIMULACRA_EMBED_DIMENSIONS: String(DIMS),
	SIMULACRA_MODEL_CONCURRENCY: '32'
};

/** One Smallville run against a fresh test server, invariants checked after every step. */
export async function anyAnswerRun(
	kind: ServerKind,
	opts: { steps?: number; seed?: number; onProgress?: (done: number, total: number) => void } = {}
): Promise<AnyAnswerResult> {
	const steps = opts.steps ?? 8640;
	const seed = opts.seed ?? 1;
	const home = mkdtempSync(path.join(tmpdir(), `bench-any-answer-${kind}-`));
	const server = await SERVERS[kind]({ seed, dims: DIMS, keepRequests: false });
	const keys = [...Object.keys(ENV), 'SIMULACRA_HOME', 'SIMULACRA_MODELS', 'SIMULACRA_STRUCTURED', 'SIMULACRA_JSON_MODE', 'OPENAI_API_KEY'];
	const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
	for (const k of keys) delete process.env[k];
	Object.assign(process.env, ENV, { OPENAI_BASE_URL: server.url, SIMULACRA_HOME: home });
	try {
		const t0 = performance.now();
		const live = await LiveRun.start({ world: 'smallville', steps, seed, home, model: 'openai' });
		const seen = memoryTracker();
		const problems: string[] = [];
		let problemCount = 0;
		try {
			while (!live.done) {
				await live.advance();
				const found = invariantProblems(live.sim, live.sim.world, seen);
				problemCount += found.length;
				if (problems.length < 20) problems.push(...found.slice(0, 20 - problems.length));
				opts.onProgress?.(live.step, steps);
			}
		} finally {
			await live.close();
		}
		const wallMs = performance.now() - t0;
		const summary = live.summary();
		const failsafesBy: Record<string, number> = {};
		const failsafeReasons: string[] = [];
		for (const call of openRun(summary.run, home).calls()) {
			if (!call.failsafe) continue;
			failsafesBy[call.template] = (failsafesBy[call.template] ?? 0) + 1;
			if (failsafeReasons.length < 10) failsafeReasons.push(`${call.template}: ${(call.error ?? '').slice(0, 300)}`);
		}
		const r0 = performance.now();
		const restored = await loadState(summary.run, steps, { home });
		const replayMatches = stateHash(restored.sim) === summary.stateHash;
		const replayMs = performance.now() - r0;
		const identity = kind === 'sampling' ? await identities(summary.run, summary.stateHash, home, steps, seed) : undefined;
		return {
			server: kind,
			steps: summary.steps,
			agents: summary.agents,
			wallMs,
			calls: summary.llmCalls,
			failsafes: summary.failsafes,
			failsafesBy,
			failsafeReasons,
			requests: server.counts.chat,
			wrapped: server.counts.wrapped,
			tokens: summary.tokens,
			problems,
			problemCount,
			replayMatches,
			replayMs,
			identity
		};
	} finally {
		for (const [k, v] of Object.entries(saved)) {
			if (v === undefined) delete process.env[k];
			else process.env[k] = v;
		}
		await server.close();
		rmSync(home, { recursive: true, force: true });
	}
}

/** The same command again, a fork halfway, and two identical runs at once in a fresh data home. */
async function identities(run: string, hash: string, home: string, steps: number, seed: number): Promise<AnyAnswerResult['identity']> {
	const t0 = performance.now();
	const rerun = await startRun({ world: 'smallville', steps, seed, home, model: 'openai' });
	const half = Math.floor(steps / 2);
	const fork = await startRun({ home, from: { run, step: half }, steps: steps - half });
	const twinsHome = mkdtempSync(path.join(tmpdir(), 'bench-any-answer-twins-'));
	try {
		const twins = await Promise.all([0, 1].map(() => startRun({ world: 'smallville', steps, seed, home: twinsHome, model: 'openai' })));
		return { run: hash, rerun: rerun.stateHash, fork: fork.stateHash, twins: [twins[0].stateHash, twins[1].stateHash], ms: performance.now() - t0 };
	} finally {
		rmSync(twinsHome, { recursive: true, force: true });
	}
}

function percent(part: number, whole: number): string {
	return whole > 0 ? `${((100 * part) / whole).toFixed(2)}%` : '0%';
}

/** What the acceptance run aims for; returns the misses. */
export function misses(r: AnyAnswerResult): string[] {
	const out: string[] = [];
	if (r.problemCount > 0) out.push(`${r.problemCount} broken invariants, e.g. ${r.problems.slice(0, 3).join(' | ')}`);
	if (!r.replayMatches) out.push('restoring the last step from the journal gives another state hash');
	if (r.server === 'schema' && r.failsafes > 0) out.push(`${r.failsafes} fail-safes against the schema server (aim: none): ${JSON.stringify(r.failsafesBy)}`);
	if (r.server === 'prose' && r.failsafes >= 0.02 * r.calls) out.push(`fail-safes on ${percent(r.failsafes, r.calls)} of calls against the prose server (aim: under 2%)`);
	const id = r.identity;
	if (id && (id.rerun !== id.run || id.fork !== id.run)) out.push('the same command again, or a fork halfway, ends in another state');
	if (id && id.twins[0] !== id.twins[1]) out.push('two identical runs made at once end in different states');
	return out;
}

function rows(r: AnyAnswerResult) {
	const span = r.steps === 8640 ? 'one game day' : `${+(r.steps / 360).toFixed(1)} game hours`;
	const name = `${span}, Smallville (${r.agents} agents, ${r.steps.toLocaleString('en')} steps), OpenAI-compatible provider against the ${r.server} test server`;
	return [
		{ bench: name, figure: 'wall time', value: `${(r.wallMs / 1000).toFixed(0)} s for ${r.calls.toLocaleString('en')} calls (${r.requests.toLocaleString('en')} HTTP chat requests)` },
		{ bench: name, figure: 'fail-safes', value: `${r.failsafes} (${percent(r.failsafes, r.calls)} of calls)${r.failsafes ? ` ${JSON.stringify(r.failsafesBy)}` : ''}` },
		{ bench: name, figure: 'broken invariants (checked after every step) / journal restores the same state', value: `${r.problemCount} / ${r.replayMatches ? 'yes' : 'NO'} (${(r.replayMs / 1000).toFixed(1)} s)` },
		...(r.identity ? [identityRow(name, r.identity)] : [])
	];
}

function identityRow(name: string, id: NonNullable<AnyAnswerResult['identity']>) {
	const short = (h: string) => h.slice(0, 12);
	const same = (h: string) => `${short(h)} (${h === id.run ? 'same' : 'DIFFERS'})`;
	const twins = `${short(id.twins[0])} / ${short(id.twins[1])} (${id.twins[0] === id.twins[1] ? 'same' : 'DIFFER'})`;
	return { bench: name, figure: 'state hash: run / rerun / fork halfway; two identical runs at once', value: `${short(id.run)} / ${same(id.rerun)} / ${same(id.fork)}; ${twins} (${(id.ms / 1000).toFixed(0)} s)` };
}

/** Both servers, as bench rows. */
export async function benchAnyAnswer() {
	const out = [];
	for (const kind of ['schema', 'prose', 'sampling'] as const) out.push(...rows(await anyAnswerRun(kind)));
	return out;
}

async function main() {
	const { values } = parseArgs({ options: { steps: { type: 'string', default: '8640' }, server: { type: 'string', default: 'schema,prose,sampling' }, seed: { type: 'string', default: '1' } } });
	const steps = Number(values.steps);
	if (!Number.isInteger(steps) || steps < 1) throw new Error(`--steps must be a positive whole number (got "${values.steps}")`);
	const kinds = values.server.split(',').map((s) => s.trim());
	for (const k of kinds) if (!(k in SERVERS)) throw new Error(`--server takes schema, prose, sampling or several of them (got "${k}")`);
	let failed = false;
	for (const kind of kinds as ServerKind[]) {
		let last = 0;
		const r = await anyAnswerRun(kind, {
			steps,
			seed: Number(values.seed) || 1,
			onProgress: (done, total) => {
				if (done - last >= 720 || done === total) {
					last = done;
					process.stderr.write(`${kind}: step ${done}/${total}\n`);
				}
			}
		});
		for (const row of rows(r)) process.stdout.write(`${row.bench} | ${row.figure} | ${row.value}\n`);
		const missed = misses(r);
		for (const m of missed) process.stdout.write(`MISSED (${kind}): ${m}\n`);
		for (const reason of r.failsafeReasons) process.stdout.write(`fail-safe (${kind}): ${reason}\n`);
		if (missed.length) failed = true;
	}
	process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	main().catch((e) => {
		process.stderr.write(`error: ${(e as Error).message}\n`);
		process.exitCode = 1;
	});
}
