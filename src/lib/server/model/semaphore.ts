// A counting semaphore: bounds how many model requests are in flight at once.

export class Semaphore {
	private active = 0;
	private readonly waiting: (() => void)[] = [];

	constructor(readonly limit: number) {
		if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency must be a positive integer (got ${limit})`);
	}

	get inFlight(): number {
		return this.active;
	}

	async acquire(): Promise<void> {
		if (this.active < this.limit) {
			this.active++;
			return;
		}
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	release(): void {
		const next = this.waiting.shift();
		// The slot passes straight to the next waiter, so `active` stays the same.
		if (next) next();
		else this.active--;
	}

	async run<T>(task: () => Promise<T>): Promise<T> {
		await this.acquire();
		try {
			return await task();
		} finally {
			this.release();
		}
	}
}
