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

	it('refuses a limit that is not a positive integer', () => {
		expect(() => new Semaphore(0)).toThrow(/positive integer/);
	});
});
