// The command line's commands in one table: each with the options it takes, its positionals and
// its help. `parseCommand` finds the command, refuses an option it does not take (one line naming
// the command and its options) and reads the options it does; `helpText` is the top-level help
// (every command) and `commandHelp` one command's (or a group's: `world`, `runs`, `prompts`).

import { parseArgs } from 'node:util';
import { pairValue } from '../lib/engine/inputs';

interface OptionSpec {
	readonly type: 'string' | 'boolean';
	/** may be given more than once (every value kept, in order) */
	readonly multiple?: true;
	readonly short?: string;
	/** what its value is called in help ("N", "FILE") */
	readonly value?: string;
	readonly help: string;
}

/** Every option of every command; a command takes some of them (and all take --json and --help). */
const OPTIONS = {
	json: { type: 'boolean', help: 'print the result as JSON (errors too)' },
	help: { type: 'boolean', short: 'h', help: "print this command's help" },
	world: { type: 'string', value: 'W', help: 'a world: a folder name under worlds/ or a path' },
	steps: { type: 'string', value: 'N', help: 'how many steps' },
	step: { type: 'string', value: 'N', help: 'the state after N steps' },
	seed: { type: 'string', value: 'S', help: 'the random seed (a whole number)' },
	model: { type: 'string', value: 'offline|openai', help: 'the model (default: offline, or the forked run\'s)' },
	profile: { type: 'string', value: 'NAME', help: 'a named settings profile (such as fast), applied before --set' },
	from: { type: 'string', value: 'RUN@STEP', help: 'fork RUN at step STEP instead of starting from the world' },
	prompts: { type: 'string', value: 'VERSION|LABEL|DIR', help: 'the prompt set: a stored version, a label or a folder' },
	set: { type: 'string', multiple: true, value: 'KEY=VALUE', help: 'override a setting (repeatable)' },
	ablate: { type: 'string', value: 'LIST', help: 'turn off reflection, planning and/or observation (comma-separated)' },
	// the inputs given as pairs at a run's first step (../lib/engine/inputs.ts reads them)
	whisper: { type: 'string', multiple: true, value: pairValue('whisper'), help: "an inner voice heard at the run's first step (repeatable)" },
	'set-object': { type: 'string', multiple: true, value: pairValue('set-object'), help: "an object's state from the run's first step (repeatable)" },
	'budget-tokens': { type: 'string', value: 'N', help: 'pause when the run has used N tokens' },
	'budget-usd': { type: 'string', value: 'X', help: 'pause when the run has cost X US dollars' },
	estimate: { type: 'boolean', help: 'print the expected calls, tokens and dollars, and run nothing' },
	'allow-model-change': { type: 'boolean', help: 'allow another model than the run was made with' },
	changes: { type: 'boolean', help: 'everything the step did' },
	agent: { type: 'string', value: 'NAME', help: "an agent's name or id" },
	kind: { type: 'string', value: 'KIND', help: 'memory, call, conversation, or a memory kind' },
	limit: { type: 'string', value: 'N', help: 'at most N results' },
	otlp: { type: 'string', value: 'FILE', help: 'write OTLP/JSON lines to FILE' },
	'otlp-endpoint': { type: 'string', value: 'URL', help: 'send the trace over OTLP/HTTP to URL' },
	now: { type: 'boolean', help: 'move the trace from game time to now' },
	name: { type: 'string', value: 'NAME', help: "the new world's folder name" },
	root: { type: 'string', value: 'DIR', help: "where the map's tilesets and images may come from (default: the map's folder)" },
	storage: { type: 'string', value: 'SIM', help: "a simulation of the checkout's storage/ folder" },
	'snapshot-every': { type: 'string', value: 'N', help: 'a snapshot every N steps (default 120): fewer take less disk, restoring a step between them takes longer' },
	weights: { type: 'string', multiple: true, value: 'R,I,V', help: 'recency, importance and relevance weights' },
	decay: { type: 'string', multiple: true, value: 'D', help: 'a recency decay ("run": the run\'s own; repeatable)' },
	purpose: { type: 'string', value: 'P', help: 'only retrievals made for this purpose' },
	question: { type: 'string', value: 'TEXT', help: 'the question' },
	as: { type: 'string', value: 'PERSONA', help: 'who asks (default: an interviewer)' },
	remember: { type: 'boolean', help: 'a fork in which the agent keeps the exchange' },
	text: { type: 'string', value: 'TEXT', help: 'the inner-voice directive' },
	object: { type: 'string', value: 'ADDRESS', help: "the object's address (sector:arena:object)" },
	state: { type: 'string', value: 'TEXT', help: "the object's new state" },
	message: { type: 'string', short: 'm', value: 'M', help: 'what changed' },
	input: { type: 'string', value: 'FILE', help: 'believability rankings (.json or .csv)' },
	agents: { type: 'string', value: 'a,b', help: 'only these agents (comma-separated)' },
	conditions: { type: 'string', value: 'LIST', help: 'only these conditions (comma-separated: full, no-reflection, ...)' },
	human: { type: 'string', value: 'FILE', help: 'import answers written by people from FILE (.json)' },
	refresh: { type: 'boolean', help: 'measure again instead of reading the stored evaluation' }
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

/** The options as read: a string, strings (options given more than once) or true. */
export type OptionValues = {
	-readonly [K in OptionName]?: (typeof OPTIONS)[K] extends { type: 'boolean' } ? boolean : (typeof OPTIONS)[K] extends { multiple: true } ? string[] : string;
};

interface CommandSpec {
	/** "run", or a group's command: "world import" */
	readonly name: string;
	/** what its positionals are, for its help line ("RUN", "RUN_A RUN_B") */
	readonly positionals: string;
	/** the options it takes besides --json and --help */
	readonly options: readonly OptionName[];
	/** its entry in the help: usage lines, then what it does, indented as the help is */
	readonly help: string;
}

const BUDGET: OptionName[] = ['budget-tokens', 'budget-usd'];

/** Every command, in the order the help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
	{
		name: 'run',
		positionals: '',
		options: ['world', 'steps', 'seed', 'model', 'profile', 'from', 'prompts', 'set', 'ablate', 'whisper', 'set-object', ...BUDGET, 'estimate', 'allow-model-change'],
		help: `  run --world W --steps N [--seed S] [--model offline|openai] [--from RUN@STEP]
      [--prompts VERSION|LABEL|DIR] [--profile NAME] [--set KEY=VALUE]...
      [--ablate reflection,planning,observation]
      [--whisper AGENT=TEXT] [--set-object ADDRESS=STATE]
      [--budget-tokens N] [--budget-usd X] [--estimate] [--allow-model-change]
                         run a simulation (or fork RUN at STEP) and print its id;
                         it pauses between steps at its budget (exit code 2);
                         --estimate prints the expected tokens and dollars and exits`
	},
	{
		name: 'resume',
		positionals: 'RUN',
		options: ['steps', ...BUDGET, 'allow-model-change'],
		help: `  resume RUN [--steps N] [--budget-tokens N] [--budget-usd X] [--allow-model-change]
                         continue an interrupted or paused run (a new budget
                         replaces the old one)`
	},
	{
		name: 'inspect',
		positionals: 'RUN',
		options: ['step', 'changes'],
		help: `  inspect RUN --step N [--changes]
                         the state after N steps: time, stateHash, agents, the last step's events;
                         --changes: everything that step did (moves, actions, memories, plans,
                         objects, conversations, reactions, inputs, model calls)`
	},
	{
		name: 'search',
		positionals: 'RUN "QUERY"',
		options: ['agent', 'kind', 'limit'],
		help: `  search RUN "QUERY" [--agent NAME] [--kind KIND] [--limit N]
                         memories by meaning and by words, model calls by prompt and answer,
                         conversations by line: one ranked list (KIND: memory, call,
                         conversation, or a memory kind; indexes are made on first use)`
	},
	{
		name: 'export',
		positionals: 'RUN',
		options: ['otlp', 'otlp-endpoint', 'now'],
		help: `  export RUN --otlp FILE | --otlp-endpoint URL [--now]
                         the run as an OpenTelemetry trace (a span per step, a GenAI span per
                         model call): OTLP/JSON lines in FILE, or sent over OTLP/HTTP (headers
                         from OTEL_EXPORTER_OTLP_HEADERS); --now moves it from game time to now`
	},
	{
		name: 'world check',
		positionals: 'W|PATH',
		options: [],
		help: `  world check W|PATH     validate a world; exit 1 when it has errors`
	},
	{
		name: 'world tree',
		positionals: 'W',
		options: [],
		help: `  world tree W           the environment tree (world -> sector -> arena -> object)`
	},
	{
		name: 'world import',
		positionals: 'PATH | CHECKOUT',
		options: ['name', 'root', 'storage'],
		help: `  world import PATH --name NAME [--root DIR]
                         make a new world from a Tiled map (.tmx, .tmj or .json); its
                         tilesets and images may come from DIR (default: the map's folder)
  world import CHECKOUT --storage SIM --name NAME
                         make a new world from a checkout of the reference implementation
                         (joonspk-research/generative_agents): its town, and the personas
                         and clock of storage/SIM (missing tile art gets placeholders)`
	},
	{
		name: 'runs',
		positionals: '',
		options: [],
		help: `  runs                   list runs (a run whose process died shows as interrupted)`
	},
	{
		name: 'runs check',
		positionals: 'RUN',
		options: [],
		help: `  runs check RUN         verify a run's commit lines, snapshots and memory rows;
                         says what is wrong and how to repair it (exit 1 when wrong)`
	},
	{
		name: 'runs rm',
		positionals: 'RUN',
		options: [],
		help: `  runs rm RUN            remove a run and what only it uses (refused while it is
                         being written or has forks)`
	},
	{
		name: 'runs import',
		positionals: 'FOLDER',
		options: ['world', 'model', 'snapshot-every'],
		help: `  runs import FOLDER --world W [--model offline|openai] [--snapshot-every N]
                         a simulation recorded by the reference implementation
                         (storage/SIM or compressed_storage/SIM) as a run of world W
                         (imported from the same simulation); fork it at its last step
                         to continue it; a snapshot every N steps (default 120), the
                         steps between restored from the one before`
	},
	{
		name: 'diff',
		positionals: 'RUN_A RUN_B',
		options: [],
		help: `  diff RUN_A RUN_B       what differs between two runs: set-up, first divergence,
                         agents, conversations, memories, fail-safes`
	},
	{
		name: 'retrievals',
		positionals: 'RUN',
		options: ['agent', 'step'],
		help: `  retrievals RUN --agent NAME [--step N]
                         the agent's retrievals (id, step, purpose, query)`
	},
	{
		name: 'retrieval',
		positionals: 'RUN ID',
		options: ['weights'],
		help: `  retrieval RUN ID [--weights R,I,V]
                         one retrieval's full score table (optionally re-scored)`
	},
	{
		name: 'rescore',
		positionals: 'RUN',
		options: ['weights', 'decay', 'agent', 'purpose'],
		help: `  rescore RUN --weights R,I,V [--weights ...] [--decay D ...] [--agent NAME] [--purpose P]
                         re-score every recorded retrieval under each weighting (and decay;
                         "run" for the run's own): how many would change their top k, per
                         agent and purpose, and the memories that enter or leave most`
	},
	{
		name: 'interview',
		positionals: 'RUN',
		options: ['agent', 'question', 'step', 'as', 'ablate', 'remember', 'steps'],
		help: `  interview RUN --agent NAME --question TEXT [--step N] [--as PERSONA] [--ablate ...]
                         ask an agent a question (read-only; the run is unchanged;
                         with --remember, a fork in which the agent keeps the exchange)`
	},
	{
		name: 'whisper',
		positionals: 'RUN',
		options: ['agent', 'text', 'step', 'steps'],
		help: `  whisper RUN --agent NAME --text TEXT [--step N] [--steps M]
                         fork RUN at step N (default: its last) with an inner-voice
                         directive heard at the fork's first step, and run M steps
                         (default: one game hour)`
	},
	{
		name: 'set-object',
		positionals: 'RUN',
		options: ['object', 'state', 'step', 'steps'],
		help: `  set-object RUN --object ADDRESS --state TEXT [--step N] [--steps M]
                         fork RUN at step N (default: its last) with an object's state
                         changed from the fork's first step, and run M steps (default:
                         one game hour); says how to compare it with a run without it`
	},
	{
		name: 'prompts list',
		positionals: '',
		options: [],
		help: `  prompts list           stored prompt-set versions (newest first), labels, working copy`
	},
	{
		name: 'prompts show',
		positionals: 'V',
		options: [],
		help: `  prompts show V         one version (id, 8+ digit prefix or label) and its templates`
	},
	{
		name: 'prompts save',
		positionals: '',
		options: ['message'],
		help: `  prompts save --message M
                         store the working copy (prompts/ or SIMULACRA_PROMPTS) as a version`
	},
	{
		name: 'prompts label',
		positionals: 'NAME V',
		options: [],
		help: `  prompts label NAME V   point label NAME at version V (labels move)`
	},
	{
		name: 'prompts history',
		positionals: 'TEMPLATE',
		options: [],
		help: `  prompts history TEMPLATE
                         the versions in which a template's text changed`
	},
	{
		name: 'prompts restore',
		positionals: 'V',
		options: [],
		help: `  prompts restore V      write version V into the working copy`
	},
	{
		name: 'eval',
		positionals: 'RUN',
		options: ['step', 'refresh'],
		help: `  eval RUN [--step N] [--refresh]
                         end-to-end measures at step N (default: the last): diffusion of
                         each scenario fact, relationship density, event attendance`
	},
	{
		name: 'interviews',
		positionals: 'RUN',
		options: ['step', 'agents', 'conditions', 'human'],
		help: `  interviews RUN [--step N] [--agents a,b] [--conditions full,no-reflection,...]
                         the evaluation interview (5 categories x 5 questions) under each
                         ablation condition, stored in the run's evaluations folder
  interviews RUN --human FILE [--step N]
                         import answers written by people (condition human) for the
                         interview set at step N (default: the newest) from a JSON file
                         {"answers": [{"agent", "question", "answer"}]}`
	},
	{
		name: 'stats',
		positionals: '',
		options: ['input'],
		help: `  stats --input FILE     believability rankings (.json or .csv): TrueSkill ratings,
                         Kruskal-Wallis and Dunn's test with Holm-Bonferroni`
	},
	{
		name: 'experiment',
		positionals: 'run FILE | list | show ID | csv ID [runs|effects]',
		options: [],
		help: `  experiment run FILE | list | show ID | csv ID [runs|effects]
                         arms x replicates of runs in parallel worker processes (FILE:
                         {"world", "steps", "replicates", "arms": [{"name", "set", "prompts"}]});
                         per-metric effects with bootstrap CIs and Holm-adjusted p; run
                         again to continue an interrupted one`
	}
];

const GLOBAL: OptionName[] = ['json', 'help'];

/** The top-level help: every command. */
export function helpText(footer: string): string {
	return `Simulacra Studio command line\n\n${COMMANDS.map((c) => c.help).join('\n')}\n\n${footer}`;
}

const flag = (name: OptionName): string => {
	const o: OptionSpec = OPTIONS[name];
	return `--${name}${'value' in o && o.value ? ` ${o.value}` : ''}`;
};

/** The commands of a group (`world`: check, tree, import), or the command itself. */
function family(name: string): CommandSpec[] {
	return COMMANDS.filter((c) => c.name === name || c.name.startsWith(`${name} `));
}

/** One command's help (a group's: each of its commands): its usage, what it does, and its options. */
export function commandHelp(name: string): string | undefined {
	const specs = family(name);
	if (!specs.length) return undefined;
	const options = [...new Set([...specs.flatMap((c) => c.options), ...GLOBAL])];
	const width = Math.max(...options.map((o) => flag(o).length));
	const lines = options.map((o) => {
		const spec: OptionSpec = OPTIONS[o];
		return `  ${flag(o).padEnd(width)}  ${spec.help}${'multiple' in spec && spec.multiple && !spec.help.includes('repeatable') ? ' (repeatable)' : ''}${'short' in spec && spec.short ? ` (-${spec.short})` : ''}`;
	});
	const usage = specs.map((c) => `npm run simulacra -- ${[c.name, c.positionals].filter(Boolean).join(' ')} [options]`);
	return [...usage, '', ...specs.map((c) => c.help), '', 'options:', ...lines].join('\n');
}

export class UsageError extends Error {}

/** What the command line asks for: the command (its table entry's name), its positionals and its options. */
export interface ParsedCommand {
	/** the command as named ("run", "world"); undefined when none was given */
	command?: string;
	/** the positionals after the command */
	rest: string[];
	values: OptionValues;
	/** the table entry found, or undefined for an unknown command */
	spec?: CommandSpec;
}

function optionConfig(names: readonly OptionName[]) {
	return Object.fromEntries(names.map((n) => [n, OPTIONS[n]])) as Record<string, OptionSpec>;
}

/** The table entry of `command` (and its second word, for a group), or why there is none. */
function lookup(command: string | undefined, sub: string | undefined): { spec?: CommandSpec; group: CommandSpec[] } {
	if (command === undefined) return { group: [] };
	const group = family(command);
	const exact = sub === undefined ? undefined : group.find((c) => c.name === `${command} ${sub}`);
	if (exact) return { spec: exact, group };
	const plain = group.find((c) => c.name === command);
	// a group's own entry (`runs`: the list) only without a second word; a plain command takes any positionals
	if (plain && (group.length === 1 || sub === undefined)) return { spec: plain, group };
	return { group };
}

/**
 * Reads the command line: finds the command (a group's command by its second word), refuses an
 * option that command does not take, with its options named, and reads those it does (a value
 * missing or of the wrong kind is refused, as before, by `parseArgs`). An unknown command, or a
 * group's unknown command, takes what any command (of the group) takes: the command itself is
 * refused afterwards, saying which there are.
 */
export function parseCommand(argv: string[]): ParsedCommand {
	// which command: with every option known, so that no option's value is taken for a positional
	const first = parseArgs({ args: argv, allowPositionals: true, strict: false, tokens: true, options: optionConfig(Object.keys(OPTIONS) as OptionName[]) });
	const [command, sub] = first.positionals;
	const { spec, group } = lookup(command, sub);
	const taken: OptionName[] = spec
		? [...spec.options, ...GLOBAL]
		: command === undefined
			? GLOBAL
			: group.length
				? [...new Set([...group.flatMap((c) => c.options), ...GLOBAL])]
				: (Object.keys(OPTIONS) as OptionName[]);
	for (const t of first.tokens ?? []) {
		if (t.kind !== 'option' || taken.includes(t.name as OptionName)) continue;
		throw new UsageError(`${spec?.name ?? command ?? 'simulacra'} does not take ${t.rawName}; its options are ${taken.map(flag).join(', ')}`);
	}
	const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: optionConfig(taken) });
	return { command, rest: positionals.slice(1), values: values as OptionValues, spec };
}
