// A* over the collision grid, 4-connected, unit cost, Manhattan heuristic. Buffers are typed
// arrays reused between searches: paths are asked for often and the map is large (140 x 100).

export class PathFinder {
	private readonly g: Float64Array;
	private readonly from: Int32Array;
	private readonly seen: Uint32Array;
	private readonly closed: Uint32Array;
	private epoch = 0;
	private heapNode: Int32Array;
	private heapF: Float64Array;
	private heapSize = 0;

	constructor(
		readonly width: number,
		readonly height: number,
		private readonly blocked: Uint8Array
	) {
		const n = width * height;
		this.g = new Float64Array(n);
		this.from = new Int32Array(n);
		this.seen = new Uint32Array(n);
		this.closed = new Uint32Array(n);
		this.heapNode = new Int32Array(1024);
		this.heapF = new Float64Array(1024);
	}

	isWalkable(tile: number): boolean {
		return tile >= 0 && tile < this.blocked.length && this.blocked[tile] === 0;
	}

	/**
	 * Tiles to walk from `start` (excluded) to `goal` (included); [] when already there,
	 * null when the goal cannot be reached.
	 */
	find(start: number, goal: number): number[] | null {
		if (start === goal) return [];
		if (!this.isWalkable(goal)) return null;
		const w = this.width;
		const gx = goal % w;
		const gy = (goal - gx) / w;
		const epoch = ++this.epoch;
		this.heapSize = 0;
		this.g[start] = 0;
		this.from[start] = -1;
		this.seen[start] = epoch;
		this.push(start, this.heuristic(start, gx, gy));
		const neighbours = [0, 0, 0, 0];
		while (this.heapSize > 0) {
			const node = this.pop();
			if (node === goal) return this.trace(goal);
			if (this.closed[node] === epoch) continue;
			this.closed[node] = epoch;
			const x = node % w;
			let count = 0;
			if (x > 0) neighbours[count++] = node - 1;
			if (x < w - 1) neighbours[count++] = node + 1;
			if (node >= w) neighbours[count++] = node - w;
			if (node + w < this.blocked.length) neighbours[count++] = node + w;
			const gNext = this.g[node] + 1;
			for (let i = 0; i < count; i++) {
				const next = neighbours[i];
				if (this.blocked[next] !== 0 || this.closed[next] === epoch) continue;
				if (this.seen[next] === epoch && this.g[next] <= gNext) continue;
				this.seen[next] = epoch;
				this.g[next] = gNext;
				this.from[next] = node;
				this.push(next, gNext + this.heuristic(next, gx, gy));
			}
		}
		return null;
	}

	private heuristic(node: number, gx: number, gy: number): number {
		const x = node % this.width;
		const y = (node - x) / this.width;
		// A tiny tie-break towards the goal keeps paths straight and the search small.
		return (Math.abs(x - gx) + Math.abs(y - gy)) * 1.0001;
	}

	private trace(goal: number): number[] {
		const path: number[] = [];
		for (let node = goal; this.from[node] !== -1; node = this.from[node]) path.push(node);
		return path.reverse();
	}

	private push(node: number, f: number): void {
		if (this.heapSize === this.heapNode.length) {
			const nodes = new Int32Array(this.heapSize * 2);
			nodes.set(this.heapNode);
			const fs = new Float64Array(this.heapSize * 2);
			fs.set(this.heapF);
			this.heapNode = nodes;
			this.heapF = fs;
		}
		let i = this.heapSize++;
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (this.heapF[parent] <= f) break;
			this.heapNode[i] = this.heapNode[parent];
			this.heapF[i] = this.heapF[parent];
			i = parent;
		}
		this.heapNode[i] = node;
		this.heapF[i] = f;
	}

	private pop(): number {
		const top = this.heapNode[0];
		const lastNode = this.heapNode[--this.heapSize];
		const lastF = this.heapF[this.heapSize];
		let i = 0;
		for (;;) {
			let child = 2 * i + 1;
			if (child >= this.heapSize) break;
			if (child + 1 < this.heapSize && this.heapF[child + 1] < this.heapF[child]) child++;
			if (this.heapF[child] >= lastF) break;
			this.heapNode[i] = this.heapNode[child];
			this.heapF[i] = this.heapF[child];
			i = child;
		}
		this.heapNode[i] = lastNode;
		this.heapF[i] = lastF;
		return top;
	}
}
