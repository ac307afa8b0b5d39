// A bounded undo history with marks. Entries are whatever the owner records (a paint stroke, a
// structural edit, a group of them); the history only orders them and asks the owner to apply
// one side. It keeps at most `limit` entries: the oldest fall off, and what they changed can no
// longer be undone. A mark names a point in the history, so a gesture that makes several entries
// can afterwards become one step (`squashToMark`) or be taken back entirely (`bailToMark`).

interface Recorded {
	label: string;
}

/** An entry as kept: with its serial, which names the document state after it. */
export type Kept<E> = E & { readonly serial: number };

/** Undoes (`'before'`) or redoes (`'after'`) one entry on the document. */
type ApplyEntry<E> = (entry: Kept<E>, side: 'before' | 'after') => void;

/** Makes one entry of several consecutive ones (oldest first). */
type GroupEntries<E> = (entries: Kept<E>[], label: string) => E;

export const DEFAULT_HISTORY_LIMIT = 500;

export class History<E extends Recorded> {
	private undoStack = $state.raw<Kept<E>[]>([]);
	private redoStack = $state.raw<Kept<E>[]>([]);
	private serial = 0;
	/** the serial of the state below the oldest kept entry (0: the document as opened) */
	private baseSerial = $state(0);
	private savedSerial = $state(0);
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- marks are bookkeeping, never rendered
	private readonly marks = new Map<string, number>();
	private markCount = 0;

	constructor(
		private readonly apply: ApplyEntry<E>,
		private readonly group: GroupEntries<E>,
		readonly limit = DEFAULT_HISTORY_LIMIT
	) {
		if (!Number.isInteger(limit) || limit < 1) throw new Error(`history limit must be a whole number of at least 1, not ${limit}`);
	}

	get canUndo(): boolean {
		return this.undoStack.length > 0;
	}
	get canRedo(): boolean {
		return this.redoStack.length > 0;
	}
	get undoLabel(): string | undefined {
		return this.undoStack.at(-1)?.label;
	}
	get redoLabel(): string | undefined {
		return this.redoStack.at(-1)?.label;
	}
	/** how many steps can be undone */
	get size(): number {
		return this.undoStack.length;
	}
	/** labels of the undoable steps, oldest first */
	get labels(): string[] {
		return this.undoStack.map((e) => e.label);
	}
	/** the serial naming the current document state */
	get current(): number {
		return this.undoStack.at(-1)?.serial ?? this.baseSerial;
	}
	/** whether the document differs from the state last marked saved */
	get dirty(): boolean {
		return this.current !== this.savedSerial;
	}

	markSaved(): void {
		this.savedSerial = this.current;
	}

	/** Records a change already made to the document; drops the redo steps and the oldest past the limit. */
	push(entry: E): void {
		const kept = { ...entry, serial: ++this.serial } as Kept<E>;
		let stack = [...this.undoStack, kept];
		if (stack.length > this.limit) {
			const dropped = stack.slice(0, stack.length - this.limit);
			stack = stack.slice(dropped.length);
			this.baseSerial = dropped.at(-1)!.serial;
		}
		this.undoStack = stack;
		this.redoStack = [];
	}

	undo(): boolean {
		const entry = this.undoStack.at(-1);
		if (!entry) return false;
		this.undoStack = this.undoStack.slice(0, -1);
		this.apply(entry, 'before');
		this.redoStack = [...this.redoStack, entry];
		return true;
	}

	redo(): boolean {
		const entry = this.redoStack.at(-1);
		if (!entry) return false;
		this.redoStack = this.redoStack.slice(0, -1);
		this.apply(entry, 'after');
		this.undoStack = [...this.undoStack, entry];
		return true;
	}

	/** Names the current point of the history; returns the mark's id. */
	mark(name = 'mark'): string {
		const id = `${name}#${++this.markCount}`;
		this.marks.set(id, this.current);
		return id;
	}

	/** Whether `id` is a mark that has not been used up or dropped. */
	hasMark(id: string): boolean {
		return this.marks.has(id);
	}

	/** Forgets a mark without changing anything. */
	dropMark(id: string): void {
		this.marks.delete(id);
	}

	/** How many kept entries were recorded after the mark (serials only grow, so they are the ones above it). */
	private above(id: string): number {
		const at = this.marks.get(id);
		if (at === undefined) throw new Error(`no history mark "${id}"`);
		let n = 0;
		for (let k = this.undoStack.length - 1; k >= 0 && this.undoStack[k].serial > at; k--) n++;
		return n;
	}

	/**
	 * Undoes everything done since the mark and forgets it (nothing of it can be redone); the
	 * redo steps from before the mark are gone too. Returns how many steps were taken back.
	 */
	bailToMark(id: string): number {
		const n = this.above(id);
		this.marks.delete(id);
		for (let k = 0; k < n; k++) {
			const entry = this.undoStack.at(-1)!;
			this.undoStack = this.undoStack.slice(0, -1);
			this.apply(entry, 'before');
		}
		if (n > 0) this.redoStack = [];
		return n;
	}

	/**
	 * Makes everything done since the mark one undo step labelled `label` (nothing changes when
	 * there was at most one) and forgets the mark. Returns how many steps were joined.
	 */
	squashToMark(id: string, label?: string): number {
		const n = this.above(id);
		this.marks.delete(id);
		if (n < 2) return n;
		const entries = this.undoStack.slice(-n);
		const last = entries.at(-1)!;
		const joined = { ...this.group(entries, label ?? last.label), serial: last.serial } as Kept<E>;
		this.undoStack = [...this.undoStack.slice(0, -n), joined];
		return n;
	}
}
