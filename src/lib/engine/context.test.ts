import { describe, expect, it } from 'vitest';
import { CONDITIONS } from '../eval/questions';
import type { MemoryRecord, MemorySource } from './memory';
import type { ModelRequest } from './model';
import { Simulation } from './sim';
import type { Ablation } from './state';
import { createTestWorld, scriptedModel, tinyEmbed, type Script, digestOf } from './testing';
import { dueAhead, dueBatch } from './context';

const NONE: Ablation = { reflection: false, planning: false, observation: false };
const ALL = (CONDITIONS.find((c) => c.id === 'no-observation-reflection-planning') as (typeof CONDITIONS)[number]).ablation;

/**
 * A model that echoes what it is given: the summary and the interview answer are the memories
 * they were made from, so anything retrieved shows up in the prompts and answers. Ben tells Ana
 * about a party; the note Ana takes after the talk is a plan to go.
 */
const echo: Script = {
	agent_summary: (r) => ({ summary: `${r.vars.name}: ${(r.vars.memories as string[]).join(' / ') || 'nothing remembered'}` }),
	interview: (r) => ({ answer: (r.vars.memories as string[]).join(' / ') || "I don't know" }),
	dialogue_turn: (r) =>
		r.vars.name === 'Ben Brook'
			? { utterance: "There is a Valentine's Day party at the cafe tomorrow evening.", end: false }
			: { utterance: 'Oh, I did not know that!', end: (r.vars.history as string[]).length >= 1 },
	conversation_memo: (r) => ({
		summary: `${r.vars.name} talked with ${r.vars.other} about the Valentine's Day party`,
		plan_note: r.vars.name === 'Ana Alder' ? "I plan to go to the Valentine's Day party" : ''
	}),
	reflection_insights: (r) => ({ insights: [{ insight: `${r.vars.name} thinks about: ${(r.vars.memories as string[])[0]}`, evidence: [1] }] })
};

/** Ana after hearing of the party from Ben (the memo's note included) and seeing a desk on fire. */
async function anaHeardOfTheParty() {
	const world = createTestWorld();
	world.settings.reflection.threshold = 20;
	const model = scriptedModel(echo);
	const { sim } = await Simulation.create(world, { seed: 1 }, model);
	await sim.step([{ type: 'set-object', address: 'House:bedroom:desk', state: 'on fire' }], model);
	for (let i = 0; i < 120 && !sim.stream('ana-alder').records.some((m) => m.kind === 'thought' && /party/.test(m.description)); i++) {
		await sim.step([], model);
	}
	// a remembered interview and an inner voice too
	await sim.step([{ type: 'interview', agent: 'ana-alder', interviewer: 'a reporter', question: 'Where is the party?' }], model);
	await sim.step([{ type: 'whisper', agent: 'ana-alder', text: 'water the plants' }], model);
	return { sim, model };
}

const bySource = (records: readonly MemoryRecord[], source: MemorySource) => records.filter((m) => m.source === source);

describe('memory provenance', () => {
	it('every memory knows where it came from', async () => {
		const { sim } = await anaHeardOfTheParty();
		const ana = sim.stream('ana-alder').records;
		const seeds = createTestWorld().personas[0].seedMemories.length + 1;
		expect(ana.slice(0, seeds).map((m) => m.source)).toEqual(Array(seeds).fill('seed'));
		expect(bySource(ana, 'seed')).toHaveLength(seeds);
		const note = ana.find((m) => m.description === "I plan to go to the Valentine's Day party");
		expect(note).toMatchObject({ kind: 'thought', source: 'conversation', with: 'ben-brook' });
		expect(ana.find((m) => m.description === 'desk is on fire')?.source).toBe('observed');
		expect(ana.find((m) => /talked with Ben Brook/.test(m.description))?.source).toBe('conversation');
		expect(ana.find((m) => /^a reporter asked Ana Alder/.test(m.description))).toMatchObject({ kind: 'conversation', source: 'interview' });
		expect(ana.find((m) => m.description === 'I should water the plants')).toMatchObject({ kind: 'thought', source: 'inner-voice' });
		for (const m of ana) {
			if (m.kind === 'plan') expect(m.source).toBe('planned');
			if (m.kind === 'reflection') expect(m.source).toBe('reflected');
			if (m.kind === 'observation') expect(m.source).toBe('observed');
		}
		expect(bySource(ana, 'reflected').length).toBeGreaterThan(0);
	});

	it('under "no observation, reflection or planning" nothing observed or heard reaches the interview', async () => {
		const { sim } = await anaHeardOfTheParty();
		const before = digestOf(sim);
		const records = sim.stream('ana-alder').records;
		const hidden = records.filter((m) => !['seed', 'inner-voice'].includes(m.source));
		expect(hidden.some((m) => m.kind === 'thought' && /party/.test(m.description))).toBe(true);

		// the full architecture does remember the party: the check below can fail
		const probe = scriptedModel(echo);
		const full = await sim.interview('ana-alder', 'an interviewer', "Are you going to the Valentine's Day party?", probe, { condition: NONE });
		expect(full.answer).toMatch(/party/);

		const model = scriptedModel(echo);
		const r = await sim.interview('ana-alder', 'an interviewer', "Are you going to the Valentine's Day party?", model, { condition: ALL });
		expect(r.memories.length).toBeGreaterThan(0);
		expect(r.memories.map((m) => m.source).every((s) => s === 'seed' || s === 'inner-voice')).toBe(true);
		expect(r.answer).not.toMatch(/party|fire|reporter/i);
		// every prompt the interview rendered (the summary's and the answer's), variable by variable
		const asked = (t: string) => model.calls.filter((c: ModelRequest) => c.template === t);
		expect(asked('agent_summary')).toHaveLength(1);
		expect(asked('interview')).toHaveLength(1);
		const summary = String(asked('interview')[0].vars.summary);
		expect(summary).toMatch(/Ana Alder/);
		for (const call of model.calls) {
			// everything but the question itself, which names the party
			const { question: _q, ...vars } = call.vars;
			const text = JSON.stringify(vars);
			expect(text, `${call.template} prompt`).not.toMatch(/party|on fire|reporter/i);
			for (const m of hidden) expect(text).not.toContain(m.description);
		}
		expect(summary).not.toMatch(/party/i);
		expect(r.output.traces).toEqual([]);
		expect(digestOf(sim)).toBe(before);
	});

	it('each condition hides exactly its sources', async () => {
		const { sim } = await anaHeardOfTheParty();
		const all = sim.stream('ana-alder').records;
		const seen = async (condition: Ablation) => {
			const ids = new Set<string>();
			for (const q of ['party', 'plan for today', 'desk fire', 'what do I think', 'reporter interview', 'plants']) {
				for (const m of (await sim.interview('ana-alder', 'an interviewer', q, scriptedModel(echo), { condition })).memories) ids.add(m.id);
			}
			return all.filter((m) => ids.has(m.id)).map((m) => m.source);
		};
		const noReflection = await seen({ ...NONE, reflection: true });
		expect(noReflection).not.toContain('reflected');
		expect(noReflection).toContain('planned');
		expect(noReflection).toContain('conversation');
		const noPlanning = await seen({ ...NONE, reflection: true, planning: true });
		expect(noPlanning).not.toContain('planned');
		expect(noPlanning).not.toContain('reflected');
		expect(noPlanning).toContain('observed');
		const noObservation = await seen({ ...NONE, observation: true });
		for (const s of ['observed', 'conversation', 'interview'] as const) expect(noObservation).not.toContain(s);
		expect(noObservation).toContain('planned');
	});

	it('a reflection made only from hidden memories is hidden with them', async () => {
		const world = createTestWorld();
		const model = scriptedModel(echo);
		const { sim } = await Simulation.create(world, { seed: 1 }, model);
		const stream = sim.stream('ana-alder');
		const add = (source: MemorySource, kind: MemoryRecord['kind'], description: string, evidence?: string[]) =>
			stream.add({ kind, source, description, created: sim.time, step: 1, importance: 9, embedding: tinyEmbed(description), ...(evidence ? { evidence } : {}) });
		const heard = add('conversation', 'conversation', 'Ben said the cafe party is on Tuesday');
		const saw = add('observed', 'observation', 'the cafe party poster is on the wall');
		const seed = stream.records[0];
		const onlyHidden = add('reflected', 'reflection', 'the cafe party matters to the town', [heard.id, saw.id]);
		const mixed = add('reflected', 'reflection', 'the cafe party is where Ana works', [seed.id, heard.id]);
		const second = add('reflected', 'reflection', 'the cafe party will be busy', [onlyHidden.id]);
		const r = await sim.interview('ana-alder', 'an interviewer', 'the cafe party', model, { condition: { ...NONE, observation: true } });
		const ids = r.memories.map((m) => m.id);
		expect(ids).toContain(mixed.id);
		expect(ids).not.toContain(onlyHidden.id);
		expect(ids).not.toContain(second.id);
		expect(ids).not.toContain(heard.id);
		const open = await sim.interview('ana-alder', 'an interviewer', 'the cafe party', model, { condition: NONE });
		expect(open.memories.map((m) => m.id)).toEqual(expect.arrayContaining([onlyHidden.id, second.id, heard.id]));
	});
});

describe('importance ratings due at a step', () => {
	const min = 60_000;
	const wait = 5 * min; // the fast profile's importance.waitMinutes
	const waiting = (...createdMinutes: number[]) => createdMinutes.map((m) => ({ created: m * min }));

	it('rate nothing until the oldest has waited five minutes, then those waiting two minutes or more', () => {
		expect(dueBatch(waiting(0, 1, 4), 4 * min, wait)).toBe(0);
		expect(dueBatch(waiting(0, 1, 4), 5 * min, wait)).toBe(2);
		expect(dueBatch(waiting(0, 3, 4), 5 * min, wait)).toBe(2);
		// sixteen waiting: all that have waited two minutes, once the sixteenth has (known ahead too)
		const sixteen = waiting(...Array.from({ length: 16 }, () => 9));
		expect(dueBatch(sixteen, 9 * min, wait)).toBe(0);
		expect(dueBatch(sixteen, 11 * min, wait)).toBe(16);
		expect(dueBatch([...sixteen, ...waiting(10)], 11 * min, wait)).toBe(16);
		expect(dueAhead(sixteen, 11 * min, 10 * min, wait)).toBe(16);
		expect(dueBatch([], 9 * min, wait)).toBe(0);
	});

	it('are known ahead once every memory they cover was waiting before now', () => {
		// due at 5:00, covering the memories of 0:00 and 1:00: known from 1:00 on (after it)
		expect(dueAhead(waiting(0, 1, 4), 5 * min, 1 * min, wait)).toBe(0);
		expect(dueAhead(waiting(0, 1, 4), 5 * min, 2 * min, wait)).toBe(2);
		expect(dueAhead(waiting(0, 1), 3 * min, 2 * min, wait)).toBe(0);
	});
});
