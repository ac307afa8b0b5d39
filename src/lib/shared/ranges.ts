// Inclusive frame ranges, as the behaviour diff computes them and the compare view steps through them.

/** Inclusive [from, to] ranges sorted and merged where they touch or overlap. */
export function mergeRanges(ranges: Iterable<readonly [number, number]>): [number, number][] {
	const sorted = [...ranges].map(([a, b]): [number, number] => [Math.min(a, b), Math.max(a, b)]).sort((x, y) => x[0] - y[0]);
	const out: [number, number][] = [];
	for (const [a, b] of sorted) {
		const last = out[out.length - 1];
		if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
		else out.push([a, b]);
	}
	return out;
}
