import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentView } from '../../engine/sim';
import type { StepLine } from '../journal/journal';
import { defaultWorldsDir } from '../world/analyse';
import { JsonlIndex } from './jsonl-index';
import { RunManager } from './manager';
import { committedSteps, markersOf } from './run-data';

const home = mkdtempSync(path.join(tmpdir(), 'ide-run-data-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('JsonlIndex', () => {
	it('indexes complete lines as the file grows, skips a torn tail, rebuilds when the file is cut', () => {
		const file = path.join(home, 'log.jsonl');
		writeFileSync(file, '{"s":0,"v":"a"}\n{"s":1,"v":"é ü"}\n{"s":2,');
		const seen: number[] = [];
		const index = new JsonlIndex(file, (line, i) => {
			seen.push(i);
			return JSON.parse(line) as { s: number };
		});
		expect(index.refresh().count).toBe(2);
		expect(index.lines(0, 2).map((l) => JSON.parse(l).v)).toEqual(['a', 'é ü']);
		appendFileSync(file, '"v":"c"}\n\n{"s":3,"v":"d"}\n');
		expect(index.refresh().count).toBe(4);
		expect(seen).toEqual([0, 1, 2, 3]); // each line summarised once
		expect(index.line(3)).toBe('{"s":3,"v":"d"}');
		expect(index.lines(1, 4).map((l) => JSON.parse(l).s)).toEqual([1, 2, 3]);
		expect(index.lowerBound(2, (x) => x.s)).toBe(2);
		expect(index.lowerBound(9, (x) => x.s)).toBe(4);
		const generation = index.generation;
		truncateSync(file, '{"s":0,"v":"a"}\n'.length);
		expect(index.refresh().count).toBe(1);
		expect(index.generation).toBe(generation + 1);
	});

	it('decodes only the members before the cut key', () => {
		const file = path.join(home, 'heads.jsonl');
		const lines = [
			{ step: 0, conversations: [{ agents: ['a', 'b'] }], agents: [{ id: 'x' }], calls: 1 },
			{ step: 1, text: 'says ,"agents": in a string', agents: [], calls: 0 }
		];
		writeFileSync(file, lines.map((l) => JSON.stringify(l) + '\n').join(''));
		const heads: string[] = [];
		const index = new JsonlIndex(file, (head) => heads.push(head), { stop: 'agents', last: true });
		index.refresh();
		expect(heads.map((h) => JSON.parse(h))).toEqual([
			{ step: 0, conversations: [{ agents: ['a', 'b'] }] },
			{ step: 1, text: 'says ,"agents": in a string' }
		]);
	});
});

/** Agents whose positions and activities repeat every 1,300 steps (kept as JSON to write fast). */
const agentsJson = new Map<number, string>();
function agentsTextAt(step: number): string {
	const key = step % 1300;
	let text = agentsJson.get(key);
	if (!text) agentsJson.set(key, (text = JSON.stringify(agentsAt(key, 25))));
	return text;
}

function agentsAt(step: number, n: number): AgentView[] {
	return Array.from({ length: n }, (_, i) => ({
		id: `agent-${String(i).padStart(2, '0')}`,
		name: `Agent ${i}`,
		x: step % 100,
		y: i,
		activity: `doing thing ${(step * 7 + i) % 13} at the usual place with some longer words`,
		emoji: '☕',
		address: `Sector ${i % 5}:Arena ${i % 3}:object ${i % 4}`,
		chatWith: '',
		path: Array.from({ length: 20 }, (_, k): [number, number] => [(step + k) % 100, i])
	}));
}

describe('frames of a long run', () => {
	it('seeks any step of a 2-day, 25-agent run (17,280 steps) in well under 100 ms', async () => {
		const id = 'long-run';
		const dir = path.join(home, 'runs', id);
		mkdirSync(path.join(dir, 'snapshots'), { recursive: true });
		cpSync(path.join(defaultWorldsDir(), 'the-ville-3'), path.join(dir, 'world'), { recursive: true });
		const meta = {
			id,
			world: 'the-ville-3',
			worldName: 'The Ville',
			seed: 1,
			model: { provider: 'offline', model: 'offline', label: 'offline stand-in' },
			promptSet: { version: 'x', templates: {} },
			settings: {},
			ablate: { reflection: false, planning: false, observation: false },
			overrides: [],
			parent: null,
			firstStep: 0,
			snapshotEvery: 120,
			created: '2026-01-01T00:00:00.000Z',
			status: 'done',
			dimensions: 256,
			target: 17_280
		};
		writeFileSync(path.join(dir, 'run.json'), JSON.stringify(meta));
		const start = 1_676_271_600_000;
		const lineOf = (step: number): string => {
			const line: StepLine = {
				step,
				time: start + step * 10_000,
				inputs: [],
				events: step % 500 === 0 ? [{ kind: 'conversation', agents: ['agent-00', 'agent-01'], id: `c${step}` }] : [],
				conversations: step % 500 === 0 ? [{ id: `c${step}`, step, time: start + step * 10_000, agents: ['agent-00', 'agent-01'], address: 'A:B', lines: [{ speaker: 'agent-00', text: 'hello' }] }] : [],
				agents: [],
				calls: 3,
				memories: 2
			};
			return JSON.stringify(line).replace('"agents":[]', `"agents":${agentsTextAt(step)}`) + '\n';
		};
		const file = path.join(dir, 'steps.jsonl');
		const chunk: string[] = [];
		for (let s = 0; s < 17_280; s++) {
			chunk.push(lineOf(s));
			if (chunk.length === 1000) appendFileSync(file, chunk.splice(0).join(''));
		}
		appendFileSync(file, chunk.join(''));

		const manager = new RunManager({ home });
		expect(committedSteps(dir, meta as never)).toBe(17_280);
		const timeline = await manager.timeline(id);
		expect(timeline.steps).toBe(17_280);
		expect(timeline.markers.filter((m) => m.kind === 'conversation').map((m) => m.step)).toEqual(Array.from({ length: 35 }, (_, i) => i * 500 + 1));

		for (let i = 0; i < 300; i++) {
			const n = 1 + ((i * 7919) % 17_280);
			const frame = await manager.frame(id, n);
			if (frame.step !== n || frame.time !== start + n * 10_000 || JSON.stringify(frame.agents) !== agentsTextAt(n - 1)) {
				expect.fail(`frame ${n} differs from its commit line`);
			}
		}

		const many = await manager.frames(id, 15_000, 16_999);
		expect(many.length).toBe(2000);
		expect(many[1000].conversations).toEqual([]);
		expect(many.find((f) => f.step === 15_501)?.conversations[0]?.id).toBe('c15500');

		// the run grows: new steps are indexed on the next request
		appendFileSync(file, lineOf(17_280) + lineOf(17_281).slice(0, 50));
		expect((await manager.timeline(id)).steps).toBe(17_281);
		expect((await manager.frame(id, 17_281)).agents).toEqual(agentsAt(17_280, 25));
		await expect(manager.frame(id, 17_282)).rejects.toThrow(/not among them/);
	}, 120_000);
});

describe('markers', () => {
	it('label inputs with what they did and show on the frame after their step', () => {
		const names = new Map([['klaus-mueller', 'Klaus Mueller']]);
		const markers = markersOf(
			{
				step: 9,
				time: 0,
				inputs: [
					{ type: 'whisper', agent: 'klaus-mueller', text: 'Buy milk' },
					{ type: 'set-object', address: 'Cafe:kitchen:stove', state: 'on fire' }
				],
				events: [
					{ kind: 'input', input: 'whisper', agent: 'klaus-mueller' },
					{ kind: 'input', input: 'set-object' },
					{ kind: 'reflection', agent: 'klaus-mueller', memories: ['a', 'b'] }
				],
				conversations: []
			},
			names
		);
		expect(markers).toEqual([
			{ step: 10, kind: 'input', agents: ['klaus-mueller'], label: 'inner voice to Klaus Mueller: Buy milk' },
			{ step: 10, kind: 'input', agents: [], label: 'Cafe:kitchen:stove set to "on fire"' },
			{ step: 10, kind: 'reflection', agents: ['klaus-mueller'], label: 'Klaus Mueller reflects (2 insights)' }
		]);
	});
});
