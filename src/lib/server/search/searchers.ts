// The server process's open searchers: a few runs kept open (their LanceDB tables, text
// indexes and embedders), so the debugger's searches do not reopen them each time.

import { RunSearcher } from './search';

const KEEP = 4;
const KEY = Symbol.for('simulacra.searchers');

type Open = Map<string, Promise<RunSearcher>>;

function open(): Open {
	const g = globalThis as unknown as Record<symbol, Open | undefined>;
	return (g[KEY] ??= new Map());
}

/** The searcher of run `id` in data home `home` (opened on first use, most recent kept). */
export function searcherFor(id: string, home: string): Promise<RunSearcher> {
	const map = open();
	const key = `${home}\u0000${id}`;
	let s = map.get(key);
	if (s) {
		map.delete(key);
	} else {
		s = RunSearcher.open(id, { home });
		s.catch(() => map.delete(key));
	}
	map.set(key, s);
	while (map.size > KEEP) {
		const [oldest, p] = map.entries().next().value as [string, Promise<RunSearcher>];
		map.delete(oldest);
		p.then((x) => x.close(), () => undefined);
	}
	return s;
}

/** Closes every open searcher (tests, shutdown). */
export function closeSearchers(): void {
	const map = open();
	for (const p of map.values()) p.then((x) => x.close(), () => undefined);
	map.clear();
}
