import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LiveRun } from './src/lib/server/run/runner';
const home = mkdtempSync(path.join(tmpdir(), 'h9-'));
const live = await LiveRun.start({ world: 'smallville', steps: 60, seed: 1, home });
const started = (live as unknown as { aheadStarted: Set<string> }).aheadStarted;
while (!live.done) {
	const out = await live.advance();
	const calls = live.model.drainCalls.length;
}
console.log([...started].filter((j) => j.startsWith('react')).join('\n'));
const sim = live.sim;
console.log(sim.state.agents.map((a) => `${a.id} ${a.action.activity} end=${(a.action.end - sim.time) / 10000} path=${a.action.path.length}`).join('\n'));
await live.close();
