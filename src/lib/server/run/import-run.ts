// Importing a simulation recorded by the reference implementation as a run of a world:
//
//   npm run simulacra -- runs import <recording folder> --world <id>
//
// The run is an ordinary run folder (../journal/journal.ts) whose step N is the recording's step
// N: a commit line per step with every agent's tile, action (the description before " @ "),
// address (after it, without the world's name), emoji and the conversations that begin, and a
// snapshot every `snapshotEvery` steps and at the last, each agent's memories from nodes.json
// (in LanceDB, with their kinds, times, importance and evidence) counted in by the step they
// were made at. The recording holds no model answers to replay from one snapshot to the next;
// a state between two snapshots follows from the commit lines instead (./imported-states.ts),
// and the snapshots are made the same way, so a restored state is the one the import had. The
// last step's state is that of the recording's end, from which a fork runs on in the studio.
//
// Everything is read and checked first; the run folder is made only then, and removed again
// when writing it fails.

import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MemoryRecord } from '../../engine/memory';
import { agentViews, type AgentView } from '../../engine/sim';
import { NO_ABLATION, type ConversationRecord, type StepEvent } from '../../engine/state';
import { timeAtStep, formatIso } from '../../engine/clock';
import type { WorldDef } from '../../engine/types';
import type { ImportedRecording } from '../../api/types';
import { RunWriter, type RunMeta } from '../journal/journal';
import { MemoryStore } from '../memory/lance-store';
import { dataHome } from '../paths';
import { stagePromptSet } from '../prompts/store';
import { createModel, type ModelChoice } from './models';
import { SNAPSHOT_EVERY } from './runner';
import { loadWorld } from '../world/load';
import { RefFiles } from '../world/reference/files';
import { memoriesOf, type ImportedMemory } from '../world/reference/memories';
import { readRecording, recordingForm, splitDescription, type Recording, type Shown } from '../world/reference/recording';
import { VECTORS_EXT } from '../world/vectors';
import { readEmbeddings, readNodes, readScratch, readSpatial, type RefScratch } from '../world/reference/simulation';
import { WorldError, formatProblem } from '../../world/problems';
import { copyConfined } from '../store/copy';
import { changesAt, ImportedReplay, type ImportedLine } from '../store/imported-states';
import { runsDir } from '../store/store';

export interface RunImportReport {
	ok: true;
	run: string;
	dir: string;
	world: string;
	form: Recording['form'];
	/** steps 0..steps */
	steps: number;
	start: string;
	end: string;
	agents: { id: string; name: string; memories: number; embeddings: 'recording' | 'computed' }[];
	conversations: number;
	/** a snapshot every this many steps (and at step 0 and the last); run.json's `snapshotEvery` */
	snapshotEvery: number;
	/** snapshots written */
	snapshots: number;
	/** what the recording does not hold, so the run does not either */
	missing: string[];
	warnings: string[];
	ms: { read: number; embed: number; write: number; total: number };
}

/** A run's record of where it came from (run.json's `imported`). */
export type ImportedFrom = ImportedRecording;

interface Agent {
	id: string;
	name: string;
	scratch: RefScratch;
	spatial: Record<string, Record<string, string[]>>;
	memories: ImportedMemory[];
	records: MemoryRecord[];
	/** per memory: the first step whose state holds it */
	from: number[];
	embeddings: 'recording' | 'computed';
}

const newRunId = (world: string) => `${world}-import-${new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-${randomBytes(3).toString('hex')}`;

/**
 * Imports the recording in `folder` (expanded or compressed) as a new run of `world`. Throws a
 * WorldError naming the files and rows at fault, with nothing written.
 */
export async function importRecording(
	folder: string,
	opts: {
		world: string;
		home?: string;
		worldsDir?: string;
		model?: ModelChoice;
		/**
		 * a snapshot every this many steps (and at the last; default the runner's SNAPSHOT_EVERY): a
		 * whole number of at least 1. The states between are restored from the commit lines, from
		 * the nearest snapshot before, so fewer snapshots take less disk and longer restores.
		 */
		snapshotEvery?: number;
		onProgress?: (done: number, total: number) => void;
	}
): Promise<RunImportReport> {
	const t0 = performance.now();
	const every = opts.snapshotEvery ?? SNAPSHOT_EVERY;
	if (!Number.isInteger(every) || every < 1) throw new RangeError(`snapshotEvery must be a whole number of at least 1, not ${every}`);
	const home = opts.home ?? dataHome();
	const files = new RefFiles(path.resolve(folder), '', folder);
	if (!files.isDir('')) throw new WorldError([{ file: folder, message: 'folder not found' }], 'import');
	if (!recordingForm(files)) {
		await readRecording(files, { width: 0, height: 0 }); // says what it expected
		files.failIfErrors('import');
	}
	const loaded = await loadWorld(opts.world, opts.worldsDir ? { worldsDir: opts.worldsDir } : {});
	const world = loaded.def;
	const rec = await readRecording(files, world);
	files.failIfErrors('import');
	const r = rec as Recording;
	const warnings: string[] = [];

	// ---- agents: the world's personas by name -------------------------------------------------
	const byName = new Map(world.personas.map((p) => [p.name.toLowerCase(), p]));
	const unknown = r.meta.personas.filter((n) => !byName.has(n.toLowerCase()));
	if (unknown.length)
		files.error(
			r.meta.file,
			'"persona_names"',
			`${unknown.map((n) => `"${n}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a persona of world "${world.id}" (its personas: ${world.personas.map((p) => p.name).join(', ') || 'none'}); import the world from the same simulation (world import --storage)`
		);
	const absent = world.personas.filter((p) => !r.meta.personas.some((n) => n.toLowerCase() === p.name.toLowerCase()));
	if (absent.length) files.error(r.meta.file, '"persona_names"', `the recording has no ${absent.map((p) => `"${p.name}"`).join(', ')}, a persona of world "${world.id}"`);
	files.failIfErrors('import');
	const start = r.meta.start;
	const stepMs = r.meta.secondsPerStep * 1000;
	if (world.start !== start || world.secondsPerStep !== r.meta.secondsPerStep)
		warnings.push(
			`world "${world.id}" starts at ${formatIso(world.start)} with ${world.secondsPerStep} s a step; the run keeps the recording's clock (${formatIso(start)}, ${r.meta.secondsPerStep} s a step) in its copy of the world`
		);
	const last = r.last;
	const timeOf = (step: number) => timeAtStep(start, r.meta.secondsPerStep, step);

	const agents: Agent[] = [];
	for (const name of r.meta.personas) {
		const p = byName.get(name.toLowerCase())!;
		const dir = `personas/${name}/bootstrap_memory`;
		if (!files.isDir(`personas/${name}`)) {
			files.error(`personas/${name}`, undefined, `not found: the recording's persona "${name}" has no folder`);
			continue;
		}
		const scratch = await readScratch(files, `${dir}/scratch.json`);
		const spatial = await readSpatial(files, `${dir}/spatial_memory.json`);
		const nodes = await readNodes(files, `${dir}/associative_memory/nodes.json`);
		if (!scratch || !spatial || !nodes) continue;
		agents.push({ id: p.id, name: p.name, scratch, spatial, memories: memoriesOf(nodes, name, start), records: [], from: [], embeddings: 'recording' });
	}
	files.failIfErrors('import');
	agents.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	const tRead = performance.now();

	// ---- the model: prompts, identity and the embedder ----------------------------------------
	const staged = stagePromptSet(undefined, home);
	let model: Awaited<ReturnType<typeof createModel>> | undefined;
	try {
		model = await createModel(opts.model ?? 'offline', { home, promptsDir: staged.dir }).catch((e) => {
			throw staged.explain(e);
		});
		const dimensions = await model.resolveDimensions();
		for (const a of agents) {
			const vectors = await readEmbeddings(files, `personas/${a.name}/bootstrap_memory/associative_memory/embeddings.json`);
			const fit = a.memories.every((m) => vectors.get(m.node.embeddingKey)?.length === dimensions);
			if (a.memories.length && !fit) {
				a.embeddings = 'computed';
				if (vectors.size) warnings.push(`${a.name}: the embeddings of embeddings.json have ${[...vectors.values()][0].length} dimensions, the run's embedder ${dimensions}; the memories are embedded again by ${model.label}`);
			}
			const texts = a.memories.map((m) => m.node.embeddingKey);
			const embedded: Float32Array[] = [];
			if (a.embeddings === 'recording') for (const t of texts) embedded.push(Float32Array.from(vectors.get(t)!));
			else for (let k = 0; k < texts.length; k += 256) embedded.push(...(await model.embed(texts.slice(k, k + 256))));
			// the first frame whose time is at or after a memory was made holds it (and every later
			// one: the stream is in the order the memories were made, so none is counted before an
			// earlier one)
			for (const m of a.memories) a.from.push(Math.max(a.from.at(-1) ?? 0, Math.min(last, Math.max(0, Math.ceil((m.created - start) / stepMs)))));
			a.memories.forEach((m, i) => {
				const at = a.from[i];
				const rec: MemoryRecord = {
					id: `${a.id}/m${i}`,
					agent: a.id,
					index: i,
					kind: m.kind,
					source: m.source,
					description: m.description,
					created: m.created,
					step: Math.max(0, at - 1),
					importance: m.importance,
					...(m.evidence.length ? { evidence: m.evidence.map((e) => `${a.id}/m${e}`) } : {}),
					...(m.with !== undefined ? { with: byName.get(m.with.toLowerCase())?.id ?? m.with } : {}),
					embedding: embedded[i]
				};
				a.records.push(rec);
			});
		}
		const tEmbed = performance.now();

		// ---- write the run ---------------------------------------------------------------------
		const meta: RunMeta & { imported: ImportedFrom } = {
			id: newRunId(world.id),
			world: world.id,
			worldName: world.name,
			seed: 1,
			model: { provider: model.provider, model: model.modelName, label: model.label },
			promptSet: model.promptSet,
			settings: world.settings,
			ablate: { ...NO_ABLATION },
			overrides: [],
			parent: null,
			firstStep: 0,
			snapshotEvery: every,
			created: new Date().toISOString(),
			status: 'running',
			dimensions,
			target: last,
			identity: { ...model.identity, embed: { ...model.identity.embed, dimensions } },
			modelChanges: [],
			prices: {},
			budget: null,
			pause: null,
			imported: {
				from: path.resolve(folder),
				form: r.form,
				simulation: path.basename(path.resolve(folder)),
				steps: last,
				missing: MISSING
			}
		};
		const writer = RunWriter.create(runsDir(home), meta, 'CLI');
		let store: MemoryStore | null = null;
		let snapshots = 0;
		let conversations = 0;
		try {
			copyConfined(loaded.dir, path.join(writer.dir, 'world'), 'world folder');
			if (world.start !== start || world.secondsPerStep !== r.meta.secondsPerStep) {
				const file = path.join(writer.dir, 'world', 'world.json');
				const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
				writeFileSync(file, JSON.stringify({ ...manifest, start: formatIso(start), secondsPerStep: r.meta.secondsPerStep }, null, '\t') + '\n');
			}
			// the run's memories are the recording's: its copy of the world keeps no structured seed
			// memories (which might also lie after the recording's start), nor their vectors
			const personas = path.join(writer.dir, 'world', 'personas');
			for (const f of existsSync(personas) ? readdirSync(personas).filter((n) => n.endsWith(VECTORS_EXT)) : []) rmSync(path.join(personas, f), { force: true });
			for (const f of existsSync(personas) ? readdirSync(personas).filter((n) => n.endsWith('.json')) : []) {
				const file = path.join(personas, f);
				const persona = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
				if (persona.memories === undefined) continue;
				delete persona.memories;
				writeFileSync(file, JSON.stringify(persona, null, '\t') + '\n');
			}
			copyConfined(staged.dir, path.join(writer.dir, 'prompts'), 'prompts folder');
			store = await MemoryStore.open(writer.dir, dimensions);
			await store.append(agents.flatMap((a) => a.records));
			// every step's commit line first (what the map shows, from the recording), then the
			// states from the lines, as a restore between two snapshots makes them
			const states = new States(world, r, agents, timeOf);
			const views0 = states.views();
			const start0 = agents.map((a, i) => ({ id: a.id, name: a.name, view: views0[i], size: states.sizeOf(a), importanceSinceReflection: states.pendingOf(a), spatial: a.spatial }));
			const frames = Array.from({ length: last }, (_, k) => states.advance(k + 1));
			const lineOf = (n: number): ImportedLine => ({ step: n - 1, agents: frames[n - 1].views, conversations: frames[n - 1].convs, memories: frames[n - 1].memories.length });
			const ends = actionEnds(agents, views0, last, lineOf);
			const records = new Map(agents.map((a) => [a.id, a.records]));
			// the world as the run's copy has it: on the recording's clock
			const runWorld: WorldDef = { ...world, start, secondsPerStep: r.meta.secondsPerStep };
			// at the end, importance since the last reflection is the recording's own count
			const recorded = new Map(agents.map((a) => [a.id, Math.max(0, a.scratch.importanceTriggerMax - a.scratch.importanceTriggerCurr)]));
			let replay = ImportedReplay.begin(runWorld, records, start0);
			const write = (n: number) => {
				const snap = replay.snapshot((id) => (ends.get(id) as number[])[n], n === last ? recorded : undefined);
				writer.snapshot(snap);
				snapshots++;
				// carry on from what was written, exactly as a restore from this snapshot does
				replay = ImportedReplay.resume(runWorld, snap, n === 0 ? agentViews(snap.state, world.width) : lineOf(n).agents, records);
			};
			write(0);
			for (let n = 1; n <= last; n++) {
				const { views, events, convs, memories } = frames[n - 1];
				conversations += convs.length;
				writer.commit({ step: n - 1, time: timeOf(n - 1), memories, traces: [], conversations: convs, events }, [], [], views);
				replay.apply(lineOf(n));
				if (n % every === 0 || n === last) write(n);
				if (n % 500 === 0) opts.onProgress?.(n, last);
			}
			opts.onProgress?.(last, last);
			writer.setStatus('done');
			writer.close();
			store.close();
		} catch (e) {
			store?.close();
			writer.close();
			rmSync(writer.dir, { recursive: true, force: true });
			throw e;
		}
		const t1 = performance.now();
		return {
			ok: true,
			run: meta.id,
			dir: writer.dir,
			world: world.id,
			form: r.form,
			steps: last,
			start: formatIso(timeOf(0)),
			end: formatIso(timeOf(last)),
			agents: agents.map((a) => ({ id: a.id, name: a.name, memories: a.records.length, embeddings: a.embeddings })),
			conversations,
			snapshotEvery: every,
			snapshots,
			missing: MISSING,
			warnings: [...files.problems.warnings.map(formatProblem), ...warnings],
			ms: { read: Math.round(tRead - t0), embed: Math.round(tEmbed - tRead), write: Math.round(t1 - tEmbed), total: Math.round(t1 - t0) }
		};
	} finally {
		model?.close();
		staged.remove();
	}
}

/** What a recording does not hold (and the imported run therefore lacks). */
const MISSING = [
	'model calls and retrieval traces (the call inspector, retrieval tables and re-scoring have nothing to show before the recording ends)',
	'day plans (each state has no plan; a fork plans its day anew)',
	"objects' states (the recording keeps only the agents)"
];

/** What every step shows, built forward one step at a time from the recording. */
class States {
	private readonly at = new Map<string, number>();
	private readonly shown = new Map<string, Shown>();
	/** per agent: the conversation (lines as JSON) it is in, and with whom */
	private readonly inChat = new Map<string, { key: string; with: string[] }>();
	private readonly size = new Map<string, number>();
	private readonly byName: Map<string, Agent>;

	constructor(
		private readonly world: WorldDef,
		private readonly rec: Recording,
		private readonly agents: Agent[],
		private readonly timeOf: (step: number) => number
	) {
		this.byName = new Map(agents.map((a) => [a.name.toLowerCase(), a]));
		for (const a of agents) {
			this.at.set(a.id, 0);
			this.size.set(a.id, 0);
			this.update(a, 0);
			this.grow(a, 0);
		}
	}

	/** Memories held now. */
	sizeOf(a: Agent): number {
		return this.size.get(a.id)!;
	}

	/** Importance of the memories held now, reflections left out (the start's count). */
	pendingOf(a: Agent): number {
		return a.records.slice(0, this.sizeOf(a)).reduce((sum, m) => sum + (m.kind === 'reflection' ? 0 : m.importance), 0);
	}

	/** What the map shows of each agent now. */
	views(): AgentView[] {
		return this.agents.map((a) => this.view(a, this.shown.get(a.id)!));
	}

	private changesOf(a: Agent) {
		return this.rec.changes.get([...this.rec.changes.keys()].find((n) => n.toLowerCase() === a.name.toLowerCase())!)!;
	}

	/** Takes the agent's recorded change at step n, if any. */
	private update(a: Agent, n: number): boolean {
		const list = this.changesOf(a);
		const k = this.at.get(a.id)!;
		if (k < list.length && list[k][0] === n) {
			this.shown.set(a.id, list[k][1]);
			this.at.set(a.id, k + 1);
			return true;
		}
		return false;
	}

	/** The memories made by step n; returns those new at n. */
	private grow(a: Agent, n: number): MemoryRecord[] {
		let size = this.size.get(a.id)!;
		const out: MemoryRecord[] = [];
		while (size < a.records.length && a.from[size] <= n) out.push(a.records[size++]);
		this.size.set(a.id, size);
		return out;
	}

	private chatWith(a: Agent, s: Shown): string {
		const { address } = splitDescription(s.description);
		const named = /^<persona>\s*(.+)$/.exec(address)?.[1]?.trim();
		const other = named ?? s.chat?.find(([speaker]) => speaker.toLowerCase() !== a.name.toLowerCase())?.[0];
		return other ? (this.byName.get(other.toLowerCase())?.id ?? '') : '';
	}

	private view(a: Agent, s: Shown): AgentView {
		const { activity, address } = splitDescription(s.description);
		return { id: a.id, name: a.name, x: s.x, y: s.y, activity, emoji: s.emoji, address, chatWith: s.chat ? this.chatWith(a, s) : '', path: [] };
	}

	/** Steps to n: the views after it, the events and conversations that begin, the memories made. */
	advance(n: number): { views: AgentView[]; events: StepEvent[]; convs: ConversationRecord[]; memories: MemoryRecord[] } {
		const events: StepEvent[] = [];
		const convs: ConversationRecord[] = [];
		const memories: MemoryRecord[] = [];
		const now = this.timeOf(n);
		for (const a of this.agents) {
			this.update(a, n);
			const made = this.grow(a, n);
			memories.push(...made);
			const reflections = made.filter((m) => m.kind === 'reflection').map((m) => m.id);
			if (reflections.length) events.push({ kind: 'reflection', agent: a.id, memories: reflections });
			if (made.some((m) => m.kind === 'plan')) events.push({ kind: 'plan', agent: a.id, day: Math.floor(now / 86_400_000) });
		}
		// conversations: a chat that begins (new lines) is one conversation of the two speakers
		for (const a of this.agents) {
			const s = this.shown.get(a.id)!;
			const prev = this.inChat.get(a.id);
			const key = s.chat ? JSON.stringify(s.chat) : '';
			if (prev && prev.key !== key) this.inChat.delete(a.id);
			if (!key || this.inChat.has(a.id)) continue;
			const other = this.chatWith(a, s);
			const pair = [a.id, other].filter(Boolean).sort() as [string, string];
			this.inChat.set(a.id, { key, with: other ? [other] : [] });
			const mine = this.agents.find((b) => b.id === other);
			const theirs = mine ? this.inChat.get(mine.id) : undefined;
			if (theirs && theirs.key === key) continue; // counted from the other side
			if (pair.length < 2) pair.push(pair[0]);
			const id = `import-${n}-${pair.join('-')}`;
			const t = s.y * this.world.width + s.x;
			const arena = this.world.sectors.flatMap((x) => x.arenas).find((ar) => ar.tiles.includes(t));
			convs.push({ id, step: n - 1, time: this.timeOf(n - 1), endStep: n - 1, agents: pair, address: arena?.address ?? '', lines: s.chat!.map(([speaker, text]) => ({ speaker, text })) });
			events.push({ kind: 'conversation', agents: pair, id });
		}
		return { views: this.agents.map((a) => this.view(a, this.shown.get(a.id)!)), events, convs, memories };
	}
}

/**
 * Per agent, for every step n: the step its action then ends at, the next step at which it
 * changes (`changesAt`), else the recording's last.
 */
function actionEnds(agents: readonly Agent[], views0: readonly AgentView[], last: number, lineOf: (n: number) => ImportedLine): Map<string, number[]> {
	const out = new Map<string, number[]>();
	agents.forEach((a, i) => {
		const ends = new Array<number>(last + 1);
		ends[last] = last;
		for (let n = last - 1; n >= 0; n--) {
			const before = n === 0 ? views0[i] : (lineOf(n).agents.find((v) => v.id === a.id) as AgentView);
			ends[n] = changesAt(before, lineOf(n + 1), a.id) ? n + 1 : ends[n + 1];
		}
		out.set(a.id, ends);
	});
	return out;
}
