import { rescoreRun } from '../src/lib/server/rescore/run';
import { FIFTY } from './rescore';
for (const grid of [{ weights: FIFTY, decays: [null] }, { weights: [null], decays: [null] }, { weights: FIFTY, decays: [null] }]) {
	const c0 = process.cpuUsage();
	const r = await rescoreRun('smallville-20261125-002714-cc660c', { grid, home: '/tmp/h11home' });
	const c = process.cpuUsage(c0);
	console.log(grid.weights.length, r.retrievals, r.ms, 'cpu', Math.round((c.user + c.system) / 1000));
}
