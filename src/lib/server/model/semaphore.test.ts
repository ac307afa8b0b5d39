import { describe, expect, it } from 'vitest';
import { Semaphore, type Ticket } from './semaphore';

/** Holds one slot per call until released by hand; records the order slots were granted. */
function harness(limit: number) {
	const sem = new Semaphore(limit);
	const order: string[] = [];
	const releases = new Map<string, () => void>();
	const take = (name: string, opts: Parameters<Semaphore['acquire']>[0] = {}) => {
		let ticket: Ticket | undefined;
		const done = sem.run(
			() =>
				new Promise<void>((resolve) => {
					order.push(name);
					releases.set(name, resolve);
				}),
			{ ...opts, ticket: (t) => (ticket = t) }
		);
		return { done, ticket: () => ticket as Ticket };
	};
	const release = async (name: string) => {
		releases.get(name)?.();
		await new Promise((r) => setImmediate(r));
	};
	return { sem, order, take, release };
}

describe('Semaphore', () => {
	it('serves what a step waits for before work ahead, the soonest needed first, owners in turn', async () => {
		const h = harness(1);
		h.take('first');
		h.take('ahead-late', { priority: 'ahead', rank: 90, owner: 'a' });
		h.take('ahead-soon', { priority: 'ahead', rank: 10, owner: 'a' });
		h.take('now-a1', { owner: 'a' });
		h.take('now-a2', { owner: 'a' });
		h.take('now-b1', { owner: 'b' });
		await new Promise((r) => setImmediate(r));
		expect(h.sem.queued).toEqual({ now: 3, ahead: 2 });
		for (const name of ['first', 'now-a1', 'now-b1', 'now-a2', 'ahead-soon']) await h.release(name);
		// a's second call waits for b's first: the limit is shared in turn
		expect(h.order).toEqual(['first', 'now-a1', 'now-b1', 'now-a2', 'ahead-soon', 'ahead-late']);
	});

	it('promotes a waiting call made ahead when a step comes to need it, and counts calls ahead in flight', async () => {
		const h = harness(2);
		h.take('busy');
		const ahead = h.take('ahead', { priority: 'ahead', rank: 5, owner: 'x' });
		h.take('later-ahead', { priority: 'ahead', rank: 1, owner: 'y' });
		h.take('now', { owner: 'z' });
		await new Promise((r) => setImmediate(r));
		expect(h.order).toEqual(['busy', 'ahead']);
		expect(h.sem.inFlightAhead).toBe(1);
		h.sem.promote(ahead.ticket());
		expect(h.sem.inFlightAhead).toBe(0);
		await h.release('ahead');
		expect(h.order.at(-1)).toBe('now');
		expect(h.sem.inFlight).toBe(2);
		// promoting after release changes nothing
		h.sem.promote(ahead.ticket());
		expect(h.sem.inFlightAhead).toBe(0);
	});

	it('keeps a quarter of the slots from calls needed far ahead, for what the next steps need', async () => {
		const h = harness(4);
		h.sem.at(100);
		// needed 31+ steps ahead: far; at most three of the four slots
		for (const n of ['far-1', 'far-2', 'far-3', 'far-4']) h.take(n, { priority: 'ahead', rank: 140, owner: n });
		await new Promise((r) => setImmediate(r));
		expect(h.order).toEqual(['far-1', 'far-2', 'far-3']);
		expect(h.sem.inFlight).toBe(3);
		// a call needed soon takes the free slot at once
		h.take('soon', { priority: 'ahead', rank: 110, owner: 's' });
		await new Promise((r) => setImmediate(r));
		expect(h.order.at(-1)).toBe('soon');
		// a freed far slot goes to the waiting far call
		await h.release('far-1');
		expect(h.order.at(-1)).toBe('far-4');
		// as the steps go on, what was far is soon: the queue is served when slots are free
		const late = h.take('late-far', { priority: 'ahead', rank: 200, owner: 'l' });
		await h.release('soon');
		await new Promise((r) => setImmediate(r));
		expect(h.order).not.toContain('late-far');
		h.sem.at(180);
		await new Promise((r) => setImmediate(r));
		expect(h.order.at(-1)).toBe('late-far');
		expect(late.ticket().granted).toBe(true);
	});

	it('refuses a limit that is not a positive integer', () => {
		expect(() => new Semaphore(0)).toThrow(/positive integer/);
	});
});
