// The statistics of the controlled evaluation (Park et al. 2023, section 9 of the spec): TrueSkill
// ratings from believability rankings, the Kruskal-Wallis test across conditions and Dunn's
// post-hoc test with Holm-Bonferroni correction. Written here from the published methods, with
// no statistics library; pure and browser-safe.

import { mulberry32 } from '../engine/rng';
import type { Ranking } from './rankings';

// ---- special functions ----

const LANCZOS = [
	0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
	-0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; relative error about 1e-15). */
export function lnGamma(x: number): number {
	if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
	const z = x - 1;
	let sum = LANCZOS[0];
	for (let k = 1; k < 9; k++) sum += LANCZOS[k] / (z + k);
	const t = z + 7.5;
	return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPS = 1e-16;
const TINY = 1e-300;

/** P(a, x) by its series; converges quickly for x < a + 1. */
function gammaPSeries(a: number, x: number): number {
	let term = 1 / a;
	let sum = term;
	for (let n = 1; n < 10_000; n++) {
		term *= x / (a + n);
		sum += term;
		if (Math.abs(term) < Math.abs(sum) * EPS) break;
	}
	return sum * Math.exp(-x + a * Math.log(x) - lnGamma(a));
}

/** Q(a, x) by its continued fraction (modified Lentz); converges quickly for x >= a + 1. */
function gammaQFraction(a: number, x: number): number {
	let b = x + 1 - a;
	let c = 1 / TINY;
	let d = 1 / b;
	let h = d;
	for (let n = 1; n < 10_000; n++) {
		const an = -n * (n - a);
		b += 2;
		d = an * d + b;
		if (Math.abs(d) < TINY) d = TINY;
		c = b + an / c;
		if (Math.abs(c) < TINY) c = TINY;
		d = 1 / d;
		const step = d * c;
		h *= step;
		if (Math.abs(step - 1) < EPS) break;
	}
	return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
}

/** The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), a > 0, x >= 0. */
export function gammaQ(a: number, x: number): number {
	if (!(a > 0) || !(x >= 0)) return NaN;
	if (x === 0) return 1;
	if (x === Infinity) return 0;
	return x < a + 1 ? 1 - gammaPSeries(a, x) : gammaQFraction(a, x);
}

/** The regularized lower incomplete gamma function P(a, x) = 1 - Q(a, x). */
export function gammaP(a: number, x: number): number {
	if (!(a > 0) || !(x >= 0)) return NaN;
	if (x === 0) return 0;
	if (x === Infinity) return 1;
	return x < a + 1 ? gammaPSeries(a, x) : 1 - gammaQFraction(a, x);
}

/** The complementary error function, with full relative accuracy in the tail (erfc(x) = Q(1/2, x²)). */
export function erfc(x: number): number {
	if (Number.isNaN(x)) return NaN;
	if (x < 0) return 2 - erfc(-x);
	const x2 = x * x;
	// below a + 1 the series gives P, and Q = 1 - P stays above 0.08: no cancellation
	return x2 < 1.5 ? 1 - gammaPSeries(0.5, x2 || Number.MIN_VALUE) : gammaQFraction(0.5, x2);
}

export function normalPdf(x: number): number {
	return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

/** Φ(x), the standard normal distribution function. */
export function normalCdf(x: number): number {
	return 0.5 * erfc(-x / Math.SQRT2);
}

/** Φ⁻¹(p) for 0 < p < 1, by bisection on Φ (exact to the last bit Φ can tell apart). */
export function normalPpf(p: number): number {
	if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : NaN;
	if (p === 0.5) return 0;
	let lo = -40;
	let hi = 40;
	for (let k = 0; k < 200 && hi - lo > 0; k++) {
		const mid = (lo + hi) / 2;
		if (mid === lo || mid === hi) break;
		if (normalCdf(mid) < p) lo = mid;
		else hi = mid;
	}
	return (lo + hi) / 2;
}

/** The chi-square survival function P(X >= x) with df degrees of freedom. */
export function chiSquareSf(x: number, df: number): number {
	if (!(df > 0)) return NaN;
	if (!(x > 0)) return Number.isNaN(x) ? NaN : 1;
	return gammaQ(df / 2, x / 2);
}

// ---- TrueSkill (Herbrich, Minka & Graepel 2006) ----

export interface TrueSkillEnv {
	mu: number;
	sigma: number;
	beta: number;
	tau: number;
	/** chance of a draw between two players; sets the draw margin */
	drawProbability: number;
	/** the schedule stops when no message moves more than this (at most 10 sweeps) */
	minDelta: number;
}

/** The defaults of the paper and of the `trueskill` package, with no draws. */
export const TRUESKILL_DEFAULTS: TrueSkillEnv = {
	mu: 25,
	sigma: 25 / 3,
	beta: 25 / 6,
	tau: 25 / 300,
	drawProbability: 0,
	minDelta: 0.0001
};

/**
 * The draw probability used when the rankings contain ties: 0.10, the `trueskill` package's
 * default. A tie needs a draw margin above zero; without ties the margin is zero, so a ranking
 * says only who was judged better.
 */
export const TIE_DRAW_PROBABILITY = 0.1;

export interface Rating {
	mu: number;
	sigma: number;
}

/** The draw margin ε for a game between two one-player teams: Φ⁻¹((p + 1) / 2) · √2 · β. */
export function drawMargin(drawProbability: number, beta: number, players = 2): number {
	return normalPpf((drawProbability + 1) / 2) * Math.sqrt(players) * beta;
}

/** A Gaussian in natural parameters: precision pi = 1/σ², precision-adjusted mean tau = μ/σ². */
class Gauss {
	constructor(
		readonly pi = 0,
		readonly tau = 0
	) {}
	static of(mu: number, sigma: number): Gauss {
		const pi = 1 / (sigma * sigma);
		return new Gauss(pi, pi * mu);
	}
	get mu(): number {
		return this.pi ? this.tau / this.pi : 0;
	}
	get sigma(): number {
		return this.pi ? Math.sqrt(1 / this.pi) : Infinity;
	}
	times(o: Gauss): Gauss {
		return new Gauss(this.pi + o.pi, this.tau + o.tau);
	}
	over(o: Gauss): Gauss {
		return new Gauss(this.pi - o.pi, this.tau - o.tau);
	}
}

type Factor = object;

/** A variable of the factor graph: its marginal and the last message from each factor. */
class Variable {
	value = new Gauss();
	readonly messages = new Map<Factor, Gauss>();
	private set(v: Gauss): number {
		const delta = Math.max(Math.abs(this.value.tau - v.tau), Math.sqrt(Math.abs(this.value.pi - v.pi)));
		this.value = v;
		return delta;
	}
	message(f: Factor): Gauss {
		return this.messages.get(f) as Gauss;
	}
	/** a factor sends a new message: the marginal swaps the old one for it */
	updateMessage(f: Factor, msg: Gauss): number {
		const old = this.message(f);
		this.messages.set(f, msg);
		return this.set(this.value.over(old).times(msg));
	}
	/** a factor sets the marginal directly: its message becomes what explains the change */
	updateValue(f: Factor, value: Gauss): number {
		const old = this.message(f);
		this.messages.set(f, value.times(old).over(this.value));
		return this.set(value);
	}
}

function connect(f: Factor, vars: Variable[]): void {
	for (const v of vars) v.messages.set(f, new Gauss());
}

/** skill ~ N(μ, σ² + τ²): the prior, widened by the dynamics factor τ */
class PriorFactor {
	constructor(
		readonly v: Variable,
		readonly rating: Rating,
		readonly tau: number
	) {
		connect(this, [v]);
	}
	down(): number {
		return this.v.updateValue(this, Gauss.of(this.rating.mu, Math.sqrt(this.rating.sigma ** 2 + this.tau ** 2)));
	}
}

/** performance ~ N(skill, β²) */
class LikelihoodFactor {
	constructor(
		readonly mean: Variable,
		readonly perf: Variable,
		readonly variance: number
	) {
		connect(this, [mean, perf]);
	}
	private send(from: Variable, to: Variable): number {
		const msg = from.value.over(from.message(this));
		const a = 1 / (1 + this.variance * msg.pi);
		return to.updateMessage(this, new Gauss(a * msg.pi, a * msg.tau));
	}
	down(): number {
		return this.send(this.mean, this.perf);
	}
	up(): number {
		return this.send(this.perf, this.mean);
	}
}

/** diff = left - right (performances of adjacent places) */
class DiffFactor {
	constructor(
		readonly diff: Variable,
		readonly left: Variable,
		readonly right: Variable
	) {
		connect(this, [diff, left, right]);
	}
	private send(to: Variable, terms: [Variable, number][]): number {
		let piInv = 0;
		let mu = 0;
		for (const [v, c] of terms) {
			const div = v.value.over(v.message(this));
			mu += c * div.mu;
			piInv += (c * c) / div.pi;
		}
		const pi = 1 / piInv;
		return to.updateMessage(this, new Gauss(pi, pi * mu));
	}
	down(): number {
		return this.send(this.diff, [
			[this.left, 1],
			[this.right, -1]
		]);
	}
	/** left = diff + right */
	upLeft(): number {
		return this.send(this.left, [
			[this.diff, 1],
			[this.right, 1]
		]);
	}
	/** right = left - diff */
	upRight(): number {
		return this.send(this.right, [
			[this.left, 1],
			[this.diff, -1]
		]);
	}
}

/** The truncated Gaussians of a win (v, w for diff > ε) and of a draw (|diff| <= ε). */
function vWin(t: number, e: number): number {
	const x = t - e;
	// φ(x) / Φ(x) through erfc, which keeps its relative accuracy far into the tail
	const cdf = normalCdf(x);
	return cdf > 0 ? normalPdf(x) / cdf : -x;
}
function wWin(t: number, e: number): number {
	const v = vWin(t, e);
	return v * (v + t - e);
}
function vDraw(t: number, e: number): number {
	const abs = Math.abs(t);
	const a = e - abs;
	const b = -e - abs;
	const v = (normalPdf(b) - normalPdf(a)) / (normalCdf(a) - normalCdf(b));
	return t < 0 ? -v : v;
}
function wDraw(t: number, e: number): number {
	const abs = Math.abs(t);
	const a = e - abs;
	const b = -e - abs;
	const v = vDraw(abs, e);
	return v * v + (a * normalPdf(a) - b * normalPdf(b)) / (normalCdf(a) - normalCdf(b));
}

/** diff > ε (a win) or |diff| <= ε (a draw) */
class TruncateFactor {
	constructor(
		readonly v: Variable,
		readonly draw: boolean,
		readonly margin: number
	) {
		connect(this, [v]);
	}
	up(): number {
		const div = this.v.value.over(this.v.message(this));
		const sqrtPi = Math.sqrt(div.pi);
		const t = div.tau / sqrtPi;
		const e = this.margin * sqrtPi;
		const v = this.draw ? vDraw(t, e) : vWin(t, e);
		const w = this.draw ? wDraw(t, e) : wWin(t, e);
		const denom = 1 - w;
		return this.v.updateValue(this, new Gauss(div.pi / denom, (div.tau + sqrtPi * v) / denom));
	}
}

/**
 * One game between one-player teams: new ratings after `ranks` (lower is better, equal is a
 * draw). The factor graph and message schedule of Herbrich et al. (2006) as the `trueskill`
 * package runs it: sweeps down and up the chain of performance differences until no message
 * moves more than minDelta (at most 10 sweeps).
 */
export function rateGame(ratings: readonly Rating[], ranks: readonly number[], env: Partial<TrueSkillEnv> = {}): Rating[] {
	const e = { ...TRUESKILL_DEFAULTS, ...env };
	const n = ratings.length;
	if (n < 2) throw new Error('a game needs at least two players');
	if (ranks.length !== n) throw new Error(`a game of ${n} players needs ${n} ranks, not ${ranks.length}`);
	// best first; a stable sort keeps the given order within a tie
	const order = ratings.map((_, i) => i).sort((x, y) => ranks[x] - ranks[y]);
	const margin = e.drawProbability > 0 ? drawMargin(e.drawProbability, e.beta) : 0;
	for (let j = 0; j < n - 1; j++)
		if (ranks[order[j]] === ranks[order[j + 1]] && !(margin > 0)) throw new Error('a draw needs a draw probability above 0');

	const skills = order.map(() => new Variable());
	const perfs = order.map(() => new Variable());
	const diffs = order.slice(1).map(() => new Variable());
	const priors = order.map((i, k) => new PriorFactor(skills[k], ratings[i], e.tau));
	const likelihoods = order.map((_, k) => new LikelihoodFactor(skills[k], perfs[k], e.beta * e.beta));
	const sums = diffs.map((d, j) => new DiffFactor(d, perfs[j], perfs[j + 1]));
	const truncs = diffs.map((d, j) => new TruncateFactor(d, ranks[order[j]] === ranks[order[j + 1]], margin));

	for (const f of priors) f.down();
	for (const f of likelihoods) f.down();
	const m = sums.length;
	for (let sweep = 0; sweep < 10; sweep++) {
		let delta = 0;
		if (m === 1) {
			sums[0].down();
			delta = truncs[0].up();
		} else {
			for (let j = 0; j < m - 1; j++) {
				sums[j].down();
				delta = Math.max(delta, truncs[j].up());
				sums[j].upRight();
			}
			for (let j = m - 1; j > 0; j--) {
				sums[j].down();
				delta = Math.max(delta, truncs[j].up());
				sums[j].upLeft();
			}
		}
		if (delta <= e.minDelta) break;
	}
	sums[0].upLeft();
	sums[m - 1].upRight();
	for (const f of likelihoods) f.up();

	const out: Rating[] = new Array(n);
	order.forEach((i, k) => (out[i] = { mu: skills[k].value.mu, sigma: skills[k].value.sigma }));
	return out;
}

export interface ConditionRating extends Rating {
	/** μ − 3σ: a rating the condition is very likely above */
	conservative: number;
	/** rankings the condition took part in */
	games: number;
}

/**
 * TrueSkill ratings of the conditions, each ranking a free-for-all game among the conditions it
 * ranks, in input order. Without an explicit drawProbability it is 0, or TIE_DRAW_PROBABILITY
 * when any ranking has a tie (one value for the whole set, so every game is rated alike).
 */
export function trueSkill(rankings: readonly Ranking[], env: Partial<TrueSkillEnv> = {}): Record<string, ConditionRating> {
	const e = { ...TRUESKILL_DEFAULTS, drawProbability: drawProbabilityFor(rankings), ...env };
	const ratings = new Map<string, Rating>();
	const games = new Map<string, number>();
	for (const r of rankings) {
		for (const tier of r.order)
			for (const c of tier)
				if (!ratings.has(c)) {
					ratings.set(c, { mu: e.mu, sigma: e.sigma });
					games.set(c, 0);
				}
		const names = r.order.flat();
		const ranks = r.order.flatMap((tier, k) => tier.map(() => k));
		const rated = rateGame(
			names.map((c) => ratings.get(c)!),
			ranks,
			e
		);
		names.forEach((c, k) => {
			ratings.set(c, rated[k]);
			games.set(c, games.get(c)! + 1);
		});
	}
	const out: Record<string, ConditionRating> = {};
	for (const [c, { mu, sigma }] of ratings) out[c] = { mu, sigma, conservative: mu - 3 * sigma, games: games.get(c)! };
	return out;
}

/** 0 when no ranking has a tie, else TIE_DRAW_PROBABILITY. */
export function drawProbabilityFor(rankings: readonly Ranking[]): number {
	return rankings.some((r) => r.order.some((tier) => tier.length > 1)) ? TIE_DRAW_PROBABILITY : 0;
}

// ---- rank tests ----

/** Ranks 1..N of the values, ties sharing their average rank; and Σ(t³ − t) over tie groups. */
export function averageRanks(values: readonly number[]): { ranks: number[]; tieSum: number } {
	const idx = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
	const ranks = new Array<number>(values.length);
	let tieSum = 0;
	for (let i = 0; i < idx.length; ) {
		let j = i;
		while (j + 1 < idx.length && values[idx[j + 1]] === values[idx[i]]) j++;
		const avg = (i + j + 2) / 2;
		for (let k = i; k <= j; k++) ranks[idx[k]] = avg;
		const t = j - i + 1;
		tieSum += t * t * t - t;
		i = j + 1;
	}
	return { ranks, tieSum };
}

interface Pooled {
	n: number;
	sizes: number[];
	meanRanks: number[];
	tieSum: number;
}

function pool(groups: readonly (readonly number[])[]): Pooled {
	const all = groups.flat();
	const { ranks, tieSum } = averageRanks(all);
	const meanRanks: number[] = [];
	let at = 0;
	for (const g of groups) {
		let sum = 0;
		for (let k = 0; k < g.length; k++) sum += ranks[at + k];
		at += g.length;
		meanRanks.push(g.length ? sum / g.length : NaN);
	}
	return { n: all.length, sizes: groups.map((g) => g.length), meanRanks, tieSum };
}

export interface KruskalResult {
	/** H, corrected for ties */
	H: number;
	df: number;
	/** chi-square approximation */
	p: number;
	/** observations */
	n: number;
	/** mean pooled rank of each group */
	meanRanks: number[];
}

/**
 * The Kruskal-Wallis H test (Kruskal & Wallis 1952) with the tie correction
 * H = [12 / (N(N+1)) Σ Rᵢ²/nᵢ − 3(N+1)] / (1 − Σ(t³ − t) / (N³ − N)), df = k − 1, and p from the
 * chi-square distribution. H and p are NaN when every observation is tied.
 */
export function kruskalWallis(groups: readonly (readonly number[])[]): KruskalResult {
	const used = groups.filter((g) => g.length > 0);
	if (used.length < 2) throw new Error('the Kruskal-Wallis test needs at least two groups with observations');
	const { n, sizes, meanRanks, tieSum } = pool(used);
	let s = 0;
	sizes.forEach((size, k) => (s += size * meanRanks[k] * meanRanks[k]));
	const raw = (12 / (n * (n + 1))) * s - 3 * (n + 1);
	const correction = 1 - tieSum / (n * n * n - n);
	const H = correction > 0 ? Math.max(0, raw / correction) : NaN;
	const df = used.length - 1;
	return { H, df, p: Number.isNaN(H) ? NaN : chiSquareSf(H, df), n, meanRanks: pool(groups).meanRanks };
}

/** Holm-Bonferroni adjusted p-values (Holm 1979): step-down, monotone, capped at 1; input order kept. */
export function holm(ps: readonly number[]): number[] {
	const m = ps.length;
	const idx = ps.map((_, i) => i).sort((a, b) => ps[a] - ps[b]);
	const out = new Array<number>(m);
	let running = 0;
	idx.forEach((i, k) => {
		running = Math.max(running, Math.min(1, (m - k) * ps[i]));
		out[i] = running;
	});
	return out;
}

export interface DunnPair {
	a: string;
	b: string;
	/** (mean rank of a − mean rank of b) / its standard error */
	z: number;
	/** two-sided */
	p: number;
	/** Holm-Bonferroni over all pairs */
	pAdjusted: number;
}

/**
 * Dunn's test (Dunn 1964) for every pair of groups, on the pooled ranks of all observations:
 * z = (R̄a − R̄b) / √((N(N+1)/12 − Σ(t³ − t)/(12(N − 1))) (1/na + 1/nb)), two-sided p from the
 * normal distribution, Holm-Bonferroni adjusted. Pairs in group order: (0,1), (0,2), ... (1,2) ...
 */
export function dunn(groups: readonly (readonly number[])[], names: readonly string[]): DunnPair[] {
	const { n, sizes, meanRanks, tieSum } = pool(groups);
	const variance = (n * (n + 1)) / 12 - tieSum / (12 * (n - 1));
	const pairs: Omit<DunnPair, 'pAdjusted'>[] = [];
	for (let i = 0; i < groups.length; i++)
		for (let j = i + 1; j < groups.length; j++) {
			const z = (meanRanks[i] - meanRanks[j]) / Math.sqrt(variance * (1 / sizes[i] + 1 / sizes[j]));
			pairs.push({ a: names[i], b: names[j], z, p: erfc(Math.abs(z) / Math.SQRT2) });
		}
	const adjusted = holm(pairs.map((p) => p.p));
	return pairs.map((p, k) => ({ ...p, pAdjusted: adjusted[k] }));
}

// ---- the evaluation ----

/** Where each condition was placed in one ranking: 1 = most believable, a tie sharing the average. */
export function rankPositions(ranking: Ranking): Map<string, number> {
	const out = new Map<string, number>();
	let next = 1;
	for (const tier of ranking.order) {
		const avg = next + (tier.length - 1) / 2;
		for (const c of tier) out.set(c, avg);
		next += tier.length;
	}
	return out;
}

export interface EvaluationStats {
	/** in order of first appearance */
	conditions: string[];
	rankings: number;
	/** the draw probability TrueSkill used */
	drawProbability: number;
	trueskill: Record<string, ConditionRating>;
	/** each condition's positions: how often it was ranked, and its mean position (1 = best) */
	positions: Record<string, { n: number; mean: number }>;
	kruskal: { H: number; df: number; p: number };
	dunn: DunnPair[];
}

/**
 * The paper's analysis of believability rankings: TrueSkill ratings, Kruskal-Wallis across the
 * conditions (an observation is the position a condition got in one ranking) and Dunn's test
 * for every pair with Holm-Bonferroni correction.
 */
export function analyseRankings(rankings: readonly Ranking[], env: Partial<TrueSkillEnv> = {}): EvaluationStats {
	if (!rankings.length) throw new Error('no rankings to analyse');
	const conditions: string[] = [];
	const observed = new Map<string, number[]>();
	for (const r of rankings)
		for (const [c, position] of rankPositions(r)) {
			if (!observed.has(c)) {
				observed.set(c, []);
				conditions.push(c);
			}
			observed.get(c)!.push(position);
		}
	if (conditions.length < 2) throw new Error('the rankings name only one condition; at least two are needed');
	const groups = conditions.map((c) => observed.get(c)!);
	const drawProbability = env.drawProbability ?? drawProbabilityFor(rankings);
	const kw = kruskalWallis(groups);
	const positions: EvaluationStats['positions'] = {};
	conditions.forEach((c, k) => (positions[c] = { n: groups[k].length, mean: groups[k].reduce((s, x) => s + x, 0) / groups[k].length }));
	return {
		conditions,
		rankings: rankings.length,
		drawProbability,
		trueskill: trueSkill(rankings, { ...env, drawProbability }),
		positions,
		kruskal: { H: kw.H, df: kw.df, p: kw.p },
		dunn: dunn(groups, conditions)
	};
}

// ---- a readable report ----

function formatP(p: number): string {
	if (Number.isNaN(p)) return 'n/a';
	if (p === 0) return '0';
	return p < 0.001 ? p.toExponential(1) : p.toFixed(p < 0.01 ? 4 : 3);
}

/** The analysis as plain-text tables: ratings by μ (best first), Kruskal-Wallis, then Dunn's pairs. */
export function formatEvaluationStats(stats: EvaluationStats, title = 'rankings'): string {
	const n = stats.conditions.length;
	const width = Math.max(9, ...stats.conditions.map((c) => c.length));
	const num = (x: number, w: number, digits = 2) => (Number.isNaN(x) ? 'n/a' : x.toFixed(digits)).padStart(w);
	const byMu = [...stats.conditions].sort((a, b) => stats.trueskill[b].mu - stats.trueskill[a].mu);
	// pairs in the order of the ratings, the higher-rated condition first (z turned to match)
	const place = (c: string) => byMu.indexOf(c);
	const pairs = stats.dunn
		.map((d) => (place(d.a) <= place(d.b) ? d : { ...d, a: d.b, b: d.a, z: -d.z }))
		.sort((x, y) => place(x.a) - place(y.a) || place(x.b) - place(y.b));
	const pairWidth = Math.max(0, ...pairs.map((d) => d.a.length + d.b.length + 4));
	const ties = stats.drawProbability > 0 ? `ties rated as draws, draw probability ${stats.drawProbability}` : 'no ties, draw probability 0';
	const lines = [
		`${title}: ${stats.rankings} ranking${stats.rankings === 1 ? '' : 's'} of ${n} conditions (${ties})`,
		'',
		'TrueSkill',
		`  ${'condition'.padEnd(width)}      mu   sigma  mu-3sigma  games  mean position`,
		...byMu.map((c) => {
			const r = stats.trueskill[c];
			return `  ${c.padEnd(width)}  ${num(r.mu, 6)}  ${num(r.sigma, 6)}  ${num(r.conservative, 9)}  ${String(r.games).padStart(5)}  ${num(stats.positions[c].mean, 13)}`;
		}),
		'',
		`Kruskal-Wallis H(${stats.kruskal.df}) = ${num(stats.kruskal.H, 0)}, p = ${formatP(stats.kruskal.p)}${stats.kruskal.p < 0.001 ? ' (p < 0.001)' : ''}`,
		'',
		"Dunn's test (Holm-Bonferroni adjusted; z < 0: the first is ranked better)",
		...pairs.map((d) => `  ${`${d.a} vs ${d.b}`.padEnd(pairWidth)}  z = ${num(d.z, 6)}  p = ${formatP(d.p).padEnd(7)}  adjusted ${formatP(d.pAdjusted)}`)
	];
	return lines.join('\n');
}

// ---- comparing two arms of an experiment (seeded: the bootstrap and the sampled permutation test are reproducible) ----

function mean(xs: readonly number[]): number {
	let s = 0;
	for (const x of xs) s += x;
	return s / xs.length;
}

/** The q-quantile of sorted values, linearly interpolated (the default of numpy and R type 7). */
export function quantileSorted(sorted: readonly number[], q: number): number {
	if (!sorted.length) return NaN;
	const h = (sorted.length - 1) * q;
	const lo = Math.floor(h);
	const hi = Math.min(sorted.length - 1, lo + 1);
	return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export interface MannWhitneyResult {
	/** U of the first sample: pairs (x, y) with x > y, ties counting one half */
	U: number;
	/** two-sided */
	p: number;
	method: 'exact' | 'asymptotic';
}

/** Number of ways to reach each rank-sum-minus-minimum u (0..m·n) choosing m of m + n untied ranks. */
function exactUCounts(m: number, n: number): number[] {
	// f[j][u]: subsets of size j of {1..i} with U contribution u, built up one rank at a time
	const max = m * n;
	let f: number[][] = Array.from({ length: m + 1 }, () => new Array<number>(max + 1).fill(0));
	f[0][0] = 1;
	for (let i = 1; i <= m + n; i++) {
		const next = f.map((row) => row.slice());
		for (let j = 1; j <= Math.min(i, m); j++) {
			// the i-th smallest value goes to x: it beats the (i - j) values of y placed below it
			const gain = i - j;
			if (gain > n) continue;
			for (let u = 0; u + gain <= max; u++) if (f[j - 1][u]) next[j][u + gain] += f[j - 1][u];
		}
		f = next;
	}
	return f[m];
}

/**
 * The Mann-Whitney U test, two-sided (Mann & Whitney 1947), as scipy.stats.mannwhitneyu's
 * `method='auto'`: the exact distribution when there are no ties and either sample has at most
 * 8 values, else the normal approximation with the tie-corrected variance and a continuity
 * correction of 1/2. Every value tied: p = 1.
 */
export function mannWhitney(x: readonly number[], y: readonly number[], method: 'auto' | 'exact' | 'asymptotic' = 'auto'): MannWhitneyResult {
	const m = x.length;
	const n = y.length;
	if (!m || !n) throw new Error('the Mann-Whitney test needs values in both samples');
	const { ranks, tieSum } = averageRanks([...x, ...y]);
	let r1 = 0;
	for (let i = 0; i < m; i++) r1 += ranks[i];
	const U = r1 - (m * (m + 1)) / 2;
	const N = m + n;
	const useExact = method === 'exact' || (method === 'auto' && tieSum === 0 && Math.min(m, n) <= 8);
	if (useExact) {
		if (tieSum !== 0) throw new Error('the exact Mann-Whitney distribution assumes no ties');
		const counts = exactUCounts(m, n);
		const total = counts.reduce((a, b) => a + b, 0);
		const big = Math.max(U, m * n - U);
		let tail = 0;
		for (let u = Math.ceil(big - 1e-9); u <= m * n; u++) tail += counts[u];
		return { U, p: Math.min(1, (2 * tail) / total), method: 'exact' };
	}
	const mu = (m * n) / 2;
	const variance = ((m * n) / 12) * (N + 1 - tieSum / (N * (N - 1)));
	if (!(variance > 0)) return { U, p: 1, method: 'asymptotic' };
	const z = Math.max(0, Math.abs(U - mu) - 0.5) / Math.sqrt(variance);
	return { U, p: Math.min(1, erfc(z / Math.SQRT2)), method: 'asymptotic' };
}

/**
 * Two-sided permutation test of the difference in means (y − x): every relabelling when there
 * are at most `exactLimit` of them, else `samples` random ones (seeded; p = (hits + 1) / (samples + 1)).
 */
export function permutationTest(
	x: readonly number[],
	y: readonly number[],
	opts: { samples?: number; seed?: number; exactLimit?: number } = {}
): { diff: number; p: number; exact: boolean } {
	const m = x.length;
	const n = y.length;
	if (!m || !n) throw new Error('the permutation test needs values in both samples');
	const all = [...x, ...y];
	const N = m + n;
	const total = all.reduce((a, b) => a + b, 0);
	const observed = mean(y) - mean(x);
	const eps = 1e-9 * Math.max(1, Math.abs(observed));
	const diffOf = (sumX: number) => (total - sumX) / n - sumX / m;
	let combos = 1;
	for (let k = 1; k <= m; k++) combos = (combos * (N - m + k)) / k;
	if (combos <= (opts.exactLimit ?? 50_000)) {
		let hits = 0;
		let count = 0;
		const walk = (start: number, left: number, sum: number) => {
			if (left === 0) {
				count++;
				if (Math.abs(diffOf(sum)) >= Math.abs(observed) - eps) hits++;
				return;
			}
			for (let i = start; i <= N - left; i++) walk(i + 1, left - 1, sum + all[i]);
		};
		walk(0, m, 0);
		return { diff: observed, p: hits / count, exact: true };
	}
	const rand = mulberry32(opts.seed ?? 1);
	const samples = opts.samples ?? 10_000;
	const pool = all.slice();
	let hits = 0;
	for (let s = 0; s < samples; s++) {
		let sum = 0;
		for (let i = 0; i < m; i++) {
			const j = i + Math.floor(rand() * (N - i));
			[pool[i], pool[j]] = [pool[j], pool[i]];
			sum += pool[i];
		}
		if (Math.abs(diffOf(sum)) >= Math.abs(observed) - eps) hits++;
	}
	return { diff: observed, p: (hits + 1) / (samples + 1), exact: false };
}

/**
 * Percentile bootstrap confidence interval of the difference in means (y − x): each sample
 * resampled with replacement, `resamples` times (seeded), the interval cut at (1 ± level) / 2.
 */
export function bootstrapMeanDiff(
	x: readonly number[],
	y: readonly number[],
	opts: { resamples?: number; level?: number; seed?: number } = {}
): { diff: number; ci: [number, number] } {
	if (!x.length || !y.length) throw new Error('the bootstrap needs values in both samples');
	const resamples = opts.resamples ?? 4000;
	const level = opts.level ?? 0.95;
	const rand = mulberry32(opts.seed ?? 1);
	const draw = (xs: readonly number[]) => {
		let s = 0;
		for (let i = 0; i < xs.length; i++) s += xs[Math.floor(rand() * xs.length)];
		return s / xs.length;
	};
	const diffs = new Array<number>(resamples);
	for (let b = 0; b < resamples; b++) diffs[b] = draw(y) - draw(x);
	diffs.sort((a, b) => a - b);
	const alpha = (1 - level) / 2;
	return { diff: mean(y) - mean(x), ci: [quantileSorted(diffs, alpha), quantileSorted(diffs, 1 - alpha)] };
}

export interface ArmComparison {
	metric: string;
	a: string;
	b: string;
	/** mean of b − mean of a, in the metric's unit */
	effect: number;
	ci: [number, number];
	/** two-sided Mann-Whitney p */
	p: number;
	/** Holm-adjusted across the metrics of the same pair of arms */
	pAdjusted: number;
	/** Cliff's delta: P(b > a) − P(b < a), in [−1, 1] */
	delta: number;
}

/**
 * Every metric of arm b against arm a: the difference in means with a bootstrap interval, a
 * Mann-Whitney p, and Holm's adjustment across the metrics compared (a metric with the same
 * value in every run of both arms tests nothing and is left out of the adjustment). A metric
 * without values in either arm is left out.
 */
export function compareArms(
	a: { name: string; values: Record<string, readonly number[]> },
	b: { name: string; values: Record<string, readonly number[]> },
	metrics: readonly string[],
	opts: { resamples?: number; level?: number; seed?: number } = {}
): ArmComparison[] {
	const rows: Omit<ArmComparison, 'pAdjusted'>[] = [];
	for (const metric of metrics) {
		const x = (a.values[metric] ?? []).filter(Number.isFinite);
		const y = (b.values[metric] ?? []).filter(Number.isFinite);
		if (!x.length || !y.length) continue;
		const { diff, ci } = bootstrapMeanDiff(x, y, opts);
		const mw = mannWhitney(x, y);
		rows.push({ metric, a: a.name, b: b.name, effect: diff, ci, p: mw.p, delta: (x.length * y.length - 2 * mw.U) / (x.length * y.length) });
	}
	// a metric with one value throughout both arms tests nothing: p = 1, outside Holm's family
	const constant = rows.map((r) => {
		const all = [...(a.values[r.metric] ?? []), ...(b.values[r.metric] ?? [])].filter(Number.isFinite);
		return all.every((v) => v === all[0]);
	});
	const tested = rows.filter((_, i) => !constant[i]);
	const adjusted = holm(tested.map((r) => r.p));
	let k = 0;
	return rows.map((r, i) => ({ ...r, pAdjusted: constant[i] ? 1 : adjusted[k++] }));
}
