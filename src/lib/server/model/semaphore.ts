// A counting semaphore: bounds how many model requests are in flight at once.
//
// Waiters come in two classes: calls a step is waiting for (`now`, the default) and calls made
// ahead of need (`ahead`), ranked by the step that will need them. A free slot goes to a `now`
// waiter first, then to the soonest needed; among equals, to the owner (an agent) served
// longest ago, so one agent's burst of calls does not hold the shared limit while the others
// wait. A waiter made ahead is promoted when a step comes to need it.

export type Priority = 'now' | 'ahead';

export interface Ticket {
	priority: Priority;
	/** for `ahead`: the step that will need the call (sooner first) */
	rank: number;
	readonly owner: string;
	/** set once the slot is granted */
	granted: boolean;
	/** set once the slot is given back */
	released?: boolean;
}

interface Waiter extends Ticket {
	resolve: () => void;
	order: number;
}

export interface SlotOptions {
	priority?: Priority;
	rank?: number;
	owner?: string;
	ticket?: (t: Ticket) => void;
}

export class Semaphore {
	private active = 0;
	private activeAhead = 0;
	private waiters: Waiter[] = [];
	private orders = 0;
	/** owner -> when it was last given a slot */
	private readonly served = new Map<string, number>();

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
		const now = this.waiters.filter((w) => w.priority === 'now').length;
		return { now, ahead: this.waiters.length - now };
	}

	/** Waits for a slot; the ticket says which class the holder counts in. */
	async acquire(opts: SlotOptions = {}): Promise<Ticket> {
		const priority = opts.priority ?? 'now';
		const owner = opts.owner ?? '';
		const rank = opts.rank ?? 0;
		if (this.active < this.limit) {
			this.active++;
			if (priority === 'ahead') this.activeAhead++;
			this.served.set(owner, this.orders++);
			const t: Ticket = { priority, rank, owner, granted: true };
			opts.ticket?.(t);
			return t;
		}
		let waiter!: Waiter;
		const granted = new Promise<void>((resolve) => {
			waiter = { priority, rank, owner, granted: false, resolve, order: this.orders++ };
		});
		this.waiters.push(waiter);
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
		ticket.priority = 'now';
	}

	release(ticket?: Ticket): void {
		if (ticket) ticket.released = true;
		if (ticket?.priority === 'ahead') this.activeAhead--;
		const next = this.dequeue();
		// The slot passes straight to the next waiter, so `active` stays the same.
		if (next) {
			next.granted = true;
			if (next.priority === 'ahead') this.activeAhead++;
			next.resolve();
		} else this.active--;
	}

	async run<T>(task: () => Promise<T>, opts: SlotOptions = {}): Promise<T> {
		const ticket = await this.acquire(opts);
		try {
			return await task();
		} finally {
			this.release(ticket);
		}
	}

	/** The waiter to serve next: `now` first, then the soonest needed, then the owner served longest ago. */
	private dequeue(): Waiter | undefined {
		let best = -1;
		const key = (w: Waiter): [number, number, number, number] => [w.priority === 'now' ? 0 : 1, w.priority === 'now' ? 0 : w.rank, this.served.get(w.owner) ?? -1, w.order];
		let bestKey: [number, number, number, number] | null = null;
		for (let i = 0; i < this.waiters.length; i++) {
			const k = key(this.waiters[i]);
			if (!bestKey || less(k, bestKey)) {
				best = i;
				bestKey = k;
			}
		}
		if (best < 0) return undefined;
		const [w] = this.waiters.splice(best, 1);
		this.served.set(w.owner, this.orders++);
		return w;
	}
}

function less(a: number[], b: number[]): boolean {
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
	return false;
}
