// The command line's imports from the reference implementation (joonspk-research/generative_agents):
//   world import CHECKOUT --storage SIM --name NAME   its town and a starting simulation as a world
//   runs import FOLDER --world W [--model M] [--snapshot-every N]   a recorded simulation as a run

import { importReference, type ReferenceImportReport } from '../lib/server/world/import-reference';
import { importRecording, type RunImportReport } from '../lib/server/run/import-run';
import type { ModelChoice } from '../lib/server/run/models';
import { WorldError, formatProblem } from '../lib/world/problems';
import { formatBytes } from '../lib/server/limits';

type Out = { json: boolean };

function write(out: Out, value: unknown, text: () => string): void {
	process.stdout.write(out.json ? JSON.stringify(value, null, 2) + '\n' : text() + '\n');
}

/** A refused import: one line per problem (file, row) and exit code 1. */
function refused(out: Out, what: string, e: unknown): number {
	if (!(e instanceof WorldError)) throw e;
	const error = `cannot import ${what}: ${e.problems.length} problem${e.problems.length === 1 ? '' : 's'}`;
	if (out.json) process.stdout.write(JSON.stringify({ ok: false, error, problems: e.problems }, null, 2) + '\n');
	else process.stderr.write(`error: ${error}\n${e.problems.map((p) => `  ${formatProblem(p)}\n`).join('')}`);
	return 1;
}

export function worldImportText(r: ReferenceImportReport): string {
	return [
		`imported the town and storage/${r.simulation} as world "${r.world}" (${r.dir}) in ${(r.ms / 1000).toFixed(1)} s`,
		`  map ${r.map}: ${r.layers.length} layers (${r.layers.filter((l) => l.visible).length} shown)`,
		`  ${r.zones.sectors} sectors, ${r.zones.arenas} arenas, ${r.zones.objects} objects, ${r.zones.spawns} spawns`,
		`  starts ${r.start.replace('T', ' ')}, ${r.secondsPerStep} s a step`,
		`  ${r.personas.length} personas: ${r.personas.map((p) => p.name).join(', ')}`,
		...vectorLines(r),
		...(r.missingImages.length ? [`  ${r.missingImages.length} tileset images missing (placeholders drawn):`, ...r.missingImages.map((m) => `    ${m}`)] : []),
		...r.warnings.map((w) => `  warning: ${w}`),
		`  run it: npm run simulacra -- run --world ${r.world} --steps 360`
	].join('\n');
}

/** Per persona with seed memories: whether the vectors of embeddings.json were kept, and their dimension. */
function vectorLines(r: ReferenceImportReport): string[] {
	const withMemories = r.personas.filter((p) => p.seedMemories > 0);
	const dims = [...new Set(withMemories.flatMap((p) => ('file' in p.vectors ? [p.vectors.dimension] : [])))];
	return [
		...withMemories.map((p) => {
			const v = p.vectors;
			const seeds = `${p.seedMemories} seed memor${p.seedMemories === 1 ? 'y' : 'ies'}`;
			return 'file' in v
				? `  ${p.name}: ${seeds}, embeddings of ${v.kept} kept (${v.dimension} dimensions, ${v.file}, ${formatBytes(v.bytes)})`
				: `  ${p.name}: ${seeds}, embeddings not kept (${v.reason}): a run embeds them`;
		}),
		...(dims.length ? [`  a run whose embedder has ${dims.join(' or ')} dimensions starts with the kept embeddings; any other embeds the seed memories itself`] : [])
	];
}

export async function worldImportReference(checkout: string, opts: { storage: string; name: string }, out: Out): Promise<number> {
	try {
		const r = await importReference(checkout, { simulation: opts.storage, name: opts.name });
		write(out, r, () => worldImportText(r));
		return 0;
	} catch (e) {
		return refused(out, checkout, e);
	}
}

export function runsImportText(r: RunImportReport): string {
	return [
		`imported ${r.form} recording as run ${r.run} of world ${r.world} in ${(r.ms.total / 1000).toFixed(1)} s`,
		`  steps 0..${r.steps} (${r.start.replace('T', ' ')} to ${r.end.replace('T', ' ')}), ${r.snapshots} snapshots (every ${r.snapshotEvery} steps and the last), ${r.conversations} conversations`,
		...r.agents.map((a) => `  ${a.name}: ${a.memories} memories (embeddings ${a.embeddings === 'recording' ? 'from embeddings.json' : 'computed by the run\'s embedder'})`),
		`  not in the recording: ${r.missing.join('; ')}`,
		...r.warnings.map((w) => `  warning: ${w}`),
		`  continue it: npm run simulacra -- run --from ${r.run}@${r.steps} --steps 360`
	].join('\n');
}

export async function runsImport(folder: string, opts: { world: string; model?: string; snapshotEvery?: number }, out: Out): Promise<number> {
	if (opts.model !== undefined && opts.model !== 'offline' && opts.model !== 'openai') throw new Error(`--model is offline or openai, not "${opts.model}"`);
	const tty = !out.json && process.stderr.isTTY === true;
	try {
		const r = await importRecording(folder, {
			world: opts.world,
			model: opts.model as ModelChoice | undefined,
			snapshotEvery: opts.snapshotEvery,
			onProgress: tty ? (done, total) => process.stderr.write(`\rwriting step ${done}/${total}\x1b[K${done === total ? '\n' : ''}`) : undefined
		});
		write(out, r, () => runsImportText(r));
		return 0;
	} catch (e) {
		return refused(out, folder, e);
	}
}
