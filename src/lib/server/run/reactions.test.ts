// Reactions to the world in a real offline run: a stove set burning in an occupied kitchen of
// Smallville gets a reaction and a re-plan from the agent there within 5 game minutes.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorldIndex } from '../../engine/world-index';
import { markersOf } from '../read/run-data';
import { loadWorld } from '../world/load';
import { openRun, startRun } from './runner';

const home = mkdtempSync(path.join(tmpdir(), 'reactions-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('reactions to the world, offline', () => {
	it('a stove set burning in an occupied kitchen of Smallville gets a reaction and a re-plan within 5 game minutes', async () => {
		const { def: world } = await loadWorld('smallville');
		const index = new WorldIndex(world);
		const base = await startRun({ world: 'smallville', steps: 200, seed: 1, home, snapshotEvery: 50 });
		// the first step at which someone awake and not talking stands in a kitchen with a stove
		// (stays there: not walking through it on the way elsewhere)
		let found: { step: number; agent: string; stove: string } | undefined;
		for (const line of openRun(base.run, home).steps()) {
			if (line.step < 1) continue;
			for (const a of line.agents) {
				const arena = index.addressOf(index.tile(a.x, a.y)).split(':').slice(0, 2).join(':');
				const stove = `${arena}:stove`;
				if (!/:kitchen$/.test(arena) || !index.objects.has(stove) || a.chatWith || /sleep/.test(a.activity) || a.path.length > 0) continue;
				found = { step: line.step + 1, agent: a.id, stove };
				break;
			}
			if (found) break;
		}
		expect(found).toBeDefined();
		const { step, agent, stove } = found!;
		const fork = await startRun({ home, from: { run: base.run, step }, steps: 30, inputs: [{ type: 'set-object', address: stove, state: 'burning' }] });
		const reader = openRun(fork.run, home);
		const lines = reader.steps().filter((l) => l.step >= step);
		expect(lines).toHaveLength(30);
		const reaction = lines.flatMap((l) => l.events.map((e) => ({ ...e, step: l.step }))).find((e) => e.kind === 'reaction' && e.agent === agent);
		expect(reaction, `${agent} in ${stove}`).toMatchObject({ kind: 'reaction', agent, object: stove });
		expect((reaction as { reaction: string }).reaction).toMatch(/stove is burning/);
		// the debugger's timeline marks it
		const line = lines.find((l) => l.step === reaction!.step)!;
		const names = new Map(world.personas.map((p) => [p.id, p.name]));
		// (a marker sits at the frame after the step, like every frame of the timeline)
		expect(markersOf(line, names)).toContainEqual({
			step: reaction!.step + 1,
			kind: 'reaction',
			agents: [agent],
			label: `${names.get(agent)} reacts: ${(reaction as { reaction: string }).reaction}`
		});
		// the re-plan: the rest of the day rewritten from the reaction, and the agent at it
		const calls = reader.calls().filter((c) => c.s === reaction!.step && c.agent === agent);
		expect(calls.map((c) => c.template)).toContain('replan');
		const after = lines.find((l) => l.step === reaction!.step)!.agents.find((a) => a.id === agent)!;
		expect(after.activity).toMatch(/stove/);
		// nobody asks twice about the same unchanged stove
		const asked = reader.calls().filter((c) => c.template === 'react' && c.s >= step && c.vars?.observation === 'stove is burning');
		const perAgent = new Map<string, number>();
		for (const c of asked) perAgent.set(c.agent ?? '', (perAgent.get(c.agent ?? '') ?? 0) + 1);
		expect(perAgent.get(agent)).toBe(1);
		expect([...perAgent.values()].every((n) => n === 1)).toBe(true);

		// `inspect` shows the reaction among the events of the step that led to the state
		const root = path.resolve(__dirname, '../../../..');
		const cli = (...args: string[]) =>
			spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), 'inspect', fork.run, '--step', String(reaction!.step + 1), ...args], {
				cwd: root,
				env: { ...process.env, SIMULACRA_HOME: home },
				encoding: 'utf8'
			});
		const text = cli();
		expect(text.status, text.stderr).toBe(0);
		expect(text.stdout).toContain(`reaction: ${world.personas.find((p) => p.id === agent)!.name} (to ${stove}): ${(reaction as { reaction: string }).reaction}`);
		const json = JSON.parse(cli('--json').stdout);
		expect(json.events).toContainEqual({ kind: 'reaction', agent, reaction: (reaction as { reaction: string }).reaction, object: stove });
	}, 300_000);
});
