// The table of commands: each command takes its own options, refuses the others in one line
// naming its options, and has its own help. In process for the parsing; a real process for what a
// person sees (the message, the exit code, the help).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandHelp, helpText, parseCommand, UsageError } from './commands';
import { INPUT_NAMES, PAIR_INPUTS, inputDef } from '../lib/engine/inputs';
import { cliHarness, root } from './testing';

const { cli } = cliHarness('cli-commands-');

describe('the table of commands', () => {
	it('has an entry for every command the command line runs, and no other', () => {
		const main = readFileSync(path.join(root, 'src/cli/main.ts'), 'utf8');
		const body = main.slice(main.indexOf('async function main('));
		const cases = [...body.matchAll(/\n\t\tcase '([a-z-]+)':/g)].map((m) => m[1]).sort();
		const tops = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))].sort();
		expect(tops).toEqual(cases);
		expect(cases.length).toBeGreaterThanOrEqual(19);
	});

	it('takes every input the registry gives the command line: the run\'s pairs, each input command\'s options', () => {
		const run = COMMANDS.find((c) => c.name === 'run');
		for (const name of PAIR_INPUTS) expect(run?.options).toContain(name);
		for (const name of INPUT_NAMES) {
			const spec = COMMANDS.find((c) => c.name === name);
			expect(spec, `the command ${name}`).toBeDefined();
			for (const arg of Object.values(inputDef(name).args)) expect(spec?.options).toContain(arg.flag[0]);
		}
	});

	it('reads the options a command takes, as before', () => {
		const run = parseCommand(['run', '--world', 'the-ville-3', '--steps', '5', '--set', 'a=1', '--set', 'b=2', '--profile', 'fast', '--estimate', '--json']);
		expect(run).toMatchObject({ command: 'run', rest: [], spec: { name: 'run' } });
		expect(run.values).toEqual({ world: 'the-ville-3', steps: '5', set: ['a=1', 'b=2'], profile: 'fast', estimate: true, json: true });
		// options before the command, and a group's command by its second word
		const imp = parseCommand(['--json', 'world', 'import', 'map.tmx', '--name', 'harbour', '--root=assets']);
		expect(imp).toMatchObject({ command: 'world', rest: ['import', 'map.tmx'], spec: { name: 'world import' }, values: { json: true, name: 'harbour', root: 'assets' } });
		expect(parseCommand(['prompts', 'save', '-m', 'shorter']).values.message).toBe('shorter');
		// --weights many times: every one, in order
		expect(parseCommand(['rescore', 'r1', '--weights', '1,1,1', '--weights', 'run', '--decay', '0.9']).values).toEqual({ weights: ['1,1,1', 'run'], decay: ['0.9'] });
		expect(parseCommand(['runs']).spec?.name).toBe('runs');
		expect(parseCommand(['experiment', 'run', 'x.json']).spec?.name).toBe('experiment');
		expect(parseCommand(['resume', 'some-run', '--steps', '9']).values).toEqual({ steps: '9' });
	});

	it('refuses an option the command does not take, naming the command and its options', () => {
		const refused = (...argv: string[]) => {
			try {
				parseCommand(argv);
			} catch (e) {
				expect(e).toBeInstanceOf(UsageError);
				return (e as Error).message;
			}
			throw new Error(`${argv.join(' ')} was not refused`);
		};
		expect(refused('retrievals', 'r1', '--agent', 'Klaus', '--text', 'hi')).toBe('retrievals does not take --text; its options are --agent NAME, --step N, --json, --help');
		expect(refused('diff', 'a', 'b', '--steps', '3')).toBe('diff does not take --steps; its options are --json, --help');
		expect(refused('world', 'check', 'the-ville-3', '--name', 'x')).toBe('world check does not take --name; its options are --json, --help');
		expect(refused('prompts', 'list', '-m', 'x')).toMatch(/^prompts list does not take -m; /);
		expect(refused('run', '--world', 'w', '--frobnicate')).toMatch(/^run does not take --frobnicate; its options are --world W, --steps N, .*--profile NAME.*, --json, --help$/);
		expect(refused('inspect', 'r1', '--remember')).toMatch(/^inspect does not take --remember; its options are --step N, --changes, --json, --help$/);
		// one line each
		for (const c of COMMANDS) expect(refused(...c.name.split(' '), '--frobnicate')).not.toContain('\n');
	});

	it("leaves an unknown command, or a group's, to say what there is", () => {
		expect(parseCommand(['frobnicate', '--world', 'x'])).toMatchObject({ command: 'frobnicate', spec: undefined });
		// a group's unknown command takes what the group's commands take
		expect(parseCommand(['world', 'frob', '--name', 'x'])).toMatchObject({ command: 'world', rest: ['frob'], spec: undefined });
		expect(() => parseCommand(['world', 'frob', '--agent', 'x'])).toThrow(/^world does not take --agent; its options are --name NAME, --root DIR, --storage SIM, --json, --help$/);
		expect(() => parseCommand(['runs', 'frob', '--world', 'x'])).not.toThrow();
		// a value still missing is refused as before
		expect(() => parseCommand(['run', '--world'])).toThrow(/argument missing/);
	});

	it("writes a command's help: its usage, what it does and its options", () => {
		const help = commandHelp('inspect')!;
		expect(help).toMatch(/^npm run simulacra -- inspect RUN \[options\]\n\n {2}inspect RUN --step N \[--changes\]\n/);
		expect(help).toMatch(/\noptions:\n {2}--step N {2,}the state after N steps\n {2}--changes {2,}everything the step did\n {2}--json {2,}.*\n {2}--help {2,}.*\(-h\)$/);
		// a group's help: each of its commands
		const world = commandHelp('world')!;
		for (const sub of ['world check W|PATH', 'world tree W', 'world import PATH --name NAME', 'world import CHECKOUT --storage SIM']) expect(world).toContain(sub);
		expect(commandHelp('world import')).not.toContain('world tree');
		expect(commandHelp('nothing')).toBeUndefined();
		// the top-level help lists every command
		const all = helpText('footer');
		for (const c of COMMANDS) expect(all).toContain(`\n  ${c.name}`);
	});
});

describe('the command line', () => {
	it('refuses an option a command does not take in one line, with exit code 1', () => {
		const r = cli('world', 'tree', 'the-ville-3', '--steps', '5');
		expect(r.code).toBe(1);
		expect(r.out).toBe('');
		expect(r.err).toBe('error: world tree does not take --steps; its options are --json, --help\n');
		const j = cli('retrievals', 'r1', '--text', 'hi', '--json');
		expect(j.code).toBe(1);
		expect(JSON.parse(j.out)).toEqual({ ok: false, error: 'retrievals does not take --text; its options are --agent NAME, --step N, --json, --help' });
	}, 60_000);

	it("prints a command's help with --help, and the list of commands without a command", () => {
		const run = cli('run', '--help');
		expect(run.code).toBe(0);
		expect(run.out).toMatch(/^npm run simulacra -- run \[options\]\n/);
		expect(run.out).toMatch(/\n {2}--profile NAME +a named settings profile/);
		expect(run.out).not.toContain('world import');
		const sub = cli('prompts', 'save', '-h');
		expect(sub.code).toBe(0);
		expect(sub.out).toContain('--message M');
		expect(sub.out).not.toContain('prompts list');

		const top = cli('--help');
		expect(top.code).toBe(0);
		for (const c of ['run', 'resume', 'inspect', 'world import', 'runs check', 'rescore', 'experiment']) expect(top.out).toContain(`\n  ${c} `);
		const none = cli();
		expect(none.code).toBe(1);
		expect(none.out).toBe(top.out);
	}, 60_000);
});
