// The reference imports as a person runs them: `world import CHECKOUT --storage SIM --name N`,
// `runs import FOLDER --world W`, `inspect --json` with each agent's memory count, a fork at the
// recording's last step, and refusals that name the file and exit 1 without a stack trace.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFixtureCheckout } from '../lib/server/world/reference/testing';

const root = path.resolve(__dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'reference-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const worlds = path.join(dir, 'worlds');
const env = { ...process.env, SIMULACRA_HOME: path.join(dir, 'home'), SIMULACRA_WORLDS: worlds };

function cli(...a: string[]) {
	const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), ...a], { cwd: root, env, encoding: 'utf8' });
	expect(r.stderr, r.stderr).not.toMatch(/\n\s+at /);
	return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('reference imports on the command line', () => {
	it('imports the town, a recording as a run, inspects it and forks it', () => {
		const fixture = writeFixtureCheckout(path.join(dir, 'checkout'));
		const world = cli('world', 'import', fixture.checkout, '--storage', 'base_two', '--name', 'ville', '--json');
		expect(world.code).toBe(0);
		const report = JSON.parse(world.out);
		expect(report).toMatchObject({ ok: true, world: 'ville', zones: { sectors: 2, arenas: 3, objects: 3, spawns: 4 } });
		expect(cli('world', 'check', 'ville').code).toBe(0);

		const text = cli('runs', 'import', fixture.compressed, '--world', 'ville');
		expect(text.code).toBe(0);
		expect(text.out).toMatch(/imported compressed recording as run (\S+) of world ville/);
		const run = /as run (\S+)/.exec(text.out)![1];
		expect(text.out).toContain('Ann Lee: 6 memories');
		expect(text.out).toContain('2 snapshots (every 120 steps and the last)');

		// --snapshot-every N: the interval and the snapshots written in the report and in run.json
		const sparse = cli('runs', 'import', fixture.compressed, '--world', 'ville', '--snapshot-every', '5', '--json');
		expect(sparse.code).toBe(0);
		const sparseReport = JSON.parse(sparse.out);
		expect(sparseReport).toMatchObject({ ok: true, steps: 9, snapshotEvery: 5, snapshots: 3 });
		expect(JSON.parse(readFileSync(path.join(sparseReport.dir, 'run.json'), 'utf8')).snapshotEvery).toBe(5);

		const at = JSON.parse(cli('inspect', run, '--step', '9', '--json').out);
		expect(at.agents.map((a: { id: string; memories: number; address: string }) => [a.id, a.memories, a.address])).toEqual([
			['ann-lee', 6, 'Hobbs Cafe:cafe:cafe counter'],
			['bob-ray', 1, 'Hobbs Cafe:cafe']
		]);
		expect(cli('runs', 'check', run).code).toBe(0);
		const fork = cli('run', '--from', `${run}@9`, '--steps', '12', '--json');
		expect(fork.code).toBe(0);
		expect(JSON.parse(fork.out).steps).toBe(21);
	}, 120_000);

	it('refuses what is not a checkout or a recording, naming what it expected, with exit code 1', () => {
		const notCheckout = cli('world', 'import', dir, '--storage', 'base_two', '--name', 'nothing');
		expect(notCheckout.code).toBe(1);
		expect(notCheckout.err).toMatch(/not a checkout of the reference implementation/);
		const notRecording = cli('runs', 'import', dir, '--world', 'ville', '--json');
		expect(notRecording.code).toBe(1);
		expect(JSON.parse(notRecording.out).problems[0].message).toMatch(/expected meta\.json and master_movement\.json/);
		expect(readdirSync(worlds)).not.toContain('nothing');
	}, 60_000);

	it('refuses --snapshot-every that is not a whole number of at least 1, naming the option; --help lists it', () => {
		for (const bad of ['0', 'abc', '2.5']) {
			const text = cli('runs', 'import', dir, '--world', 'ville', '--snapshot-every', bad);
			expect(text.code).toBe(1);
			expect(text.err).toBe(`error: --snapshot-every must be a whole number of at least 1, not "${bad}"\n`);
		}
		const json = cli('runs', 'import', dir, '--world', 'ville', '--snapshot-every', '0', '--json');
		expect(json.code).toBe(1);
		expect(JSON.parse(json.out)).toMatchObject({ ok: false, error: '--snapshot-every must be a whole number of at least 1, not "0"' });
		const help = cli('runs', 'import', '--help');
		expect(help.code).toBe(0);
		expect(help.out).toContain('[--snapshot-every N]');
		expect(help.out).toMatch(/\n {2}--snapshot-every N +a snapshot every N steps \(default 120\)/);
	}, 60_000);
});
