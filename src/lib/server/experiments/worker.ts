// A worker process of an experiment (started by `pool.ts` with `child_process.fork`): runs the
// replicates it is sent one at a time, through the runner's public functions, and reports each
// run's id, progress and metrics. Every fetch waits for a grant from the parent's call broker.

import { SAMPLING_INDEX_ENV } from '../model/cache';
import { loadModelConfig } from '../model/config';
import { LiveRun, openRun, resumeRun, RunPausedError, type RunSummary } from '../run/runner';
import { installFetchGate, type Grant } from './broker';
import { computeMetrics } from './metrics';
import type { ToParent, ToWorker, WorkOrder } from './protocol';

function send(msg: ToParent): void {
	process.send?.(msg);
}

const waiting = new Map<number, (g: Grant) => void>();
let nextAsk = 1;
let gateInstalled = false;

function gate(endpoints: string[], model: string): void {
	if (gateInstalled) return;
	gateInstalled = true;
	let configured: string[] = [];
	if (model === 'openai' && endpoints.length) {
		try {
			configured = Object.values(loadModelConfig(process.env).endpoints).map((e) => e.baseURL);
		} catch {
			configured = [];
		}
	}
	installFetchGate({
		endpoints,
		configured: [...configured, ...endpoints],
		acquire: () =>
			new Promise<Grant>((resolve) => {
				const ask = nextAsk++;
				waiting.set(ask, resolve);
				send({ type: 'acquire', ask });
			}),
		release: (id) => send({ type: 'release', id })
	});
}

async function runOrder(order: WorkOrder): Promise<void> {
	const { job } = order;
	process.env[SAMPLING_INDEX_ENV] = String(job.sample);
	let lastSent = 0;
	const onProgress = (done: number, total: number) => {
		const now = Date.now();
		if (now - lastSent < 200 && done < total) return;
		lastSent = now;
		send({ type: 'progress', key: job.key, done, total });
	};
	const t0 = performance.now();
	let summary: RunSummary | null = null;
	let run: string;
	if (order.resume) {
		run = order.resume;
		const reader = openRun(run, order.home);
		send({ type: 'started', key: job.key, run });
		if (reader.committed() < reader.meta.target || reader.meta.status !== 'done') summary = await resumeRun(run, { home: order.home, onProgress });
	} else {
		const live = await LiveRun.start({
			world: order.world,
			steps: order.steps,
			seed: job.seed,
			model: order.model,
			...(order.from && { from: order.from }),
			...(order.promptsDir && { promptsDir: order.promptsDir }),
			set: order.set,
			home: order.home
		});
		run = live.meta.id;
		send({ type: 'started', key: job.key, run });
		let paused: RunPausedError | null = null;
		try {
			await live.runToTarget(onProgress);
		} catch (e) {
			if (!(e instanceof RunPausedError)) throw e;
			paused = e;
		} finally {
			await live.close(paused ? 'paused' : undefined);
		}
		if (paused) throw new Error(`run ${run} paused: ${paused.pause.message}`);
		summary = live.summary();
	}
	if (summary && summary.status === 'paused') throw new Error(`run ${run} paused: ${summary.pause?.message ?? 'see the run'}`);
	const metrics = await computeMetrics(run, { home: order.home, summary, metrics: order.metrics });
	send({ type: 'done', key: job.key, run, metrics, wallMs: Math.round(performance.now() - t0), stateHash: summary?.stateHash });
}

process.on('message', (msg: ToWorker) => {
	if (msg.type === 'grant') {
		const resolve = waiting.get(msg.ask);
		waiting.delete(msg.ask);
		resolve?.({ id: msg.id, endpoint: msg.endpoint });
	} else if (msg.type === 'run') {
		gate(msg.order.endpoints, msg.order.model);
		runOrder(msg.order).catch((e: unknown) => {
			send({ type: 'failed', key: msg.order.job.key, error: e instanceof Error ? e.message : String(e) });
		});
	} else if (msg.type === 'exit') {
		process.exit(0);
	}
});

// the parent went away (killed): stop too; an unfinished run is resumed next time
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
