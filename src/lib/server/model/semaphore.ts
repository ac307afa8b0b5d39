// A counting semaphore: bounds how many model requests are in flight at once.
//
// Waiters come in two classes: calls a step is waiting for (`now`, the default) and calls made
// ahead of need (`ahead`). A free slot goes to a `now` waiter first; within a class, waiters
// are served round-robin by owner (an agent), so one agent's burst of calls does not hold the
// shared limit while the others wait. A waiter made ahead can be promoted when a step comes to
// need it.

export type Priority = 'now' | 'ahead';

export interface Ticket {
	priority: Priority;
	readonly owner: string;
	/** set once the slot is granted */
	granted: boolean;
	/** set once the slot is given back */
	released?: boolean;
}

interface Waiter extends Ticket {
	resolve: () => void;
}

export class Semaphore {
	private active = 0;
	private activeAhead = 0;
	/** per class: owner -> its waiters in order; the Map's order is the round-robin order */
	private readonly queues: Record<Priority, Map<string, Waiter[]>> = { now: new Map(), ahead: new Map() };

	constructor(readonly limit: number) {
		if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency must be a positive integer (got ${limit})`);
	}

	/** slots in use */
	get inFlight(): number {
		return this.active;
	}

	/** slots in use by calls made ahead of need */
	get inFlightAhead(): number {
		return this.activeAhead;
	}

	/** waiters per class */
	get queued(): Record<Priority, number> {
		const count = (m: Map<string, Waiter[]>) => [...m.values()].reduce((n, l) => n + l.length, 0);
		return { now: count(this.queues.now), ahead: count(this.queues.ahead) };
	}

	/** Waits for a slot; the ticket says which class the holder counts in. */
	async acquire(opts: { priority?: Priority; owner?: string; ticket?: (t: Ticket) => void } = {}): Promise<Ticket> {
		const priority = opts.priority ?? 'now';
		const owner = opts.owner ?? '';
		if (this.active < this.limit) {
			this.active++;
			if (priority === 'ahead') this.activeAhead++;
			const t: Ticket = { priority, owner, granted: true };
			opts.ticket?.(t);
			return t;
		}
		let waiter!: Waiter;
		const granted = new Promise<void>((resolve) => {
			waiter = { priority, owner, granted: false, resolve };
		});
		this.enqueue(waiter);
		opts.ticket?.(waiter);
		await granted;
		return waiter;
	}

	/** A waiting ticket made ahead of need moves to the front class (a step now waits for it). */
	promote(ticket: Ticket): void {
		if (ticket.priority === 'now' || ticket.released) return;
		if (ticket.granted) {
			ticket.priority = 'now';
			this.activeAhead--;
			return;
		}
		const w = ticket as Waiter;
		const list = this.queues.ahead.get(w.owner);
		const i = list?.indexOf(w) ?? -1;
		if (!list || i < 0) return;
		list.splice(i, 1);
		if (list.length === 0) this.queues.ahead.delete(w.owner);
		w.priority = 'now';
		this.enqueue(w);
	}

	release(ticket?: Ticket): void {
		if (ticket) ticket.released = true;
		if (ticket?.priority === 'ahead') this.activeAhead--;
		const next = this.dequeue('now') ?? this.dequeue('ahead');
		// The slot passes straight to the next waiter, so `active` stays the same.
		if (next) {
			next.granted = true;
			if (next.priority === 'ahead') this.activeAhead++;
			next.resolve();
		} else this.active--;
	}

	async run<T>(task: () => Promise<T>, opts: { priority?: Priority; owner?: string; ticket?: (t: Ticket) => void } = {}): Promise<T> {
		const ticket = await this.acquire(opts);
		try {
			return await task();
		} finally {
			this.release(ticket);
		}
	}

	private enqueue(w: Waiter): void {
		const q = this.queues[w.priority];
		const list = q.get(w.owner);
		if (list) list.push(w);
		else q.set(w.owner, [w]);
	}

	/** The first waiter of the owner whose turn it is; that owner goes to the back of the round. */
	private dequeue(priority: Priority): Waiter | undefined {
		const q = this.queues[priority];
		for (const [owner, list] of q) {
			const w = list.shift();
			q.delete(owner);
			if (list.length > 0) q.set(owner, list);
			if (w) return w;
		}
		return undefined;
	}
}
