// Problems found in a world folder. Each names the file and the place in it, so an author can
// go straight to the line, layer or object at fault.

export interface WorldProblem {
	/** relative to the world folder (or the path the caller gave, when the folder itself is missing) */
	file: string;
	/** e.g. 'line 12', 'layer "arenas", object 7 "kitchen"' */
	where?: string;
	message: string;
}

export function formatProblem(p: WorldProblem): string {
	return `${p.file}${p.where ? ` (${p.where})` : ''}: ${p.message}`;
}

export class WorldError extends Error {
	readonly problems: WorldProblem[];
	constructor(problems: WorldProblem[], world = 'world') {
		const n = problems.length;
		super(
			`${world} has ${n} problem${n === 1 ? '' : 's'}:\n` +
				problems.map((p) => `  ${formatProblem(p)}`).join('\n')
		);
		this.name = 'WorldError';
		this.problems = problems;
	}
}

/** Collects errors and warnings while a world is read. */
export class ProblemList {
	readonly errors: WorldProblem[] = [];
	readonly warnings: WorldProblem[] = [];
	error(file: string, where: string | undefined, message: string): void {
		this.errors.push(where ? { file, where, message } : { file, message });
	}
	warn(file: string, where: string | undefined, message: string): void {
		this.warnings.push(where ? { file, where, message } : { file, message });
	}
}

export const lineWhere = (line: number | undefined) => (line === undefined ? undefined : `line ${line}`);
