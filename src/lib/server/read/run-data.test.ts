import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentView } from '../../engine/sim';
import type { StepLine } from '../journal/commit-line';
import { worldsDir } from '../paths';
import { sealLogs } from '../journal/log';
import { RunManager } from '../ide/manager';
import { committedSteps, markersOf } from './run-data';

const home = mkdtempSync(path.join(tmpdir(), 'ide-run-data-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

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
	it('seeks any step of a 2-day, 25-agent run (17,280 steps, sealed into blocks up to step 12,000) in well under 100 ms', async () => {
		const id = 'long-run';
		const dir = path.join(home, 'runs', id);
		mkdirSync(path.join(dir, 'snapshots'), { recursive: true });
		cpSync(path.join(worldsDir(), 'the-ville-3'), path.join(dir, 'world'), { recursive: true });
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
			// sealed every 120 steps, as the writer does at its snapshots, up to step 12,000
			if (s < 12_000 && (s + 1) % 120 === 0) {
				appendFileSync(file, chunk.splice(0).join(''));
				sealLogs(dir, s);
			}
			if (chunk.length === 1000) appendFileSync(file, chunk.splice(0).join(''));
		}
		appendFileSync(file, chunk.join(''));

		const manager = new RunManager({ home });
		expect(committedSteps(dir, meta as never)).toBe(17_280);
		const timeline = await manager.queries.timeline(id);
		expect(timeline.steps).toBe(17_280);
		expect(timeline.markers.filter((m) => m.kind === 'conversation').map((m) => m.step)).toEqual(Array.from({ length: 35 }, (_, i) => i * 500 + 1));

		for (let i = 0; i < 300; i++) {
			const n = 1 + ((i * 7919) % 17_280);
			const frame = await manager.queries.frame(id, n);
			if (frame.step !== n || frame.time !== start + n * 10_000 || JSON.stringify(frame.agents) !== agentsTextAt(n - 1)) {
				expect.fail(`frame ${n} differs from its commit line`);
			}
		}

		const many = await manager.queries.frames(id, 15_000, 16_999);
		expect(many.length).toBe(2000);
		expect(many[1000].conversations).toEqual([]);
		expect(many.find((f) => f.step === 15_501)?.conversations[0]?.id).toBe('c15500');

		// the run grows: new steps are indexed on the next request
		appendFileSync(file, lineOf(17_280) + lineOf(17_281).slice(0, 50));
		expect((await manager.queries.timeline(id)).steps).toBe(17_281);
		expect((await manager.queries.frame(id, 17_281)).agents).toEqual(agentsAt(17_280, 25));
		await expect(manager.queries.frame(id, 17_282)).rejects.toThrow(/not among them/);
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
