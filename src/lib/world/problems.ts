// Problems found in a world folder. Each names the file and the place in it, so an author can
// go straight to the line, layer or object at fault.

/**
 * The place a problem is about, for an editor to jump to: a map tile, a zone (by address), a
 * map object (by its Tiled id), a persona (by id) or the world settings. `field` names the
 * JSON field at fault (`home`, `knownPlaces[1]`, `defaults.retrieval.decay`).
 */
export type ProblemPlace =
	| { kind: 'tile'; x: number; y: number }
	| { kind: 'zone'; address: string }
	| { kind: 'object'; id: number }
	| { kind: 'persona'; id: string; field?: string }
	| { kind: 'settings'; field?: string };

export interface WorldProblem {
	/** relative to the world folder (or the path the caller gave, when the folder itself is missing) */
	file: string;
	/** e.g. 'line 12', 'layer "arenas", object 7 "kitchen"' */
	where?: string;
	message: string;
	/** where an editor shows it, when the problem is about one place */
	at?: ProblemPlace;
}

export function formatProblem(p: WorldProblem): string {
	return `${p.file}${p.where ? ` (${p.where})` : ''}: ${p.message}`;
}

export class WorldError extends Error {
	readonly problems: WorldProblem[];
	/** the first line of the message: what has how many problems (`world "x" has 2 problems`) */
	readonly summary: string;
	constructor(problems: WorldProblem[], world = 'world') {
		const n = problems.length;
		const summary = `${world} has ${n} problem${n === 1 ? '' : 's'}`;
		super(`${summary}:\n` + problems.map((p) => `  ${formatProblem(p)}`).join('\n'));
		this.name = 'WorldError';
		this.problems = problems;
		this.summary = summary;
	}
}

/** Collects errors and warnings while a world is read. */
export class ProblemList {
	readonly errors: WorldProblem[] = [];
	readonly warnings: WorldProblem[] = [];
	error(file: string, where: string | undefined, message: string, at?: ProblemPlace): void {
		this.errors.push(problem(file, where, message, at));
	}
	warn(file: string, where: string | undefined, message: string, at?: ProblemPlace): void {
		this.warnings.push(problem(file, where, message, at));
	}
}

function problem(file: string, where: string | undefined, message: string, at: ProblemPlace | undefined): WorldProblem {
	const p: WorldProblem = where ? { file, where, message } : { file, message };
	if (at) p.at = at;
	return p;
}

export const lineWhere = (line: number | undefined) => (line === undefined ? undefined : `line ${line}`);
