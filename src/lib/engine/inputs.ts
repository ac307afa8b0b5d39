// Inputs: everything that changes the world from outside the simulation, applied at the start of
// a step and kept in the run log. One registry, as ai-town's `convex/aiTown/inputs.ts`: each input
// is one entry with its arguments (what each names, how long it may be, what the command line
// calls it), its handler (what it does at a step), its one-line description (markers, the diff)
// and what the command line says it does. Everything else derives from it: the `SimInput` type,
// the check before an input enters the log (`checkInput`, `Simulation.validateInput`), the step's
// handling (`applyInput`), the API's reading of `inputs` (`inputFromJson`), the command line's
// (`inputFromPair`, `inputFromOptions`). Pure: no I/O.
//
// The log holds each input as `{"type":..,<its arguments in the order declared here>}`; the
// readers below build inputs in that order, so the log's bytes (and the runs' hashes) stay the
// same whoever gave the input.

import { innerVoice, interview } from './agent';
import type { AgentContext, StepOutput } from './context';
import type { SimState } from './state';

/** One argument of an input: a string. */
export interface ArgSpec {
	/** what it names: an agent (its id in the log), an object (`Sector:Arena:Object`), or free text */
	readonly kind: 'agent' | 'object' | 'text';
	/** the most characters it may hold when it comes from outside (the API, the command line) */
	readonly max: number;
	/** what the check calls it when it is blank ("the inner-voice text"); absent: it may be blank */
	readonly what?: string;
	/** the command line: the option giving it to the input's own command and what its value is (`--text TEXT`) */
	readonly flag: readonly [option: string, value: string];
	/** its value when the command line does not give it (the argument is then optional there) */
	readonly default?: string;
}

type ArgSpecs = Readonly<Record<string, ArgSpec>>;

/** The arguments of an input, by name. */
export type ArgsOf<A extends ArgSpecs> = { -readonly [K in keyof A]: string };

/** What an input's handler works on: the step being made. */
export interface InputStep {
	readonly state: SimState;
	/** the step's game time (ms) */
	readonly time: number;
	readonly out: StepOutput;
	/** an agent's context for this step */
	agent(id: string): AgentContext;
}

/** Turns an agent id into the name to show (the identity by default). */
export type NameOf = (id: string) => string;

export interface InputDef<A extends ArgSpecs = ArgSpecs, Api extends boolean = boolean> {
	/** its arguments, in the order the log holds them (and the check reads them) */
	readonly args: A;
	/** accepted in the IDE API's `inputs` (POST /api/runs, /api/runs/:id/inputs) */
	readonly api: Api;
	/** applies it at the start of a step (after the check; the step's `input` event is already recorded) */
	apply(args: ArgsOf<A>, step: InputStep): Promise<void> | void;
	/** one line for the timeline's markers and the diff: `Cafe:kitchen:stove set to "on fire"` */
	describe(args: ArgsOf<A>, name: NameOf): string;
	/** the command line */
	readonly cli: {
		/** the `run` command's repeatable option (named as the input) giving it at the first step as `A=B`: which two arguments */
		readonly pair?: readonly [string, string];
		/** what it does, said when a fork carrying it was made (`first`: "the fork's first step (n -> n + 1)") */
		effect(args: ArgsOf<A>, name: NameOf, first: string): string;
	};
}

function defineInput<const A extends ArgSpecs, const Api extends boolean>(def: InputDef<A, Api>): InputDef<A, Api> {
	return def;
}

/** Every input, by name. */
export const INPUTS = {
	/** an inner voice: becomes a thought memory and a re-plan */
	whisper: defineInput({
		args: {
			agent: { kind: 'agent', max: 100, flag: ['agent', 'NAME'] },
			text: { kind: 'text', max: 2000, what: 'the inner-voice text', flag: ['text', 'TEXT'] }
		},
		api: true,
		apply: (a, step) => innerVoice(step.agent(a.agent), a.text),
		describe: (a, name) => `inner voice to ${name(a.agent)}: ${a.text}`,
		cli: {
			pair: ['agent', 'text'],
			effect: (a, name, first) => `${name(a.agent)} hears "${a.text}" as an inner voice at ${first}: it becomes a thought and a re-plan`
		}
	}),
	/** an object's state: everyone perceives it until an agent begins an action on the object at a later step */
	'set-object': defineInput({
		args: {
			address: { kind: 'object', max: 300, flag: ['object', 'ADDRESS'] },
			state: { kind: 'text', max: 300, what: 'the object state', flag: ['state', 'TEXT'] }
		},
		api: true,
		apply(a, { state: s, time }) {
			s.objects[a.address] = a.state;
			(s.objectsSetAt ??= {})[a.address] = time;
			// A new input is a change even when the text is the same: everyone may judge it.
			for (const agent of s.agents) if (agent.judged?.[a.address] !== undefined) delete agent.judged[a.address];
		},
		describe: (a) => `${a.address} set to "${a.state}"`,
		cli: {
			pair: ['address', 'state'],
			effect: (a, _name, first) => `"${a.address}" is "${a.state}" from ${first}: everyone who sees it from then on perceives it, until someone begins using it`
		}
	}),
	/** an interview the agent answers and remembers (a read-only one is `Simulation.interview`, not an input) */
	interview: defineInput({
		args: {
			agent: { kind: 'agent', max: 100, flag: ['agent', 'NAME'] },
			interviewer: { kind: 'text', max: 100, flag: ['as', 'PERSONA'], default: 'an interviewer' },
			question: { kind: 'text', max: 2000, what: 'the question', flag: ['question', 'TEXT'] }
		},
		api: false,
		async apply(a, step) {
			const ctx = step.agent(a.agent);
			const { answer } = await interview(ctx, a.interviewer || 'an interviewer', a.question);
			await ctx.memorize([
				{ kind: 'conversation', source: 'interview', description: `${a.interviewer || 'An interviewer'} asked ${ctx.name} "${a.question}" and ${ctx.name} answered "${answer}"` }
			]);
		},
		describe: (a, name) => `interview of ${name(a.agent)} by ${a.interviewer}: ${a.question}`,
		cli: { effect: (_a, _name, first) => `the input takes effect at ${first}` }
	})
};

type Registry = typeof INPUTS;

/** The name of an input (its `type` in the log). */
export type InputName = keyof Registry;

/** The arguments of the input `N`. */
export type InputArgs<N extends InputName> = ArgsOf<Registry[N]['args']>;

type InputOf<N extends InputName> = { type: N } & InputArgs<N> extends infer T ? { [K in keyof T]: T[K] } : never;

/** Inputs from outside the simulation, applied at the start of a step and kept in the run log. */
export type SimInput = { [N in InputName]: InputOf<N> }[InputName];

/** The inputs the IDE API accepts. */
export type ApiInputName = { [N in InputName]: Registry[N]['api'] extends true ? N : never }[InputName];
export type ApiInput = Extract<SimInput, { type: ApiInputName }>;

export const INPUT_NAMES = Object.keys(INPUTS) as InputName[];

export function isInputName(name: string): name is InputName {
	return Object.hasOwn(INPUTS, name);
}

/** The registry's entry of an input, typed loosely (every input alike). */
export function inputDef(name: InputName): InputDef {
	return INPUTS[name] as unknown as InputDef;
}

function argsOf(input: SimInput): Record<string, string> {
	return input as unknown as Record<string, string>;
}

/** The first argument of `input` that names an agent (the agent the input is given to), if any. */
export function inputAgent(input: SimInput): string | undefined {
	const def = inputDef(input.type);
	const name = Object.keys(def.args).find((k) => def.args[k].kind === 'agent');
	return name === undefined ? undefined : argsOf(input)[name];
}

/** What the world must hold for an input. */
export type InputWorld = Pick<SimState, 'agents' | 'objects'>;

/**
 * Checks an input against the world before it enters the log: the agents and objects it names
 * exist, the texts that must say something do. Returns the error, or null.
 */
export function checkInput(input: SimInput, world: InputWorld): string | null {
	if (!input || typeof input !== 'object' || !isInputName((input as { type: string }).type)) return `unknown input ${JSON.stringify(input)}`;
	const def = inputDef(input.type);
	const args = argsOf(input);
	for (const [name, spec] of Object.entries(def.args)) {
		const v = args[name];
		if (typeof v !== 'string') return `${input.type} needs ${name}`;
		if (spec.kind === 'agent' && !world.agents.some((a) => a.id === v)) return `unknown agent "${v}"`;
		if (spec.kind === 'object' && !Object.hasOwn(world.objects, v)) return `unknown object "${v}"`;
		if (spec.what && !v.trim()) return `${spec.what} is empty`;
	}
	return null;
}

/**
 * Applies a checked input at a step: records its `input` event (with its agent, when it has
 * one), then runs its handler.
 */
export async function applyInput(input: SimInput, step: InputStep): Promise<void> {
	const agent = inputAgent(input);
	step.out.events.push({ kind: 'input', input: input.type, ...(agent !== undefined && { agent }) });
	await inputDef(input.type).apply(argsOf(input), step);
}

/** One line saying what an input is (markers, the diff); agents named by `name`. */
export function describeInput(input: SimInput, name: NameOf = (id) => id): string {
	// a log's input of a kind this build does not know is shown as it is
	if (!isInputName(input.type)) return JSON.stringify(input);
	return inputDef(input.type).describe(argsOf(input), name);
}

/** What an input does, said when a fork carrying it was made (the command line's fork commands). */
export function inputEffect(input: SimInput, name: NameOf, first: string): string {
	return inputDef(input.type).cli.effect(argsOf(input), name, first);
}

/** An input with the agents it names passed through `f` (a name as typed -> an agent id). */
export async function mapInputAgents(input: SimInput, f: (agent: string) => string | Promise<string>): Promise<SimInput> {
	const def = inputDef(input.type);
	const out: Record<string, string> = { type: input.type };
	for (const [name, spec] of Object.entries(def.args)) out[name] = spec.kind === 'agent' ? await f(argsOf(input)[name]) : argsOf(input)[name];
	return out as unknown as SimInput;
}

// ---------------------------------------------------------------------------
// reading inputs from outside: each failure is a message naming the field

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const fail = (error: string): Checked<never> => ({ ok: false, error });

function build(type: InputName, value: (arg: string, spec: ArgSpec) => Checked<string>): Checked<SimInput> {
	const out: Record<string, string> = { type };
	for (const [name, spec] of Object.entries(inputDef(type).args)) {
		const v = value(name, spec);
		if (!v.ok) return v;
		out[name] = v.value;
	}
	return { ok: true, value: out as unknown as SimInput };
}

/** A string argument as given: present, a string, not blank unless it may be, within its length. */
function argValue(raw: unknown, spec: ArgSpec, field: string): Checked<string> {
	if (raw === undefined || raw === null) return fail(`${field} is required`);
	if (typeof raw !== 'string') return fail(`${field} must be a string`);
	if (spec.default === undefined && !raw.trim()) return fail(`${field} is empty`);
	if (raw.length > spec.max) return fail(`${field} is longer than ${spec.max} characters`);
	return { ok: true, value: raw };
}

function isObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The inputs the API accepts, in the registry's order. */
export const API_INPUTS = INPUT_NAMES.filter((n) => inputDef(n).api) as ApiInputName[];

/** How the API's `inputs` look: `{ type: whisper, agent, text } or { type: set-object, address, state }`. */
export function apiInputsShape(): string {
	return API_INPUTS.map((n) => `{ type: ${n}, ${Object.keys(inputDef(n).args).join(', ')} }`).join(' or ');
}

/** An input as the API's JSON gives it (`where` names it in messages: `inputs[0]`); only the API's inputs. */
export function inputFromJson(raw: unknown, where: string): Checked<ApiInput> {
	if (!isObject(raw)) return fail(`${where} must be an object`);
	const type = raw.type;
	if (typeof type !== 'string' || !(API_INPUTS as string[]).includes(type)) return fail(`${where}.type must be ${API_INPUTS.map((n) => `"${n}"`).join(' or ')}`);
	return build(type as ApiInputName, (arg, spec) => argValue(raw[arg], spec, `${where}.${arg}`)) as Checked<ApiInput>;
}

/** The inputs the `run` command takes as repeatable `--<name> A=B` options. */
export const PAIR_INPUTS = INPUT_NAMES.filter((n) => inputDef(n).cli.pair);

/** What the value of `--<name>` on `run` looks like: `AGENT=TEXT`. */
export function pairValue(name: InputName): string {
	const pair = inputDef(name).cli.pair;
	return pair ? pair.map((a) => a.toUpperCase()).join('=') : '';
}

/** An input from the `run` command's `--<name> A=B` (the text up to the first `=`, and after it). */
export function inputFromPair(name: InputName, text: string): Checked<SimInput> {
	const pair = inputDef(name).cli.pair;
	const eq = text.indexOf('=');
	if (!pair || eq <= 0) return fail(`--${name} takes KEY=VALUE, not "${text}"`);
	const given: Record<string, string> = { [pair[0]]: text.slice(0, eq), [pair[1]]: text.slice(eq + 1) };
	return build(name, (arg, spec) => {
		const v = given[arg] ?? spec.default;
		// the pair's value may be blank here: the check against the world says what it must hold
		if (v === undefined) return fail(`--${name} does not give ${arg}`);
		return v.length > spec.max ? fail(`--${name}'s ${arg} is longer than ${spec.max} characters`) : { ok: true, value: v };
	});
}

/**
 * An input from the options of its own command (`whisper RUN --agent NAME --text TEXT`): each
 * argument from its option (`flag`), or its default; a missing one is "<command> needs --agent NAME".
 */
export function inputFromOptions(name: InputName, options: Readonly<Record<string, unknown>>): Checked<SimInput> {
	return build(name, (arg, spec) => {
		const [option, value] = spec.flag;
		const v = options[option];
		if (v === undefined && spec.default !== undefined) return { ok: true, value: spec.default };
		if (v === undefined || (v === '' && spec.default === undefined)) return fail(`${name} needs --${option} ${value}`);
		if (typeof v !== 'string') return fail(`--${option} takes ${value}`);
		return v.length > spec.max ? fail(`--${option} is longer than ${spec.max} characters`) : { ok: true, value: v };
	});
}
