// `npm run simulacra -- experiment ...`: run an experiment from its file (continuing an
// interrupted one), list experiments, show or export one's report.

import { dataHome } from '../paths';
import { loadExperimentFile, runExperiment } from './pool';
import { experimentReport, listExperiments, reportComparisonsCsv, reportRunsCsv } from './store';
import type { ExperimentProgress, ExperimentReport } from '../../api/experiments';

function fmt(x: number): string {
	if (!Number.isFinite(x)) return String(x);
	const a = Math.abs(x);
	return a !== 0 && (a < 0.001 || a >= 1e6) ? x.toExponential(2) : String(Math.round(x * 1000) / 1000);
}

function pfmt(p: number): string {
	return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

export function reportText(r: ExperimentReport): string {
	const lines = [`experiment ${r.experiment.id} (${r.state}): ${r.experiment.world ?? 'forked'}, ${r.experiment.steps} steps, ${r.experiment.replicates} replicates per arm`];
	for (const a of r.arms) lines.push(`  arm ${a.name}${a.set.length ? ` [${a.set.join(' ')}]` : ''}${a.prompts ? ` prompts ${a.prompts}` : ''}: ${a.runs.length} runs`);
	if (r.comparisons.length) {
		const rows = r.comparisons.map((c) => [c.metric, `${c.b} − ${c.a}`, fmt(c.effect), `[${fmt(c.ci[0])}, ${fmt(c.ci[1])}]`, pfmt(c.p), pfmt(c.pAdjusted), c.pAdjusted < 0.05 ? '*' : '']);
		const head = ['metric', 'arms', 'effect', '95% CI', 'p', 'p (Holm)', ''];
		const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
		lines.push('', [head, ...rows].map((row) => row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n'));
		const sig = r.comparisons.filter((c) => c.pAdjusted < 0.05).length;
		lines.push('', sig ? `${sig} significant difference${sig === 1 ? '' : 's'} (Holm-adjusted p < 0.05, marked *)` : 'no significant difference (Holm-adjusted p < 0.05)');
	}
	return lines.join('\n');
}

function progressLine(p: ExperimentProgress): string {
	const done = p.jobs.filter((j) => j.state === 'done').length;
	const running = p.jobs.filter((j) => j.state === 'running').map((j) => `${j.key} ${Math.floor((100 * j.stepsDone) / Math.max(1, j.stepsTotal))}%`);
	const pct = Math.floor((100 * p.stepsDone) / Math.max(1, p.stepsTotal));
	const eta = p.etaSeconds === null ? '' : ` · ETA ${p.etaSeconds >= 60 ? `${Math.floor(p.etaSeconds / 60)}m${String(p.etaSeconds % 60).padStart(2, '0')}s` : `${p.etaSeconds}s`}`;
	return `${pct}% · ${done}/${p.jobs.length} runs${eta}${running.length ? ` · ${running.join(', ')}` : ''}`;
}

/** The `experiment` command; returns the exit code. */
export async function experimentCommand(args: string[], json: boolean): Promise<number> {
	const [sub, arg, extra] = args;
	const out = (value: unknown, text: () => string) => process.stdout.write(json ? JSON.stringify(value, null, 2) + '\n' : text() + '\n');
	switch (sub) {
		case 'run': {
			if (!arg) throw new Error('experiment run needs a FILE');
			const def = await loadExperimentFile(arg);
			const tty = !json && process.stderr.isTTY === true;
			let last = '';
			const result = await runExperiment(def, {
				home: dataHome(),
				file: arg,
				onProgress: (p) => {
					const line = progressLine(p);
					if (line === last) return;
					last = line;
					if (tty) process.stderr.write(`\r${line}\x1b[K`);
					else if (!json && p.jobs.every((j) => j.state !== 'running')) process.stderr.write(line + '\n');
				}
			});
			if (tty) process.stderr.write('\n');
			if (!json && result.kept) process.stderr.write(`kept ${result.kept} finished run${result.kept === 1 ? '' : 's'} from before; ran ${result.ran}\n`);
			out(result.report, () => reportText(result.report));
			return 0;
		}
		case 'list': {
			const list = listExperiments();
			out(list, () => (list.length ? list.map((e) => `${e.id}  ${e.state}  ${e.done}/${e.total} runs  arms ${e.arms.join(', ')}  ${e.created.slice(0, 19).replace('T', ' ')}`).join('\n') : 'no experiments'));
			return 0;
		}
		case 'show': {
			if (!arg) throw new Error('experiment show needs an experiment id');
			const r = experimentReport(arg);
			out(r, () => reportText(r));
			return 0;
		}
		case 'csv': {
			if (!arg) throw new Error('experiment csv needs an experiment id');
			if (extra !== undefined && extra !== 'runs' && extra !== 'effects') throw new Error(`experiment csv ID runs|effects, not "${extra}"`);
			const r = experimentReport(arg);
			process.stdout.write(extra === 'effects' ? reportComparisonsCsv(r) : reportRunsCsv(r));
			return 0;
		}
		default:
			throw new Error(`experiment run FILE | list | show ID | csv ID [runs|effects], not "${sub ?? ''}"`);
	}
}
