// A counting semaphore: bounds how many model requests are in flight at once.
//
// Waiters come in two classes: calls a step is waiting for (`now`, the default) and calls made
// ahead of need (`ahead`), ranked by the step that will need them. A free slot goes to a `now`
// waiter first, then to the soonest needed; among equals, to the owner (an agent) served
// longest ago, so one agent's burst of calls does not hold the shared limit while the others
// wait. A waiter made ahead is promoted when a step comes to need it.
//
// Calls needed far ahead (more than SOON_STEPS after the step being made, see `at`) hold at
// most three quarters of the slots: the rest stay free for what the next steps need, so work
// that becomes urgent (a reaction, a conversation) never queues behind the next hour's plans.

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

/** Calls made ahead for the steps within this many of the current one are not "far". */
export const SOON_STEPS = 30;

export class Semaphore {
	private active = 0;
	private activeAhead = 0;
	/** slots held by calls needed far ahead */
	private activeFar = 0;
	/** the step being made (calls made ahead rank by the step that needs them) */
	private step = 0;
	private readonly farLimit: number;
	private waiters: Waiter[] = [];
	private orders = 0;
	/** owner -> when it was last given a slot */
	private readonly served = new Map<string, number>();

	constructor(readonly limit: number) {
		if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency must be a positive integer (got ${limit})`);
		this.farLimit = Math.max(1, Math.floor((limit * 3) / 4));
	}

	/** The step being made: calls made ahead for steps soon after it may take any slot. */
	at(step: number): void {
		if (step <= this.step) return;
		this.step = step;
		// waiters that are no longer far may take the free slots
		while (this.active < this.limit && this.grantNext()) this.active++;
	}

	private far(t: Pick<Ticket, 'priority' | 'rank'>): boolean {
		return t.priority === 'ahead' && t.rank > this.step + SOON_STEPS;
	}

	private hold(t: Ticket & { far?: boolean }): void {
		if (t.priority === 'ahead') this.activeAhead++;
		t.far = this.far(t);
		if (t.far) this.activeFar++;
	}

	private unhold(t: Ticket & { far?: boolean }): void {
		if (t.priority === 'ahead') this.activeAhead--;
		if (t.far) this.activeFar--;
		t.far = false;
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
		if (this.active < this.limit && !(this.far({ priority, rank }) && this.activeFar >= this.farLimit)) {
			this.active++;
			this.served.set(owner, this.orders++);
			const t: Ticket = { priority, rank, owner, granted: true };
			this.hold(t);
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
			this.unhold(ticket);
			ticket.priority = 'now';
			return;
		}
		ticket.priority = 'now';
	}

	release(ticket?: Ticket): void {
		if (ticket) {
			ticket.released = true;
			this.unhold(ticket);
		}
		// The slot passes straight to the next waiter, so `active` stays the same.
		if (!this.grantNext()) this.active--;
	}

	/** Gives a slot to the next waiter that may take one; false when none may. */
	private grantNext(): boolean {
		const next = this.dequeue();
		if (!next) return false;
		next.granted = true;
		this.hold(next);
		next.resolve();
		return true;
	}

	async run<T>(task: () => Promise<T>, opts: SlotOptions = {}): Promise<T> {
		const ticket = await this.acquire(opts);
		try {
			return await task();
		} finally {
			this.release(ticket);
		}
	}

	/**
	 * The waiter to serve next: `now` first, then the soonest needed, then the owner served
	 * longest ago; a far one only while far calls hold fewer than their share of the slots.
	 */
	private dequeue(): Waiter | undefined {
		let best = -1;
		const key = (w: Waiter): [number, number, number, number] => [w.priority === 'now' ? 0 : 1, w.priority === 'now' ? 0 : w.rank, this.served.get(w.owner) ?? -1, w.order];
		let bestKey: [number, number, number, number] | null = null;
		const farFull = this.activeFar >= this.farLimit;
		for (let i = 0; i < this.waiters.length; i++) {
			if (farFull && this.far(this.waiters[i])) continue;
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
