// The behaviour diff as text, for the command line (`diff A B`; `--json` prints the RunDiff).

import type { DifferenceKind, Differences, RunChange, RunDiff } from '../../api/diff';

const clip = (s: string, n = 90) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function changeText(c: RunChange): string {
	const v = (x: string | null) => (x === null ? '-' : clip(x, 60));
	const what = c.kind === 'parent' ? 'fork of' : c.kind === 'input' ? `input at step ${c.key}` : `${c.kind} ${c.key}`;
	return `${what}: ${v(c.a)} -> ${v(c.b)}`;
}

const KIND_TEXT: Record<DifferenceKind, string> = {
	moves: 'moves or actions',
	reactions: 'reactions, plans',
	conversations: 'conversations',
	memories: 'memories',
	reflections: 'reflections',
	calls: 'model calls'
};

/** "moves or actions  60 frames, 1 agent; frames 181-240" (the first few places it shows) */
function differenceText(x: Differences): string {
	const shown = 6;
	const where = x.frames.slice(0, shown).map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`));
	const more = x.frames.length > shown ? `, … (${x.frames.length} places)` : '';
	const what = x.kind === 'moves' ? `${x.count} frames` : String(x.count);
	const agents = `${x.agents.length} agent${x.agents.length === 1 ? '' : 's'}`;
	return `${KIND_TEXT[x.kind].padEnd(18)} ${what}, ${agents}; frame${x.frames.length === 1 && x.frames[0][0] === x.frames[0][1] ? '' : 's'} ${where.join(', ')}${more}`;
}

export function formatDiff(d: RunDiff): string {
	const out: string[] = [`diff A ${d.a.id} (${d.a.steps} steps)`, `     B ${d.b.id} (${d.b.steps} steps)`];
	out.push(d.changes.length ? 'set-up changes:' : 'set-up changes: none');
	for (const c of d.changes) out.push(`  ${changeText(c)}`);
	const { start, end } = d.steps;
	out.push(start < end ? `compared: steps ${start}..${end - 1} (frames ${start}..${end})` : `compared: nothing (both runs hold the same steps up to frame ${end})`);
	out.push(`verdict: ${d.verdict.title}. ${d.verdict.detail}`);
	for (const x of d.differences) out.push(`  ${differenceText(x)}`);
	const f = d.firstDivergence;
	if (!f) {
		// the verdict says it
	} else if (f.reason === 'call') out.push(`first divergence: step ${f.step}, call ${f.callId}: different calls were made (A ${f.a?.template}, B ${f.b?.template})`);
	else if (f.reason === 'state') out.push(`first divergence: step ${f.step}, the commit line differs (${(f.parts ?? []).join(', ')})${f.agents?.length ? `; agents ${f.agents.join(', ')}` : ''}`);
	else {
		const why = f.reason === 'prompt' ? 'the prompt differs' : f.reason === 'answer' ? 'same prompt, another answer' : `only ${f.a ? 'A' : 'B'} made this call`;
		out.push(`first divergence: step ${f.step}, call ${f.callId} (${f.template}): ${why}`);
	}
	const moved = d.agents.filter((a) => a.differingSteps > 0);
	out.push(moved.length ? 'agents whose position or action differs:' : 'agents: no position or action differs');
	for (const a of moved) out.push(`  ${a.name.padEnd(20)} ${String(a.differingSteps).padStart(6)} frames, first at ${a.firstDifferentStep}`);
	const c = d.conversations;
	out.push(`conversations: ${c.both} in both, ${c.onlyATotal} only in A, ${c.onlyBTotal} only in B`);
	const s = d.summary;
	out.push(`places visited (distinct): A ${s.a.places}, B ${s.b.places}; reflections: A ${s.a.reflections}, B ${s.b.reflections}`);
	const onlyA = d.memories.agents.reduce((n, a) => n + a.onlyATotal, 0);
	const onlyB = d.memories.agents.reduce((n, a) => n + a.onlyBTotal, 0);
	out.push(`memories at frame ${d.memories.step}: A ${s.a.memories}, B ${s.b.memories}; ${onlyA} only in A, ${onlyB} only in B`);
	for (const fact of s.facts) {
		const diff = [...fact.onlyA.map((x) => `-${x}`), ...fact.onlyB.map((x) => `+${x}`)];
		out.push(`who knows "${fact.label}": A ${fact.a.length}, B ${fact.b.length} agents${diff.length ? ` (${diff.join(', ')})` : ''}`);
	}
	const failing = d.failsafe.filter((r) => r.a.failsafes > 0 || r.b.failsafes > 0);
	out.push(failing.length ? 'fail-safe answers:' : 'fail-safe answers: none');
	const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
	for (const r of failing) out.push(`  ${r.template.padEnd(22)} A ${r.a.failsafes}/${r.a.calls} (${pct(r.a.rate)})  B ${r.b.failsafes}/${r.b.calls} (${pct(r.b.rate)})`);
	return out.join('\n');
}
