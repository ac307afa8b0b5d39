import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LiveRun } from './src/lib/server/run/runner';
const home = mkdtempSync(path.join(tmpdir(), 'h9-'));
const live = await LiveRun.start({ world: process.argv[2], steps: Number(process.argv[3]), seed: Number(process.argv[4]), home });
const t0 = performance.now();
let n = 0;
while (!live.done) {
	const s = live.step;
	const out = await live.advance();
	if (live.sim.state.talks?.length) console.log('talks at', s, JSON.stringify(live.sim.state.talks.map((t) => [t.id, t.commitStep])));
	if (out.conversations.length) console.log('commit at', out.step);
}
console.log((performance.now() - t0) / 1000, live.summary().llmCalls);
await live.close();
