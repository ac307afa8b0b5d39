// What `whisper` and `set-object` tell the user: the fork they made, where it starts, when the
// input takes effect, how far it ran, and how to see the effect (a diff needs a run without the
// change over the same steps).

import { inputEffect, type SimInput } from '../lib/engine/inputs';

export interface InputFork {
	/** the run forked, the step forked at, and how many steps it holds */
	parent: { run: string; step: number; committed: number };
	/** the new run and the step it ended at */
	fork: { run: string; end: number };
	input: SimInput;
	/** the agent's name as typed, for an input given to an agent */
	agentName?: string;
	/** steps the fork ran, and whether that was the default (no --steps) */
	steps: number;
	defaultSteps: boolean;
	/** the world's game seconds per step, to say the span in game time */
	secondsPerStep: number;
}

/** One game hour of steps: what a fork runs when --steps is not given. */
export function defaultForkSteps(secondsPerStep: number): number {
	return Math.max(1, Math.round(3600 / Math.max(1, secondsPerStep)));
}

function gameTime(steps: number, secondsPerStep: number): string {
	const minutes = Math.round((steps * secondsPerStep) / 60);
	if (minutes < 1) return `${steps * secondsPerStep} game seconds`;
	if (minutes % 60 === 0) return `${minutes / 60} game hour${minutes === 60 ? '' : 's'}`;
	return `${minutes} game minute${minutes === 1 ? '' : 's'}`;
}

/** The commands that show the effect, when the parent has no steps after the fork to compare with. */
export function controlCommands(f: InputFork): { control: string; diff: string } | null {
	if (f.parent.step < f.parent.committed) return null;
	return {
		control: `npm run simulacra -- run --from ${f.parent.run}@${f.parent.step} --steps ${f.steps}`,
		diff: `npm run simulacra -- diff <the run that prints> ${f.fork.run}`
	};
}

export function inputForkText(f: InputFork): string {
	const { parent, fork, input } = f;
	const atEnd = parent.step >= parent.committed;
	const first = `the fork's first step (${parent.step} -> ${parent.step + 1})`;
	const what = inputEffect(input, (id) => f.agentName ?? id, first);
	const lines = [
		`${input.type}: forked ${parent.run} at step ${parent.step}${atEnd ? ' (its last step)' : ''} as ${fork.run}`,
		`  ${what}`,
		`  the fork ran ${f.steps} step${f.steps === 1 ? '' : 's'} (${gameTime(f.steps, f.secondsPerStep)}), to step ${fork.end}${f.defaultSteps ? '; that is the default, --steps N runs another span' : ''}`
	];
	const control = controlCommands(f);
	if (control) {
		lines.push(
			`  to see the effect, run the same ${f.steps} steps without the change and compare (${parent.run} ends at step ${parent.step}, so a diff with it has no step to compare):`,
			`    ${control.control}`,
			`    ${control.diff}`
		);
	} else {
		lines.push(`  npm run simulacra -- diff ${parent.run} ${fork.run} compares them from step ${parent.step} to step ${Math.min(parent.committed, fork.end)}, where ${parent.run} went on without the change`);
	}
	lines.push(`  to run the fork further: npm run simulacra -- resume ${fork.run} --steps N`);
	return lines.join('\n');
}
