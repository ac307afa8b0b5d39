// The command line's search, step changes and trace export (`search`, `inspect --changes`,
// `export --otlp`): each answers a value for --json and its text.

import type { SearchAnswer } from '../lib/api/search';
import type { StepChanges } from '../lib/api/changes';
import { parseKinds, RunSearcher } from '../lib/server/search/search';
import { exportOtlpFile, sendOtlp, type OtlpSummary } from '../lib/server/trace/otlp';

export interface Printed {
	value: unknown;
	text: () => string;
}

export async function searchCommand(run: string, query: string, opts: { agent?: string; kind?: string; limit?: number }): Promise<Printed> {
	const filter = parseKinds(opts.kind);
	const searcher = await RunSearcher.open(run);
	try {
		const answer = await searcher.search(query, { agent: opts.agent, filter, limit: opts.limit });
		const names = searcher.names();
		// --json: the list of results, each {agent, kind, id, step, text, score} and what else it has
		return { value: answer.results, text: () => searchText(answer, (id) => names.get(id) ?? id) };
	} finally {
		searcher.close();
	}
}

export function searchText(a: SearchAnswer, names: (id: string) => string): string {
	const built = [
		a.indexes.memories.created ? `memory word index made in ${a.indexes.memories.ms} ms` : '',
		...a.indexes.texts.filter((t) => t.added > 0).map((t) => `${t.added} texts of ${t.run} indexed in ${t.ms} ms`)
	].filter(Boolean);
	const lines = [
		`${a.results.length} result${a.results.length === 1 ? '' : 's'} for "${a.query}" in run ${a.run} (${a.ms} ms${built.length ? `; ${built.join(', ')}` : ''})`,
		...(a.warnings ?? []).map((w) => `warning: ${w}`)
	];
	for (const r of a.results) {
		const what =
			r.kind === 'memory'
				? `memory ${r.memoryKind ?? ''}${r.importance !== undefined ? ` (${r.importance})` : ''}`
				: r.kind === 'call'
					? `call ${r.template ?? ''}`
					: `line${r.with ? ` to ${names(r.with)}` : ''}`;
		const who = r.agent ? names(r.agent) : '-';
		lines.push(`${r.score.toFixed(4)}  step ${String(r.step).padStart(6)}  ${who.padEnd(18)} ${what}  [${r.id}${r.run && r.run !== a.run ? ` in ${r.run}` : ''}] ${r.matched.join('+')}`);
		lines.push(`        ${r.text.replace(/\s+/g, ' ')}`);
	}
	return lines.join('\n');
}

export function changesText(c: StepChanges): string[] {
	if (c.changes.length === 0) return [`changes of the step to ${c.step}: none`];
	const counts = Object.entries(c.counts)
		.map(([k, n]) => `${n} ${k}`)
		.join(', ');
	return [`changes of the step to ${c.step} (journal step ${c.step - 1}): ${counts}`, ...c.changes.map((x) => `  ${x.kind.padEnd(12)} ${x.text}`)];
}

export async function exportCommand(run: string, opts: { otlp?: string; endpoint?: string; now?: boolean }): Promise<Printed> {
	if (!opts.otlp && !opts.endpoint) throw new Error('export needs --otlp FILE or --otlp-endpoint URL');
	const out: { file?: OtlpSummary & { file: string }; sent?: OtlpSummary & { endpoint: string } } = {};
	if (opts.otlp) out.file = { ...exportOtlpFile(run, opts.otlp, { now: opts.now }), file: opts.otlp };
	if (opts.endpoint) out.sent = { ...(await sendOtlp(run, opts.endpoint, { now: opts.now })), endpoint: opts.endpoint };
	const line = (s: OtlpSummary) => `trace ${s.traceId}: ${s.spans} spans (${s.steps} steps, ${s.calls} model calls) in ${s.requests} requests, ${s.ms} ms`;
	return {
		value: out,
		text: () =>
			[
				out.file ? `wrote ${out.file.file} (${(out.file.bytes / 1e6).toFixed(1)} MB): ${line(out.file)}` : '',
				out.sent ? `sent to ${out.sent.endpoint}: ${line(out.sent)}` : ''
			]
				.filter(Boolean)
				.join('\n')
	};
}
