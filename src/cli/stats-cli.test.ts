// The stats command as a person uses it: a real process on a rankings file, its output and exit code.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'cli-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(...a: string[]) {
	const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), ...a], {
		cwd: root,
		env: { ...process.env, SIMULACRA_HOME: path.join(dir, 'home') },
		encoding: 'utf8'
	});
	expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /);
	return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('simulacra stats', () => {
	it('analyses the paper-like rankings as JSON, and refuses a broken CSV naming its lines', () => {
		const ok = cli('stats', '--input', 'src/lib/eval/fixtures/paper-rankings.json', '--json');
		expect(ok.code).toBe(0);
		const stats = JSON.parse(ok.out);
		const byMu = Object.keys(stats.trueskill).sort((a, b) => stats.trueskill[b].mu - stats.trueskill[a].mu);
		expect(byMu).toEqual(['full', 'no-reflection', 'no-reflection-planning', 'human', 'no-observation-reflection-planning']);
		expect(stats.trueskill.full).toMatchObject({ mu: expect.any(Number), sigma: expect.any(Number) });
		expect(stats.kruskal).toMatchObject({ df: 4, H: expect.any(Number) });
		expect(stats.kruskal.p).toBeLessThan(0.001);
		expect(stats.dunn).toHaveLength(10);
		expect(Object.keys(stats.dunn[0]).sort()).toEqual(['a', 'b', 'p', 'pAdjusted', 'z']);

		const bad = path.join(dir, 'bad.csv');
		writeFileSync(bad, 'rater,question,order\nr1,q1,full>no-reflection\nr1,q2,full>full\nr2,q1,\n');
		const refused = cli('stats', '--input', bad);
		expect(refused.code).toBe(1);
		expect(refused.err).toContain('bad.csv (line 3): condition "full" appears twice');
		expect(refused.err).toContain('bad.csv (line 4): order is empty');
	}, 60_000);
});
