import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LiveRun } from './src/lib/server/run/runner';
const home = mkdtempSync(path.join(tmpdir(), 'h9-'));
const live = await LiveRun.start({ world: 'smallville', steps: Number(process.argv[2] ?? 360), seed: 1, home });
const t0 = performance.now();
const slow: string[] = [];
while (!live.done) {
	const t = performance.now();
	const out = await live.advance();
	const dt = performance.now() - t;
	if (dt > 300) slow.push(`${out.step}:${(dt / 1000).toFixed(1)}s`);
}
const act = live.model.activity();
console.log(((performance.now() - t0) / 1000).toFixed(1), 's', slow.join(' '), JSON.stringify(act));
await live.close();
