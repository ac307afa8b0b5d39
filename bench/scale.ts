// Scale: Smallville tiled 1x1, 2x2 and 4x4 (25, 100 and 400 agents at Smallville's density),
// one game day each, offline. Each town is generated into a temporary folder and each day runs
// in its own process, so the peak memory is that run's alone.
//
//   npx tsx bench/scale.ts [--tiles 1,2,4] [--steps 8640]   (prints the rows as JSON)
//   npx tsx bench/scale.ts --child WORLD_DIR STEPS HOME      (one run; prints its figures)

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { tiledWorldId, tilesOf, writeTiledSmallville } from '../scripts/town/tile-town';

interface Row {
	bench: string;
	figure: string;
	value: string;
}

export interface ScaleFigures {
	tiles: number;
	agents: number;
	steps: number;
	wallMs: number;
	/** CPU time of the whole process (user + system), which other work on the machine does not inflate */
	cpuMs: number;
	/** peak resident memory of the run's process, bytes */
	peakRss: number;
	llmCalls: number;
	tokens: number;
}

const DAY = 8640;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');

async function child(worldDir: string, steps: number, home: string): Promise<void> {
	const { startRun } = await import('../src/lib/server/run/runner');
	const s = await startRun({ world: worldDir, steps, seed: 1, home });
	const cpu = process.cpuUsage();
	const out = {
		agents: s.agents,
		steps,
		wallMs: s.wallMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		llmCalls: s.llmCalls,
		tokens: s.tokens.prompt + s.tokens.completion,
		peakRss: process.resourceUsage().maxRSS * 1024
	};
	process.stdout.write(`${JSON.stringify(out)}\n`);
}

/** One game day (or `steps`) of Smallville tiled n x n, in a child process. */
export function scaleRun(n: number, steps = DAY): ScaleFigures {
	const dir = mkdtempSync(path.join(tmpdir(), 'bench-scale-'));
	try {
		writeTiledSmallville(path.join(dir, 'worlds'), tilesOf(n));
		const worldDir = path.join(dir, 'worlds', tiledWorldId(n));
		const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
		const text = execFileSync(tsx, [path.join(HERE, 'scale.ts'), '--child', worldDir, String(steps), path.join(dir, 'home')], {
			cwd: ROOT,
			encoding: 'utf8',
			maxBuffer: 1 << 24,
			env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=6144`.trim() }
		});
		const last = text.trim().split('\n').pop() ?? '';
		return { tiles: n, ...(JSON.parse(last) as Omit<ScaleFigures, 'tiles'>) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

export function scaleRows(figures: ScaleFigures[]): Row[] {
	const rows: Row[] = [];
	const base = figures[0];
	for (const f of figures) {
		const name = `one game day, Smallville tiled ${f.tiles}x${f.tiles} (${f.agents} agents, ${f.steps.toLocaleString('en')} steps), offline`;
		const agentSteps = f.agents * f.steps;
		const perAgentStep = f.wallMs / agentSteps;
		rows.push(
			{ bench: name, figure: 'wall time', value: `${(f.wallMs / 1000).toFixed(1)} s` },
			{ bench: name, figure: 'wall time per agent-step (against 1x1)', value: `${(perAgentStep * 1000).toFixed(1)} µs (${(perAgentStep / (base.wallMs / (base.agents * base.steps))).toFixed(2)}x)` },
			{ bench: name, figure: 'CPU time per agent-step (against 1x1)', value: `${((f.cpuMs / agentSteps) * 1000).toFixed(1)} µs (${(f.cpuMs / agentSteps / (base.cpuMs / (base.agents * base.steps))).toFixed(2)}x)` },
			{ bench: name, figure: 'peak memory (resident, whole process)', value: `${Math.round(f.peakRss / 2 ** 20)} MB` },
			{ bench: name, figure: 'model calls / prompt + completion tokens per agent-step', value: `${(f.llmCalls / agentSteps).toFixed(3)} / ${(f.tokens / agentSteps).toFixed(1)}` }
		);
	}
	return rows;
}

export async function benchScale(): Promise<Row[]> {
	return scaleRows([1, 2, 4].map((n) => scaleRun(n)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	const { values, positionals } = parseArgs({
		allowPositionals: true,
		options: { child: { type: 'boolean', default: false }, tiles: { type: 'string', default: '1,2,4' }, steps: { type: 'string', default: String(DAY) } }
	});
	if (values.child) {
		const [worldDir, steps, home] = positionals;
		await child(worldDir, Number(steps), home);
	} else {
		const figures = values.tiles.split(',').map((t) => scaleRun(Number(t), Number(values.steps)));
		console.log(JSON.stringify(figures));
		for (const r of scaleRows(figures)) console.log(`| ${r.bench} | ${r.figure} | ${r.value} |`);
	}
}
