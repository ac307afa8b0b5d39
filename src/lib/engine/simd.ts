// Exact dot products of one query with many stored vectors, for retrieval.
//
// The vectors live in one contiguous table: row i at float i * stride, the stride padded to a
// multiple of 4 floats with zeros so every row is a whole number of 128-bit lanes. Two backends
// share that layout and compute the very same bits:
//   - 'simd': a small WebAssembly module (hand-encoded below; no build step) working on f32x4
//     lanes with four independent accumulators per row. The table is a WebAssembly.Memory.
//   - 'scalar': plain JavaScript over a Float32Array, for runtimes without WebAssembly SIMD. It
//     replays the kernel's order of f32 operations with Math.fround, so a run gives the same
//     scores on either backend.
//
// The order of operations (part of the results, do not change it casually): row and query are
// split into 4-float chunks; chunk j is multiplied lane-wise and added to accumulator j mod 4
// (f32, rounded after every multiply and add); the accumulators are combined as
// (acc0 + acc1) + (acc2 + acc3) lane-wise, then the lanes as (l0 + l1) + (l2 + l3). Only
// standard (not relaxed) SIMD instructions are used, so the result is the same on every machine.

export type VectorBackend = 'simd' | 'scalar';

/** Floats per stored row: the dimensions rounded up to a multiple of 4. */
export function paddedStride(dimensions: number): number {
	return (dimensions + 3) & ~3;
}

// ---------------------------------------------------------------------------------------------
// A tiny WebAssembly binary encoder: just what the kernel below needs.

/** Unsigned LEB128. */
function u32(n: number): number[] {
	const out: number[] = [];
	do {
		let byte = n & 0x7f;
		n >>>= 7;
		if (n !== 0) byte |= 0x80;
		out.push(byte);
	} while (n !== 0);
	return out;
}

/** Signed LEB128 (for i32.const). */
function s32(n: number): number[] {
	const out: number[] = [];
	for (;;) {
		const byte = n & 0x7f;
		n >>= 7;
		if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
			out.push(byte);
			return out;
		}
		out.push(byte | 0x80);
	}
}

function name(s: string): number[] {
	return [...u32(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
}

/** A length-prefixed vector of already-encoded items. */
function vec(items: number[][]): number[] {
	return [...u32(items.length), ...items.flat()];
}

function section(id: number, body: number[]): number[] {
	return [id, ...u32(body.length), ...body];
}

const I32 = 0x7f;
const V128 = 0x7b;
const VOID = 0x40; // empty block type

// Instructions. Local indices and constants are LEB128-encoded; memory accesses carry an
// alignment hint (log2 bytes) and a constant offset added to the address on the stack.
const get = (l: number) => [0x20, ...u32(l)];
const set = (l: number) => [0x21, ...u32(l)];
const i32c = (n: number) => [0x41, ...s32(n)];
const i32Add = [0x6a];
const i32Mul = [0x6c];
const i32And = [0x71];
const i32GeU = [0x4f];
const i32LtU = [0x49];
const i32GtU = [0x4b];
const i32Load = (offset: number) => [0x28, 2, ...u32(offset)];
const f32Add = [0x92];
const f32Store = (offset: number) => [0x38, 2, ...u32(offset)];
const block = [0x02, VOID];
const loop = [0x03, VOID];
const ifThen = [0x04, VOID];
const end = [0x0b];
const br = (depth: number) => [0x0c, ...u32(depth)];
const brIf = (depth: number) => [0x0d, ...u32(depth)];
const call = (f: number) => [0x10, ...u32(f)];
// SIMD instructions: prefix 0xfd, then the opcode as LEB128.
const simd = (opcode: number) => [0xfd, ...u32(opcode)];
const v128Load = (offset: number) => [...simd(0x00), 4, ...u32(offset)];
const f32x4ExtractLane = (lane: number) => [...simd(0x1f), lane];
const f32x4Add = simd(0xe4);
const f32x4Mul = simd(0xe6);

/** A function body: local declarations (one i32 or v128 group each) and code. */
function body(locals: [number, number][], code: number[][]): number[] {
	const bytes = [...vec(locals.map(([count, type]) => [...u32(count), type])), ...code.flat(), ...end];
	return [...u32(bytes.length), ...bytes];
}

// ---------------------------------------------------------------------------------------------
// The kernel module.
//
// Imports the table's memory as env.memory. Functions (all addresses in bytes):
//   0 dot1(query, len, out, row)            one row; f32 result stored at out
//   1 dot2(query, len, out, row0, row1)     ROWS (2) rows sharing each query load; results at
//                                           out, out + 4
//   2 dots(base, stride, count, query, out)  export: rows at base + i * stride, i < count
//   3 dots_at(list, count, base, stride, query, out)
//                                           export: rows at base + list[i] * stride (list: i32s)
// `len` and `stride` are the padded row length in bytes (a multiple of 16). Results are f32.

/**
 * Rows per call of the inner kernel. Two rows share each query load and keep eight accumulators
 * in registers; measured against 1, 3 and 4 it is as fast, and the scan is bound by memory
 * bandwidth at large sizes anyway. Any value gives the same results.
 */
const ROWS = 2;

/** Code of a dotN function: params query, len, out, row0..rowN-1; every row in the fixed order. */
function dotRows(rowCount: number): number[] {
	const Q = 0;
	const LEN = 1;
	const OUT = 2;
	const ROW = 3; // rows at ROW .. ROW + rowCount - 1
	const K = ROW + rowCount; // i32: byte offset in the row
	const MAIN = K + 1; // i32: end of the whole 64-byte blocks
	const QV = MAIN + 1; // v128: the current query chunk
	const ACC = QV + 1; // v128: accumulator c of row r at ACC + 4 r + c
	const acc = (r: number, c: number) => ACC + 4 * r + c;

	/** acc[r][c] += row_r[K + offset ..] * query[K + offset ..] (4 floats), for every row. */
	const accumulate = (offset: number, c: number): number[][] => {
		const code: number[][] = [get(Q), get(K), i32Add, v128Load(offset), set(QV)];
		for (let r = 0; r < rowCount; r++) {
			code.push(get(acc(r, c)), get(ROW + r), get(K), i32Add, v128Load(offset), get(QV), f32x4Mul, f32x4Add, set(acc(r, c)));
		}
		return code;
	};

	const code: number[][] = [
		// MAIN = len & ~63
		get(LEN),
		i32c(-64),
		i32And,
		set(MAIN),
		// Whole blocks of 16 floats: chunk c of the block goes to accumulator c.
		block,
		loop,
		get(K),
		get(MAIN),
		i32GeU,
		brIf(1),
		...accumulate(0, 0),
		...accumulate(16, 1),
		...accumulate(32, 2),
		...accumulate(48, 3),
		get(K),
		i32c(64),
		i32Add,
		set(K),
		br(0),
		end,
		end
	];
	// The last 0-3 chunks go to accumulators 0, 1, 2 in turn.
	for (let c = 0; c < 3; c++) {
		code.push(get(K), get(LEN), i32LtU, ifThen, ...accumulate(0, c), get(K), i32c(16), i32Add, set(K), end);
	}
	// Reduce: (acc0 + acc1) + (acc2 + acc3) lane-wise, then (l0 + l1) + (l2 + l3); store f32.
	for (let r = 0; r < rowCount; r++) {
		code.push(get(acc(r, 0)), get(acc(r, 1)), f32x4Add, get(acc(r, 2)), get(acc(r, 3)), f32x4Add, f32x4Add, set(QV));
		code.push(get(OUT));
		code.push(get(QV), f32x4ExtractLane(0), get(QV), f32x4ExtractLane(1), f32Add);
		code.push(get(QV), f32x4ExtractLane(2), get(QV), f32x4ExtractLane(3), f32Add);
		code.push(f32Add, f32Store(4 * r));
	}
	return body(
		[
			[2, I32],
			[1 + 4 * rowCount, V128]
		],
		code
	);
}

/**
 * Code of an exported driver: rows ROWS at a time through function 1, the rest through dot1.
 * `row(plus)` pushes the byte address of row i + plus; I is the local holding i.
 */
function driver(p: { count: number; query: number; stride: number; out: number; I: number }, row: (plus: number) => number[][]): number[] {
	const { count, query, stride, out, I } = p;
	// query, len, out + 4 i: the leading arguments of dot1 and dot2
	const args = [get(query), get(stride), get(out), get(I), i32c(4), i32Mul, i32Add];
	return body(
		[[1, I32]],
		[
			block,
			loop,
			// while (i + ROWS <= count): dotN of rows i .. i + ROWS - 1
			get(I),
			i32c(ROWS),
			i32Add,
			get(count),
			i32GtU,
			brIf(1),
			...args,
			...Array.from({ length: ROWS }, (_, r) => row(r)).flat(),
			call(1),
			get(I),
			i32c(ROWS),
			i32Add,
			set(I),
			br(0),
			end,
			end,
			// while (i < count): dot1 of row i
			block,
			loop,
			get(I),
			get(count),
			i32GeU,
			brIf(1),
			...args,
			...row(0),
			call(0),
			get(I),
			i32c(1),
			i32Add,
			set(I),
			br(0),
			end,
			end
		]
	);
}

/** dots(rows, stride, count, query, out): row i at rows + i * stride. */
function dotsDriver(): number[] {
	const [BASE, STRIDE, COUNT, Q, OUT, I] = [0, 1, 2, 3, 4, 5];
	return driver({ count: COUNT, query: Q, stride: STRIDE, out: OUT, I }, (plus) => [
		get(BASE),
		get(I),
		...(plus ? [i32c(plus), i32Add] : []),
		get(STRIDE),
		i32Mul,
		i32Add
	]);
}

/** dots_at(list, count, rows, stride, query, out): row i at rows + list[i] * stride. */
function dotsAtDriver(): number[] {
	const [LIST, COUNT, BASE, STRIDE, Q, OUT, I] = [0, 1, 2, 3, 4, 5, 6];
	return driver({ count: COUNT, query: Q, stride: STRIDE, out: OUT, I }, (plus) => [
		get(BASE),
		get(LIST),
		get(I),
		i32c(4),
		i32Mul,
		i32Add,
		i32Load(4 * plus),
		get(STRIDE),
		i32Mul,
		i32Add
	]);
}

const funcType = (params: number) => [0x60, ...vec(Array.from({ length: params }, () => [I32])), ...vec([])];

/** The kernel module's bytes. */
export const KERNEL_WASM: Uint8Array<ArrayBuffer> = new Uint8Array([
	...[0x00, 0x61, 0x73, 0x6d], // magic "\0asm"
	...[0x01, 0x00, 0x00, 0x00], // version 1
	// type section: (i32 x4) -> (), (i32 x 3 + ROWS) -> (), (i32 x5) -> (), (i32 x6) -> ()
	...section(1, vec([funcType(4), funcType(3 + ROWS), funcType(5), funcType(6)])),
	// import section: env.memory, a memory of at least 0 pages, no maximum
	...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, 0x00]])),
	// function section: the type of each function
	...section(3, vec([[0], [1], [2], [3]])),
	// export section: the two drivers
	...section(
		7,
		vec([
			[...name('dots'), 0x00, 2],
			[...name('dots_at'), 0x00, 3]
		])
	),
	// code section
	...section(10, vec([dotRows(1), dotRows(ROWS), dotsDriver(), dotsAtDriver()]))
]);

// ---------------------------------------------------------------------------------------------
// Runtime support

let supported: boolean | undefined;
let compiled: WebAssembly.Module | undefined;

/**
 * Whether this runtime runs the SIMD kernel: WebAssembly with fixed-width SIMD, and allowed to
 * compile it (a page's content security policy may forbid that even where it validates).
 */
export function simdSupported(): boolean {
	if (supported === undefined) {
		supported = false;
		if (typeof WebAssembly === 'object' && typeof WebAssembly.validate === 'function' && WebAssembly.validate(KERNEL_WASM)) {
			try {
				// Synchronous compilation is fine: the module is about 1 KB.
				compiled = new WebAssembly.Module(KERNEL_WASM);
				supported = true;
			} catch {
				supported = false;
			}
		}
	}
	return supported;
}

interface KernelExports {
	dots(rows: number, stride: number, count: number, query: number, out: number): void;
	dots_at(list: number, count: number, rows: number, stride: number, query: number, out: number): void;
}

const PAGE = 65536;
/** Addressable bytes of a 32-bit WebAssembly memory. */
const MAX_BYTES = 65536 * PAGE;

/**
 * The kernel's order of operations in plain JavaScript, over padded rows: `stride` floats of
 * `rows` from `base`, and of `query` from 0. Every product and sum is rounded to f32
 * (Math.fround; a sum of two f32 values rounded through f64 equals the f32 sum), so the result
 * equals the SIMD kernel's bit for bit.
 */
export function dotScalar(rows: Float32Array, base: number, query: Float32Array, stride: number): number {
	const f = Math.fround;
	let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
	let b0 = 0, b1 = 0, b2 = 0, b3 = 0;
	let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
	let d0 = 0, d1 = 0, d2 = 0, d3 = 0;
	const main = stride & ~15;
	let k = 0;
	let p = base;
	for (; k < main; k += 16, p += 16) {
		a0 = f(a0 + f(rows[p] * query[k]));
		a1 = f(a1 + f(rows[p + 1] * query[k + 1]));
		a2 = f(a2 + f(rows[p + 2] * query[k + 2]));
		a3 = f(a3 + f(rows[p + 3] * query[k + 3]));
		b0 = f(b0 + f(rows[p + 4] * query[k + 4]));
		b1 = f(b1 + f(rows[p + 5] * query[k + 5]));
		b2 = f(b2 + f(rows[p + 6] * query[k + 6]));
		b3 = f(b3 + f(rows[p + 7] * query[k + 7]));
		c0 = f(c0 + f(rows[p + 8] * query[k + 8]));
		c1 = f(c1 + f(rows[p + 9] * query[k + 9]));
		c2 = f(c2 + f(rows[p + 10] * query[k + 10]));
		c3 = f(c3 + f(rows[p + 11] * query[k + 11]));
		d0 = f(d0 + f(rows[p + 12] * query[k + 12]));
		d1 = f(d1 + f(rows[p + 13] * query[k + 13]));
		d2 = f(d2 + f(rows[p + 14] * query[k + 14]));
		d3 = f(d3 + f(rows[p + 15] * query[k + 15]));
	}
	// The last 0-3 chunks of 4 go to accumulators a, b, c in turn.
	if (k < stride) {
		a0 = f(a0 + f(rows[p] * query[k]));
		a1 = f(a1 + f(rows[p + 1] * query[k + 1]));
		a2 = f(a2 + f(rows[p + 2] * query[k + 2]));
		a3 = f(a3 + f(rows[p + 3] * query[k + 3]));
		k += 4;
		p += 4;
	}
	if (k < stride) {
		b0 = f(b0 + f(rows[p] * query[k]));
		b1 = f(b1 + f(rows[p + 1] * query[k + 1]));
		b2 = f(b2 + f(rows[p + 2] * query[k + 2]));
		b3 = f(b3 + f(rows[p + 3] * query[k + 3]));
		k += 4;
		p += 4;
	}
	if (k < stride) {
		c0 = f(c0 + f(rows[p] * query[k]));
		c1 = f(c1 + f(rows[p + 1] * query[k + 1]));
		c2 = f(c2 + f(rows[p + 2] * query[k + 2]));
		c3 = f(c3 + f(rows[p + 3] * query[k + 3]));
	}
	const l0 = f(f(a0 + b0) + f(c0 + d0));
	const l1 = f(f(a1 + b1) + f(c1 + d1));
	const l2 = f(f(a2 + b2) + f(c2 + d2));
	const l3 = f(f(a3 + b3) + f(c3 + d3));
	return f(f(l0 + l1) + f(l2 + l3));
}

/**
 * A growable table of fixed-length vectors, padded to `stride` floats, with dot products
 * against a query. With the 'simd' backend the table is a WebAssembly.Memory laid out as
 *   [rows: capacity x stride f32][query: stride f32][results: capacity f32][row list: capacity i32]
 * The rows stay at offset 0 when the memory grows; the scratch areas after them move.
 * Growing replaces the underlying buffer: views from `row()` must then be taken again.
 */
export class VectorTable {
	readonly stride: number;
	readonly backend: VectorBackend;
	private cap = 0;
	/** all rows (and, for 'simd', the scratch areas) */
	private f32: Float32Array = new Float32Array(0);
	private i32: Int32Array = new Int32Array(0);
	private memory: WebAssembly.Memory | undefined;
	private kernel: KernelExports | undefined;
	private query: Float32Array | undefined; // 'scalar' only

	/** `label` names the table in error messages. */
	constructor(
		readonly dimensions: number,
		capacity: number,
		backend: VectorBackend = simdSupported() ? 'simd' : 'scalar',
		private readonly label = 'vector table'
	) {
		if (!Number.isInteger(dimensions) || dimensions < 1) throw new Error(`${label}: ${dimensions} is not a valid number of dimensions`);
		if (backend === 'simd' && !simdSupported()) throw new Error(`${label}: this runtime has no WebAssembly SIMD`);
		this.stride = paddedStride(dimensions);
		this.backend = backend;
		if (backend === 'simd') {
			// Sized for the initial capacity up front: creating at full size is cheaper than growing.
			const first = Math.min(Math.max(1, capacity), this.maxCapacity);
			this.memory = new WebAssembly.Memory({ initial: Math.ceil(this.bytesFor(first) / PAGE) });
			const instance = new WebAssembly.Instance(compiled as WebAssembly.Module, { env: { memory: this.memory } });
			this.kernel = instance.exports as unknown as KernelExports;
		} else {
			this.query = new Float32Array(this.stride);
		}
		this.reserve(Math.max(1, capacity));
	}

	get capacity(): number {
		return this.cap;
	}

	/** The most rows a table of this stride can hold. */
	get maxCapacity(): number {
		// 'simd': rows + a result and a list entry per row + the query, within 4 GiB
		if (this.backend === 'simd') return Math.floor((MAX_BYTES / 4 - this.stride) / (this.stride + 2));
		return Math.floor(2 ** 32 / this.stride);
	}

	/** Bytes of the 'simd' layout for `capacity` rows: rows, query, results, row list. */
	private bytesFor(capacity: number): number {
		return 4 * (capacity * this.stride + this.stride + 2 * capacity);
	}

	/**
	 * Makes room for `n` rows (doubling, so adding is amortised constant time). Returns true when
	 * the storage moved, i.e. earlier `row()` views are no longer valid.
	 */
	reserve(n: number): boolean {
		if (n <= this.cap) return false;
		const max = this.maxCapacity;
		if (n > max) throw new Error(`${this.label}: ${n} vectors of ${this.dimensions} dimensions do not fit (at most ${max})`);
		const next = Math.min(max, Math.max(n, this.cap * 2));
		const stride = this.stride;
		if (this.memory) {
			const bytes = this.bytesFor(next);
			const pages = Math.ceil(bytes / PAGE) - this.memory.buffer.byteLength / PAGE;
			try {
				if (pages > 0) this.memory.grow(pages);
			} catch {
				throw new Error(`${this.label}: could not grow the vector memory to ${Math.ceil(bytes / 2 ** 20)} MiB for ${next} vectors`);
			}
			this.f32 = new Float32Array(this.memory.buffer);
			this.i32 = new Int32Array(this.memory.buffer);
		} else {
			const rows = new Float32Array(next * stride);
			rows.set(this.f32);
			this.f32 = rows;
		}
		this.cap = next;
		return true;
	}

	/** Stores `vector` (length `dimensions`) as row `index`, zeroing the padding. */
	set(index: number, vector: ArrayLike<number>): void {
		if (vector.length !== this.dimensions) throw new Error(`${this.label}: a vector has ${vector.length} dimensions, expected ${this.dimensions}`);
		if (!(index >= 0 && index < this.cap)) throw new Error(`${this.label}: row ${index} is outside the capacity ${this.cap}`);
		const base = index * this.stride;
		this.f32.set(vector, base);
		// The padding may hold old scratch data after a growth; the kernel reads it, so clear it.
		this.f32.fill(0, base + this.dimensions, base + this.stride);
	}

	/** Whether `view` looks into this table's current storage (growth would invalidate it). */
	holds(view: ArrayBufferView): boolean {
		return view.buffer === this.f32.buffer;
	}

	/** A view of row `index` (length `dimensions`), valid until the next growth. */
	row(index: number): Float32Array {
		const base = index * this.stride;
		return this.f32.subarray(base, base + this.dimensions);
	}

	/** Dot products of `query` with rows 0 .. count - 1, into out[0 .. count - 1]. */
	dots(query: Float32Array, count: number, out: Float64Array): void {
		if (!(count >= 0 && count <= this.cap)) throw new Error(`${this.label}: ${count} rows asked, capacity ${this.cap}`);
		this.dotsOf(query, count, undefined, out);
	}

	/** Dot products of `query` with the listed rows, into out[0 .. rows.length - 1]. */
	dotsAt(query: Float32Array, rows: ArrayLike<number>, out: Float64Array): void {
		const cap = this.cap;
		for (let c = 0; c < rows.length; c++) {
			const i = rows[c];
			if (!(i >= 0 && i < cap && i === Math.floor(i))) throw new Error(`${this.label}: row ${i} (at position ${c}) is outside the table`);
		}
		this.dotsOf(query, rows.length, rows, out);
	}

	private dotsOf(query: Float32Array, count: number, list: ArrayLike<number> | undefined, out: Float64Array): void {
		if (query.length !== this.dimensions) throw new Error(`${this.label}: the query has ${query.length} dimensions, expected ${this.dimensions}`);
		if (out.length < count) throw new Error(`${this.label}: room for ${out.length} results, ${count} needed`);
		const stride = this.stride;
		const f32 = this.f32;
		if (this.kernel) {
			const queryAt = this.cap * stride; // in floats
			const outAt = queryAt + stride;
			const listAt = outAt + this.cap;
			f32.set(query, queryAt);
			f32.fill(0, queryAt + this.dimensions, queryAt + stride);
			if (list) {
				const i32 = this.i32;
				for (let c = 0; c < count; c++) i32[listAt + c] = list[c];
				this.kernel.dots_at(4 * listAt, count, 0, 4 * stride, 4 * queryAt, 4 * outAt);
			} else {
				this.kernel.dots(0, 4 * stride, count, 4 * queryAt, 4 * outAt);
			}
			out.set(f32.subarray(outAt, outAt + count));
			return;
		}
		const q = this.query as Float32Array;
		q.set(query);
		if (list) {
			for (let c = 0; c < count; c++) out[c] = dotScalar(f32, list[c] * stride, q, stride);
		} else {
			for (let c = 0; c < count; c++) out[c] = dotScalar(f32, c * stride, q, stride);
		}
	}
}
