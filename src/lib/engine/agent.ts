// One agent's cognition for one step: observe, reflect, plan, react, act. Every function
// here works through an AgentContext and so touches only its own agent.

import { DAY, MINUTE, dayIndex, dayStart, formatClock12, formatDate, formatDateTime, minuteOfDay, parseClock } from './clock';
import type { AgentContext, NewMemory } from './context';
import type { MemoryRecord } from './memory';
import type { ActionState, AgentState, DayPlan, PlanBlock, ReactingState, Subtask, TalkState } from './state';
import { DEFAULT_SETTINGS, type PersonaDef, type RetrievalK } from './types';
import { splitAddress } from './world-index';

export interface PerceivedEvent {
	description: string;
	distance: number;
	/** the agent observed, when the event is an agent's action */
	agent?: string;
	agentName?: string;
	activity?: string;
	chatting?: boolean;
	sleeping?: boolean;
	/** the object observed (`Sector:Arena:Object`), when the event is an object's state */
	object?: string;
	objectName?: string;
	objectState?: string;
}

/** Whether the agent is asleep: its action carries out a sleep block of its plan (or the night before waking). */
export function isSleeping(agent: AgentState): boolean {
	return agent.action.sleeping === true;
}

/** How many memories a retrieval for `purpose` takes (the agent's own settings, then the run's). */
export function retrievalK(ctx: AgentContext, purpose: keyof RetrievalK): number {
	const k = ctx.retrievalSettings().k?.[purpose];
	return typeof k === 'number' && Number.isFinite(k) && k >= 0 ? Math.floor(k) : DEFAULT_SETTINGS.retrieval.k[purpose];
}

export function eventOf(agent: Pick<AgentState, 'name'> & { action: Pick<ActionState, 'activity'> }): string {
	return `${agent.name} is ${agent.action.activity || 'idle'}`;
}

// ---------------------------------------------------------------------------
// identity

function personaOf(ctx: AgentContext): PersonaDef {
	const p = ctx.sim.index.world.personas.find((x) => x.id === ctx.agent.id);
	if (!p) throw new Error(`no persona for agent ${ctx.agent.id}`);
	return p;
}

/** The paper's summary description: persona header plus a retrieved, model-written summary, cached a day. */
export async function identity(ctx: AgentContext): Promise<string> {
	const a = ctx.agent;
	const today = dayIndex(ctx.now);
	const p = personaOf(ctx);
	const header = `Name: ${p.name} (age: ${p.age})\nInnate traits: ${p.innate}`;
	// The day's cached summary was made from what the run retrieves; an interview under another
	// condition (an ablation) makes its own from what that condition can retrieve.
	if (a.summary && a.summary.day === today && !ctx.condition) return `${header}\n${a.summary.text}`;
	const queries = [
		`${p.name}'s core characteristics`,
		`${p.name}'s current daily occupation`,
		`${p.name}'s feeling about their recent progress in life`
	];
	const seen = new Set<string>();
	const memories: string[] = [];
	for (const q of queries) {
		for (const m of await ctx.retrieve(q, 'summary description', retrievalK(ctx, 'summary'))) {
			if (!seen.has(m.id)) {
				seen.add(m.id);
				memories.push(m.description);
			}
		}
	}
	const answer = await ctx.ask<{ summary: string }>(
		'agent_summary',
		{
			name: p.name,
			age: p.age,
			innate: p.innate,
			learned: p.learned,
			currently: p.currently,
			lifestyle: p.lifestyle,
			memories
		},
		'summary description'
	);
	const text = answer.value.summary?.trim() || `${p.learned} ${p.currently}`.trim();
	// A read-only question (an interview) must leave the state as it found it.
	if (ctx.recordAccess) a.summary = { day: today, text };
	return `${header}\n${text}`;
}

// ---------------------------------------------------------------------------
// planning

function clampMinute(m: number): number {
	return Math.min(24 * 60, Math.max(0, Math.round(m)));
}

/** A block as a model writes it (`hourly_schedule`, `replan`); anything may be missing or odd. */
export interface RawBlock {
	start?: unknown;
	minutes?: unknown;
	activity?: unknown;
	/** true when the agent is asleep in the block (the night's sleep or a nap) */
	sleep?: unknown;
}

/**
 * Turns the model's blocks into a clean day: sorted, no overlaps or gaps from `from` on, ending
 * with the night's sleep until midnight (the next day's plan says when the agent wakes).
 *
 * Sleep follows the plan's times and flags, never the words of an activity:
 * - when the model marks blocks (`sleep: true/false`), a marked block is asleep. Marked blocks
 *   that run to the end of the plan are the night (extended to midnight); one followed by an
 *   awake block is a nap that ends with its block, and the day goes on after it;
 * - when it marks none, the last block is the night when it runs to the end of the day
 *   (e.g. "go to bed" at 23:00 for an hour); otherwise every block is awake;
 * - when the plan has no night, the agent sleeps from the end of its last block.
 */
export function normaliseBlocks(raw: readonly RawBlock[] | undefined, from: number): PlanBlock[] {
	const parsed: (PlanBlock & { flag?: boolean })[] = [];
	for (const b of Array.isArray(raw) ? raw : []) {
		if (!b || typeof b !== 'object') continue;
		const start = typeof b.start === 'string' ? parseClock(b.start) : null;
		const activity = typeof b.activity === 'string' ? b.activity.trim() : '';
		if (start === null || !activity) continue;
		const minutes = typeof b.minutes === 'number' && Number.isFinite(b.minutes) ? Math.max(5, Math.round(b.minutes)) : 60;
		const flag = typeof b.sleep === 'boolean' ? b.sleep : undefined;
		parsed.push({ start: clampMinute(start), minutes, activity, subtasks: null, flag });
	}
	parsed.sort((x, y) => x.start - y.start);
	const marked = parsed.some((b) => b.flag !== undefined);
	const out: PlanBlock[] = [];
	let cursor = from;
	let endOfDay = false;
	for (const b of parsed) {
		const end = Math.min(24 * 60, b.start + b.minutes);
		if (end <= cursor) continue;
		const start = Math.max(cursor, b.start);
		if (out.length > 0 && start > cursor) out[out.length - 1].minutes += start - cursor; // close gaps
		const block: PlanBlock = { start: out.length === 0 ? from : start, minutes: 0, activity: b.activity, subtasks: null };
		block.minutes = end - block.start;
		if (block.minutes <= 0) continue;
		if (b.flag === true) block.sleep = true;
		out.push(block);
		cursor = end;
		endOfDay = b.start + b.minutes >= 24 * 60;
	}
	// The night: the trailing run of sleep blocks, as one block to midnight.
	let night = out.length;
	if (marked) while (night > 0 && out[night - 1].sleep) night--;
	else if (endOfDay && out.length > 0) {
		night = out.length - 1;
		out[night].sleep = true;
	}
	if (night < out.length) {
		const first = out[night];
		out.length = night + 1;
		first.minutes = 24 * 60 - first.start;
	} else if (cursor < 24 * 60) {
		out.push({ start: cursor, minutes: 24 * 60 - cursor, activity: 'sleeping', subtasks: null, sleep: true });
	}
	return out.filter((b) => b.minutes > 0);
}

async function daySummary(ctx: AgentContext): Promise<string> {
	const yesterdayStart = dayStart(ctx.now) - DAY;
	const lived = ctx.stream.records
		.filter((m) => m.created >= yesterdayStart && m.kind !== 'observation')
		.slice(-40)
		.map((m) => m.description);
	if (lived.length === 0) return '';
	const answer = await ctx.ask<{ summary: string }>(
		'day_summary',
		{ name: ctx.name, date: formatDate(yesterdayStart), memories: lived },
		'plan: summary of yesterday'
	);
	return answer.value.summary?.trim() ?? '';
}

/** Daily agenda (5-8 broad strokes), then an hour-level schedule; both stored as plan memories. */
export async function planDay(ctx: AgentContext): Promise<void> {
	const a = ctx.agent;
	const p = personaOf(ctx);
	const today = dayIndex(ctx.now);
	const date = formatDate(ctx.now);
	if (a.plan && a.plan.day !== today) a.yesterday = await daySummary(ctx);
	if (ctx.state.ablate.planning) {
		// Without planning there is no plan for the day: the agent acts from moment to moment
		// (see `momentDue`). The empty plan only marks the day as begun.
		a.plan = { day: today, wakeMinute: 0, agenda: [], blocks: [] };
		return;
	}
	const summary = await identity(ctx);
	const daily = await ctx.ask<{ wake_hour: number; agenda: string[] }>(
		'daily_plan',
		{
			name: p.name,
			summary,
			date,
			yesterday: a.yesterday || `${p.firstName} has no particular memories of yesterday.`,
			requirement: `${p.lifestyle}. ${p.dailyPlanRequirement}`
		},
		'plan: daily agenda'
	);
	const wakeHour = Math.min(12, Math.max(3, Math.round(daily.value.wake_hour ?? 7)));
	const agenda = (daily.value.agenda ?? []).filter((x) => typeof x === 'string' && x.trim());
	const context = await ctx.retrieve(`${p.name}'s plans, commitments and intentions for ${date}`, 'plan: hourly schedule', retrievalK(ctx, 'plan'));
	const hourly = await ctx.ask<{ blocks: RawBlock[] }>(
		'hourly_schedule',
		{
			name: p.name,
			summary,
			date,
			wake_hour: wakeHour,
			agenda,
			memories: context.map((m) => m.description)
		},
		'plan: hourly schedule'
	);
	const wakeMinute = wakeHour * 60;
	const blocks = normaliseBlocks(hourly.value.blocks, wakeMinute);
	a.plan = { day: today, wakeMinute, agenda, blocks };
	const base = dayStart(ctx.now);
	await ctx.memorize([
		{
			kind: 'plan',
			description: `${p.firstName}'s plan for ${date}: wake up at ${formatClock12(wakeMinute)}; ${agenda.join('; ')}`,
			// No single place: the agenda is the whole day in broad strokes, spent in several
			// places, and its items are the model's text without times or places (the schedule
			// below gives them times; each block gets its place when one is chosen for it).
			plan: { address: '', start: base + wakeMinute * MINUTE, minutes: 24 * 60 - wakeMinute }
		},
		...blockMemories(ctx, blocks, `${p.firstName}'s plan`)
	], { defer: true, background: true });
	ctx.out.events.push({ kind: 'plan', agent: a.id, day: today });
}

/**
 * The plan memories of a schedule's hour blocks, with the place where each happens when it is
 * known already: a sleep block is spent in bed at home. The place of any other block is chosen
 * when it is decomposed, and the block is remembered again then with it (see `decompose`).
 */
function blockMemories(ctx: AgentContext, blocks: readonly PlanBlock[], lead: string): NewMemory[] {
	const date = formatDate(ctx.now);
	const base = dayStart(ctx.now);
	return blocks.map((b) => ({
		kind: 'plan' as const,
		description: `${lead}: ${b.activity} from ${formatClock12(b.start)} to ${formatClock12(b.start + b.minutes)} on ${date}`,
		plan: { address: b.sleep ? bedAddress(ctx) : '', start: base + b.start * MINUTE, minutes: b.minutes }
	}));
}

/** Regenerates the rest of today's schedule from now, after a reaction or an inner voice. */
export async function replan(ctx: AgentContext, reason: string): Promise<void> {
	const a = ctx.agent;
	const plan = a.plan;
	if (!plan) return;
	if (ctx.state.ablate.planning) {
		// no plan to rewrite: the current action stops and the next one is chosen with this in mind
		a.intention = reason;
		a.action.end = ctx.now;
		return;
	}
	const now = minuteOfDay(ctx.now);
	const remaining = plan.blocks.filter((b) => b.start + b.minutes > now);
	const answer = await ctx.ask<{ blocks: RawBlock[] }>(
		'replan',
		{
			name: a.name,
			summary: await identity(ctx),
			time: formatDateTime(ctx.now),
			reaction: reason,
			remaining: remaining.map((b) => `${formatClock12(b.start)} (${b.minutes} min): ${b.activity}${b.sleep ? ' (asleep)' : ''}`)
		},
		'plan: replan after a reaction'
	);
	if (answer.failsafe || !Array.isArray(answer.value.blocks) || answer.value.blocks.length === 0) return;
	const kept = plan.blocks.filter((b) => b.start + b.minutes <= now);
	const past = plan.blocks.find((b) => b.start <= now && b.start + b.minutes > now);
	if (past && past.start < now) kept.push({ ...past, minutes: now - past.start });
	const fresh = normaliseBlocks(answer.value.blocks, now);
	plan.blocks = [...kept, ...fresh];
	await ctx.memorize(blockMemories(ctx, fresh, `${a.name.split(' ')[0]}'s new plan`), { defer: true });
	// The current action stops so the next step starts the new plan.
	a.action.end = ctx.now;
}

/** A subtask as a model writes it (`decompose_task`); anything may be missing or odd. */
export interface RawSubtask {
	activity?: unknown;
	minutes?: unknown;
}

/** The shortest and longest step of a decomposed block (the paper's 5-15 minute actions). */
export const STEP_MIN = 5;
export const STEP_MAX = 15;

/** `total` minutes as 5-15 minute steps, as even as can be (one step when `total` is under 5). */
export function stepMinutes(total: number): number[] {
	if (total <= STEP_MAX) return total > 0 ? [total] : [];
	const n = Math.ceil(total / STEP_MAX);
	const base = Math.floor(total / n);
	return Array.from({ length: n }, (_, i) => base + (i < total - base * n ? 1 : 0));
}

/**
 * The steps of a block from the model's subtasks. Each keeps the length the model gave it,
 * clamped to 5-15 minutes; the prompt asks for steps that add up to the block, and when they
 * do not, the reference implementation's rule fills it:
 * - too long: the list is cut where the block ends (the step that crosses the end is shortened
 *   to it; one left under 5 minutes is joined to the step before, or the two share the time so
 *   that both last 5-15 minutes);
 * - too short: the last step absorbs the remainder, up to 15 minutes, and the block's own
 *   activity goes on in 5-15 minute steps for what is left.
 * The steps add up to the block exactly, and each lasts 5-15 minutes unless the block itself
 * is shorter than 5.
 */
export function fitSubtasks(raw: readonly RawSubtask[] | undefined, block: Pick<PlanBlock, 'activity' | 'minutes'>): Subtask[] {
	const total = Math.max(1, Math.round(block.minutes));
	const given = (Array.isArray(raw) ? raw : [])
		.filter((s): s is { activity: string; minutes?: unknown } => !!s && typeof s === 'object' && typeof s.activity === 'string' && s.activity.trim() !== '')
		.map((s) => {
			const m = Number(s.minutes);
			return { activity: s.activity.trim(), minutes: Math.min(STEP_MAX, Math.max(STEP_MIN, Number.isFinite(m) ? Math.round(m) : 10)) };
		});
	if (total < STEP_MIN) return [{ activity: given[0]?.activity ?? block.activity, minutes: total }];
	const out: Subtask[] = [];
	let used = 0;
	for (const s of given) {
		if (used >= total) break;
		const minutes = Math.min(s.minutes, total - used);
		out.push({ activity: s.activity, minutes });
		used += minutes;
	}
	const last = out.at(-1);
	if (last && last.minutes < STEP_MIN && out.length > 1) {
		// cut at the block's end, too short: the step before takes it, or the two share the time
		const before = out[out.length - 2];
		const both = before.minutes + last.minutes;
		if (both <= STEP_MAX) {
			before.minutes = both;
			out.pop();
		} else {
			before.minutes = both - STEP_MIN;
			last.minutes = STEP_MIN;
		}
	}
	let rest = total - used;
	if (rest > 0 && last) {
		const absorbed = Math.min(rest, STEP_MAX - last.minutes);
		last.minutes += absorbed;
		rest -= absorbed;
		if (rest > 0 && rest < STEP_MIN) {
			// what is left must make a step of its own: the last step gives a little back
			last.minutes -= STEP_MIN - rest;
			rest = STEP_MIN;
		}
	}
	for (const minutes of stepMinutes(rest)) out.push({ activity: block.activity, minutes });
	return out;
}

/** A block as the decomposition prompt shows its neighbours: "4:00 pm to 5:00 pm: activity". */
function blockText(start: number, minutes: number, activity: string, sleep = false): string {
	return `${formatClock12(start)} to ${formatClock12(start + minutes)}: ${activity}${sleep ? ' (asleep)' : ''}`;
}

/**
 * The blocks before and after `block` in the agent's plan, as the decomposition prompt shows
 * them (the night before waking when it is the day's first block), so that the model does not
 * open a block that continues the one before ("arriving at the party" again at 6 pm) or close
 * one that goes on after it.
 */
export function neighbours(plan: DayPlan | null, block: PlanBlock): { previous: string; next: string } {
	const blocks = plan?.blocks ?? [];
	let i = blocks.indexOf(block);
	if (i < 0) i = blocks.findIndex((b) => b.start === block.start && b.activity === block.activity);
	const end = block.start + block.minutes;
	const before = i > 0 ? blocks[i - 1] : undefined;
	const after = i >= 0 ? blocks[i + 1] : blocks.find((b) => b.start === end);
	const wake = Math.min(block.start, plan?.wakeMinute ?? block.start);
	return {
		previous: before ? blockText(before.start, before.minutes, before.activity, before.sleep) : blockText(0, wake, 'sleeping', true),
		next: after ? blockText(after.start, after.minutes, after.activity, after.sleep) : blockText(end, 24 * 60 - end, 'sleeping', true)
	};
}

/**
 * 5-15 minute steps of a block (see `fitSubtasks`), each with its place (its emoji and object
 * state are asked when it begins, see `nextAction`); stored as plan memories, and the block
 * itself as a plan memory with the place where most of its time is spent.
 */
export async function decompose(ctx: AgentContext, block: PlanBlock): Promise<Subtask[]> {
	const made = await decomposition(ctx, block);
	await adoptDecomposition(ctx, block, made);
	return made.subtasks;
}

/** Hour block `block` decomposed as `decompose` does it, not yet in the plan: its steps and their plan memories. */
export async function decomposition(ctx: AgentContext, block: PlanBlock): Promise<{ subtasks: Subtask[]; memories: NewMemory[] }> {
	const a = ctx.agent;
	const around = neighbours(a.plan, block);
	const answer = await ctx.ask<{ subtasks: RawSubtask[] }>(
		'decompose_task',
		{
			name: a.name,
			summary: await identity(ctx),
			activity: block.activity,
			start: formatClock12(block.start),
			minutes: block.minutes,
			previous: around.previous,
			next: around.next
		},
		'plan: decompose into 5-15 minute steps'
	);
	const subtasks = fitSubtasks(answer.value.subtasks, block);
	// Each step's place, chosen now and concurrently (the plan memories hold them): the chains of
	// calls run side by side.
	const places = await ctx.fanOut(
		subtasks.map((_, i) => `s${i}`),
		(b, i) => chooseLocation(b, subtasks[i].activity)
	);
	subtasks.forEach((t, i) => (t.address = places[i]));
	let start = block.start;
	const date = formatDate(ctx.now);
	const base = dayStart(ctx.now);
	const first = a.name.split(' ')[0];
	const place = blockPlace(subtasks);
	return {
		subtasks,
		memories: [
			// The hour block's plan memory stored with the day's schedule had no place yet (none
			// was chosen); now that its steps have theirs, the block is remembered with its place.
			...(place
				? [
						{
							kind: 'plan' as const,
							description: `${first}'s plan: ${block.activity} from ${formatClock12(block.start)} to ${formatClock12(block.start + block.minutes)} on ${date}, at ${placeText(place)}`,
							plan: { address: place, start: base + block.start * MINUTE, minutes: block.minutes }
						}
					]
				: []),
			...subtasks.map((t) => {
				const item = {
					kind: 'plan' as const,
					description: `${first}'s plan: ${t.activity} at ${formatClock12(start)} on ${date}`,
					plan: { address: t.address ?? '', start: base + start * MINUTE, minutes: t.minutes }
				};
				start += t.minutes;
				return item;
			})
		]
	};
}

/** Puts a block's decomposition in the plan and stores its plan memories (not waited for). */
export function adoptDecomposition(ctx: AgentContext, block: PlanBlock, made: { subtasks: Subtask[]; memories: NewMemory[] }): Promise<unknown> {
	block.subtasks = made.subtasks;
	return ctx.memorize(made.memories, { defer: true, background: true });
}

/** The hour block the agent's plan has it begin now and that is not decomposed yet, if any. */
export function blockDue(a: AgentState, now: number): PlanBlock | null {
	const due = duePlanned(a.plan, now);
	return 'decompose' in due ? due.decompose : null;
}

/** Where a decomposed block happens: the arena (`Sector:Arena`) its steps spend most minutes in, the earliest on a tie; '' when none has a place. */
export function blockPlace(subtasks: readonly Subtask[]): string {
	const minutes = new Map<string, number>();
	for (const t of subtasks) {
		const arena = splitAddress(t.address ?? '').slice(0, 2).join(':');
		if (arena.includes(':')) minutes.set(arena, (minutes.get(arena) ?? 0) + t.minutes);
	}
	let best = '';
	for (const [arena, m] of minutes) if (m > (minutes.get(best) ?? 0)) best = arena;
	return best;
}

/** An address in words: "Hobbs Cafe (cafe)", "Isabella's Apartment (main room: bed)". */
function placeText(address: string): string {
	const [sector, ...rest] = splitAddress(address);
	return rest.length ? `${sector} (${rest.join(': ')})` : sector;
}

// ---------------------------------------------------------------------------
// locations

function homeParts(ctx: AgentContext): [string, string] {
	const [sector, arena] = splitAddress(personaOf(ctx).home);
	return [sector, arena];
}

/** Where the agent sleeps: its bed at home (the home arena when it knows no bed there). */
function bedAddress(ctx: AgentContext): string {
	const [homeSector, homeArena] = homeParts(ctx);
	const objects = ctx.agent.spatial[homeSector]?.[homeArena] ?? [];
	const bed = objects.find((o) => /\bbed\b/i.test(o));
	return bed ? `${homeSector}:${homeArena}:${bed}` : `${homeSector}:${homeArena}`;
}

/**
 * Walks the agent's own environment tree: sector, arena, object, each chosen by the model.
 * Asleep (a sleep block of the plan), the agent goes to its bed at home.
 */
export async function chooseLocation(ctx: AgentContext, activity: string, sleeping = false): Promise<string> {
	const a = ctx.agent;
	const [homeSector] = homeParts(ctx);
	if (sleeping) return bedAddress(ctx);
	const memoKey = `${activity}|${a.spatialVersion}`;
	const remembered = ctx.memoGet('place', memoKey);
	if (remembered !== undefined) return remembered;

	const index = ctx.sim.index;
	const here = splitAddress(index.addressOf(a.tile));
	const sectors = Object.keys(a.spatial).sort();
	const pickSector = sectors.length === 1 ? sectors[0] : (
		await ctx.ask<{ choice: string }>(
			'choose_sector',
			{ name: a.name, activity, current: here[0] ?? homeSector, home: homeSector, options: sectors },
			'location: sector'
		)
	).value.choice;
	const sector = sectors.includes(pickSector) ? pickSector : sectors.includes(here[0]) ? here[0] : homeSector;
	const arenas = Object.keys(a.spatial[sector] ?? {}).sort();
	if (arenas.length === 0) return '';
	const currentArena = here[0] === sector ? here[1] : arenas[0];
	const pickArena = arenas.length === 1 ? arenas[0] : (
		await ctx.ask<{ choice: string }>(
			'choose_arena',
			{ name: a.name, activity, sector, current: currentArena ?? '', options: arenas },
			'location: arena'
		)
	).value.choice;
	const arena = arenas.includes(pickArena) ? pickArena : arenas.includes(currentArena) ? currentArena : arenas[0];
	const objects = [...(a.spatial[sector]?.[arena] ?? [])].sort();
	let address = `${sector}:${arena}`;
	if (objects.length > 0) {
		const pickObject = objects.length === 1 ? objects[0] : (
			await ctx.ask<{ choice: string }>(
				'choose_object',
				{ name: a.name, activity, arena: `${sector}:${arena}`, options: objects, states: seenStatesIn(a, `${sector}:${arena}`, objects) },
				'location: object'
			)
		).value.choice;
		if (objects.includes(pickObject)) address = `${sector}:${arena}:${pickObject}`;
	}
	ctx.memoSet('place', memoKey, address);
	return address;
}

/**
 * The states the agent last saw the objects of an arena in, where they were not as usual
 * ("stove: burning"), for the prompt that picks one of them: its knowledge, stale or not.
 */
export function seenStatesIn(a: AgentState, arena: string, objects: readonly string[]): string[] {
	const seen = a.seenStates;
	if (!seen) return [];
	return objects.flatMap((o) => {
		const address = `${arena}:${o}`;
		return Object.hasOwn(seen, address) ? [`${o}: ${seen[address]}`] : [];
	});
}

/** A walkable tile to stand on for an address: the object's access tiles or the arena's floor. */
export function targetTile(ctx: AgentContext, address: string): number | null {
	const index = ctx.sim.index;
	const parts = splitAddress(address);
	const entry = index.arena(`${parts[0]}:${parts[1]}`);
	if (!entry) return null;
	const object = parts.length > 2 ? index.objects.get(address)?.object : undefined;
	const choices = object && object.access.length > 0 ? object.access : entry.arena.walkable;
	if (choices.length === 0) return null;
	if (choices.includes(ctx.agent.tile)) return ctx.agent.tile;
	// Nearest few by straight distance, one of them by the seeded draw: agents spread out.
	const [ax, ay] = index.xy(ctx.agent.tile);
	const ranked = [...choices]
		.map((t) => {
			const [x, y] = index.xy(t);
			return { t, d: Math.abs(x - ax) + Math.abs(y - ay) };
		})
		.sort((p, q) => p.d - q.d || p.t - q.t)
		.slice(0, object ? 3 : 8);
	return ranked[Math.floor(ctx.rng('target')() * ranked.length)].t;
}

// ---------------------------------------------------------------------------
// acting

async function emojiFor(ctx: AgentContext, activity: string): Promise<string> {
	const remembered = ctx.memoGet('emoji', activity);
	if (remembered !== undefined) return remembered;
	const answer = await ctx.ask<{ emoji: string }>('action_emoji', { activity }, 'action: emoji');
	const emoji = answer.value.emoji?.trim() || '🙂';
	if (!answer.failsafe) ctx.memoSet('emoji', activity, emoji);
	return emoji;
}

async function objectStateFor(ctx: AgentContext, activity: string, object: string): Promise<string> {
	const key = `${activity}|${object}`;
	const remembered = ctx.memoGet('objectState', key);
	if (remembered !== undefined) return remembered;
	const answer = await ctx.ask<{ state: string }>(
		'object_state',
		{ name: ctx.name, activity, object },
		'action: object state'
	);
	const state = answer.value.state?.trim() || 'in use';
	if (!answer.failsafe) ctx.memoSet('objectState', key, state);
	return state;
}

interface Due {
	activity: string;
	end: number;
	planRef: string;
	/** the plan has the agent asleep (a sleep block, or before waking) */
	sleeping: boolean;
	/** already resolved place, emoji and object state, when the plan has them */
	resolved?: Subtask;
}

export interface Resolved {
	address: string;
	emoji: string;
	objectState: string;
}

/** Where an activity happens (tree walk), how it shows (emoji) and what it does to an object. */
async function resolveAction(ctx: AgentContext, activity: string, sleeping = false): Promise<Resolved> {
	return shown(ctx, activity, await chooseLocation(ctx, activity, sleeping));
}

/** How an activity at `address` shows (emoji) and what it does to the object there, asked side by side. */
export async function shown(ctx: AgentContext, activity: string, address: string): Promise<Resolved> {
	const parts = splitAddress(address);
	const [emoji, objectState] = await ctx.fanOut(['e', 'o'], (b, i) =>
		i === 0 ? emojiFor(b, activity) : parts.length > 2 ? objectStateFor(b, activity, parts[2]) : Promise.resolve('')
	);
	return { address, emoji, objectState };
}

/**
 * What the plan says the agent should be doing at game time `now`, or the hour block that has
 * to be decomposed first.
 */
function duePlanned(plan: DayPlan | null, now: number): Due | { decompose: PlanBlock } {
	const minute = minuteOfDay(now);
	const base = dayStart(now);
	if (!plan || plan.blocks.length === 0) {
		return { activity: 'idle', end: now + 15 * MINUTE, planRef: '', sleeping: false };
	}
	if (minute < plan.wakeMinute) {
		return { activity: 'sleeping', end: base + plan.wakeMinute * MINUTE, planRef: 'wake', sleeping: true };
	}
	const bi = findBlock(plan, minute);
	const block = plan.blocks[bi];
	const blockEnd = base + (block.start + block.minutes) * MINUTE;
	// A sleep block is one action, in bed, to the block's end (a nap) or to midnight (the night).
	if (block.sleep) return { activity: block.activity, end: blockEnd, planRef: `${bi}`, sleeping: true };
	const subtasks = block.subtasks;
	if (!subtasks) return { decompose: block };
	let start = block.start;
	for (let si = 0; si < subtasks.length; si++) {
		const end = start + subtasks[si].minutes;
		if (minute < end || si === subtasks.length - 1) {
			return { activity: subtasks[si].activity, end: base + end * MINUTE, planRef: `${bi}.${si}`, sleeping: false, resolved: subtasks[si] };
		}
		start = end;
	}
	return { activity: block.activity, end: blockEnd, planRef: `${bi}`, sleeping: false };
}

/** What the plan says the agent should be doing now, decomposing the hour block when needed. */
async function dueActivity(ctx: AgentContext): Promise<Due> {
	const due = duePlanned(ctx.agent.plan, ctx.now);
	if (!('decompose' in due)) return due;
	await decompose(ctx, due.decompose);
	return duePlanned(ctx.agent.plan, ctx.now) as Due;
}

function findBlock(plan: DayPlan, minute: number): number {
	let found = 0;
	plan.blocks.forEach((b, i) => {
		if (b.start <= minute) found = i;
	});
	return found;
}

/** The plan reference of actions chosen from moment to moment (without planning). */
const MOMENT = 'moment';

/**
 * Without planning (the `planning` ablation) the agent acts from moment to moment: when its
 * action ends it chooses the next one from its summary description, the time, where it is,
 * what it was doing, what it has perceived lately and what it has just decided to do (a
 * reaction or an inner voice), with no plan for the day. An awake action lasts 5-60 minutes;
 * sleep, as long as the model says (at most 12 hours), in bed at home, after which it chooses
 * again.
 */
async function momentDue(ctx: AgentContext): Promise<Due> {
	const a = ctx.agent;
	const intention = a.intention ?? '';
	delete a.intention;
	const here = ctx.sim.index.addressOf(a.tile);
	const answer = await ctx.ask<{ activity: string; minutes: number; sleep: boolean }>(
		'next_action',
		{
			name: a.name,
			summary: await identity(ctx),
			time: formatDateTime(ctx.now),
			place: here ? placeText(here) : 'outdoors',
			previous: a.action.activity || 'idle',
			perceived: [...a.recentEvents],
			intention
		},
		'action: the next one, without a plan'
	);
	const sleeping = answer.value.sleep === true;
	const activity = (typeof answer.value.activity === 'string' ? answer.value.activity.trim() : '') || (sleeping ? 'sleeping' : 'resting');
	const raw = Number(answer.value.minutes);
	const minutes = Math.min(sleeping ? 720 : 60, Math.max(5, Number.isFinite(raw) ? Math.round(raw) : 15));
	return { activity, end: ctx.now + minutes * MINUTE, planRef: MOMENT, sleeping };
}

/** Starts the next action: where (tree walk), how it shows (emoji), what it does to an object. */
export async function nextAction(ctx: AgentContext, stepMs: number): Promise<void> {
	const a = ctx.agent;
	const due = ctx.state.ablate.planning ? await momentDue(ctx) : await dueActivity(ctx);
	const continuing = continues(a, due);
	const r = due.resolved;
	const mundane = due.sleeping ? ctx.state.settings.importance.mundane || undefined : undefined;
	const memory: NewMemory = { kind: 'observation', description: eventOf({ name: a.name, action: due }), importance: mundane };
	// the action is remembered as it begins: its rating is asked beside the calls that resolve it
	if (!continuing && r?.emoji === undefined) ctx.rateSoon([memory]);
	let resolved: Resolved;
	if (continuing) resolved = a.action;
	else if (r?.address === undefined) resolved = await resolveAction(ctx, due.activity, due.sleeping);
	else if (r.emoji !== undefined) resolved = { address: r.address, emoji: r.emoji, objectState: r.objectState ?? '' };
	else {
		// a planned step's emoji and object state are asked as it begins (the plan keeps them)
		resolved = await shown(ctx, due.activity, r.address);
		r.emoji = resolved.emoji;
		r.objectState = resolved.objectState;
	}
	a.action = actionOf(ctx, due, resolved, stepMs);
	if (!continuing) await ctx.memorize([memory], { defer: true, background: true });
}

/**
 * The action `nextAction` would start at the context's time, when the plan already holds
 * everything it needs or `shownAhead` knows the emoji and object state of a planned step (no
 * model call); null when it would ask the model.
 */
export function foreseeAction(ctx: AgentContext, stepMs: number, shownAhead?: (activity: string, address: string) => Resolved | undefined): ActionState | null {
	const a = ctx.agent;
	// without planning, every next action is the model's choice of the moment
	if (ctx.state.ablate.planning) return null;
	const due = duePlanned(a.plan, ctx.now);
	if ('decompose' in due) return null;
	const r = due.resolved;
	if (continues(a, due)) return actionOf(ctx, due, a.action, stepMs);
	if (r?.address === undefined) return null;
	const show = r.emoji !== undefined ? { address: r.address, emoji: r.emoji, objectState: r.objectState ?? '' } : shownAhead?.(due.activity, r.address);
	return show ? actionOf(ctx, due, show, stepMs) : null;
}

/** Whether the due activity is the one the agent is doing (sleep goes on across midnight). */
function continues(a: AgentState, due: Due): boolean {
	const stillAsleep = due.sleeping && isSleeping(a) && a.action.address !== '';
	return stillAsleep || (due.planRef !== '' && due.planRef === a.action.planRef && due.activity === a.action.activity);
}

function actionOf(ctx: AgentContext, due: Due, { address, emoji, objectState }: Resolved, stepMs: number): ActionState {
	const a = ctx.agent;
	const goal = address ? targetTile(ctx, address) : null;
	return {
		activity: due.activity,
		emoji,
		address,
		object: splitAddress(address).length > 2 ? address : '',
		objectState,
		start: ctx.now,
		end: Math.max(due.end, ctx.now + stepMs),
		path: goal === null ? [] : (ctx.sim.pathfinder.find(a.tile, goal) ?? []),
		chatWith: '',
		planRef: due.planRef,
		sleeping: due.sleeping
	};
}

// ---------------------------------------------------------------------------
// reacting

export interface ReactDecision {
	talk: boolean;
	reaction: string;
}

/** What the agent knows of `otherName`, summarized from two retrievals; `recalled` is told when both are done. */
async function relationship(ctx: AgentContext, otherName: string, about: string, purpose: 'reaction' | 'conversation', recalled?: () => void): Promise<string> {
	const seen = new Set<string>();
	const memories: string[] = [];
	const queries = [`${ctx.name}'s relationship with ${otherName}`, about];
	const k = retrievalK(ctx, purpose);
	for (const q of queries) {
		for (const m of await ctx.retrieve(q, purpose, k)) {
			if (!seen.has(m.id)) {
				seen.add(m.id);
				memories.push(m.description);
			}
		}
	}
	recalled?.();
	if (memories.length === 0) return `${ctx.name} does not know ${otherName}.`;
	const answer = await ctx.ask<{ summary: string }>(
		'context_summary',
		{ name: ctx.name, other: otherName, memories },
		`${purpose}: relationship summary`
	);
	return answer.value.summary?.trim() || memories.slice(0, 3).join(' ');
}

/**
 * Whether a perceived event calls for a reaction decision (no model call): an agent seen
 * afresh who is awake, not chatting and not met within the cooldowns, or an object in a state
 * the agent has not judged yet (each state of an object is judged once; `judged` remembers the
 * last one). Returns the reaction under way, decided at `commitStep`, or null.
 */
export function noticeReaction(ctx: AgentContext, e: PerceivedEvent, commitStep: number): ReactingState | null {
	const a = ctx.agent;
	let hoursSinceChat = 999;
	if (e.object !== undefined) {
		if (e.objectState === undefined) return null;
		const judged = (a.judged ??= {});
		if (judged[e.object] === e.objectState) return null;
		judged[e.object] = e.objectState;
	} else {
		if (!e.agent || !e.agentName || e.sleeping || e.chatting) return null;
		const cooldown = ctx.state.settings.conversation.cooldownMinutes * MINUTE;
		const lastChat = a.lastChat[e.agent];
		if (lastChat !== undefined && ctx.now - lastChat < cooldown) return null;
		const lastReact = a.lastReact[e.agent];
		if (lastReact !== undefined && ctx.now - lastReact < cooldown / 2) return null;
		a.lastReact[e.agent] = ctx.now;
		hoursSinceChat = Math.min(999, ctx.hoursSince(lastChat));
	}
	return {
		description: e.description,
		...(e.agent !== undefined && { agent: e.agent, agentName: e.agentName, activity: e.activity ?? '' }),
		...(e.object !== undefined && { object: e.object, objectName: e.objectName ?? splitAddress(e.object).at(-1) ?? e.object, objectState: e.objectState }),
		step: ctx.state.step,
		time: ctx.now,
		commitStep,
		status: a.action.activity,
		recall: ctx.stream.size,
		hoursSinceChat
	};
}

/**
 * The paper's reaction prompt about what the agent noticed: continue, react (re-plan) or, for
 * an agent, talk. Asked from what the agent knew when it noticed (see ReactingState); the
 * memories it recalls count as accessed now. Null when the model failed (the agent continues).
 * The decision is asked once `ready` has settled (work ahead waiting for an earlier decision).
 */
export async function decideReaction(ctx: AgentContext, r: ReactingState, recalled?: () => void, ready?: Promise<unknown>): Promise<ReactDecision | null> {
	const scope = { size: r.recall, at: r.time, touched: [] as number[] };
	// decided when noticed (the paper), its retrievals are as any other; decided later, they
	// recall what the agent knew when it noticed, and count as accessed once it is decided
	const then = r.time === ctx.now && r.recall === ctx.stream.size ? ctx.branch('r') : ctx.recalling(scope, 'r');
	const other = r.agentName ?? `the ${r.objectName ?? r.object}`;
	const touch = () => ctx.stream.touch([...new Set(scope.touched)], ctx.now);
	// foreseen, the stream is as the decision leaves it once its retrievals are done (the
	// decision reads no memory after them): `recalled` may go on from it if the agent goes on
	const context = await relationship(then, other, r.description, 'reaction', () => {
		if (!ctx.foreseen) return;
		touch();
		recalled?.();
	});
	await ready;
	const answer = await then.ask<{ react: boolean; talk: boolean; reaction: string }>(
		'react',
		{
			name: ctx.name,
			summary: await identity(then),
			time: formatDateTime(r.time),
			status: r.status,
			observation: r.description,
			other: r.agentName ?? '',
			other_status: r.activity ?? '',
			context,
			hours_since_chat: r.hoursSinceChat
		},
		r.agent ? 'reaction: continue, react or talk' : 'reaction: continue or react to an object'
	);
	if (!ctx.speculative) touch();
	if (answer.failsafe) return null;
	const reaction = answer.value.react === true && typeof answer.value.reaction === 'string' ? answer.value.reaction.trim() : '';
	return { talk: r.agent !== undefined && answer.value.talk === true, reaction };
}

// ---------------------------------------------------------------------------
// dialogue

/**
 * A conversation's lines: the relationship summaries and what each speaker has on its mind,
 * then turn after turn until one ends it or `conversation.maxTurns` is reached. The contexts
 * recall only what the speakers knew when it began (see TalkState), so the same conversation
 * asks the same prompts whenever it is made. No line is asked once `goOn` says no (work ahead
 * whose premise has passed).
 */
export async function talk(
	ctxA: AgentContext,
	ctxB: AgentContext,
	{ address, doing }: Pick<TalkState, 'address' | 'doing'>,
	goOn: () => boolean = () => true
): Promise<{ lines: { speaker: string; text: string }[]; history: string[] }> {
	const A = ctxA.agent;
	const B = ctxB.agent;
	// what each was doing when the other saw it (an older snapshot's conversation: its action)
	const seen = (x: AgentState) => doing?.[x.id] ?? x.action.activity;
	// What each speaker has on its mind (its salient news and plans), retrieved once per
	// conversation when `retrieval.k.onMind` is above 0 (not in the paper's flow).
	const onMind = async (ctx: AgentContext, me: AgentState) => {
		const k = retrievalK(ctx, 'onMind');
		return k > 0 ? ctx.retrieve(`${me.name}'s news, plans and intentions`, 'conversation: what is on my mind', k) : [];
	};
	const [[relA, onMindA], [relB, onMindB]] = await Promise.all([
		(async () => [await relationship(ctxA, B.name, `${B.name} is ${seen(B)}`, 'conversation'), await onMind(ctxA, A)] as const)(),
		(async () => [await relationship(ctxB, A.name, `${A.name} is ${seen(A)}`, 'conversation'), await onMind(ctxB, B)] as const)()
	]);
	const maxLines = ctxA.state.settings.conversation.maxTurns * 2;
	const lines: { speaker: string; text: string }[] = [];
	const history: string[] = [];
	for (let turn = 0; turn < maxLines; turn++) {
		const [me, other, rel, onMind] = turn % 2 === 0 ? [ctxA, B, relA, onMindA] : [ctxB, A, relB, onMindB];
		const last = lines.at(-1)?.text ?? `${other.name}`;
		const relevant = await me.retrieve(last, 'conversation: what to say', retrievalK(me, 'dialogue'));
		const memories = [...new Map([...onMind, ...relevant].map((m) => [m.id, m])).values()];
		const summary = await identity(me);
		if (!goOn()) break;
		const answer = await me.ask<{ utterance: string; end: boolean }>(
			'dialogue_turn',
			{
				name: me.name,
				summary,
				other: other.name,
				relationship: rel,
				place: address,
				time: formatDateTime(me.recall?.at ?? me.now),
				memories: memories.map((m) => m.description),
				history
			},
			'conversation: next line'
		);
		const text = answer.value.utterance?.trim() ?? '';
		if (!text) break;
		lines.push({ speaker: me.agent.id, text });
		history.push(`${me.name}: ${text}`);
		if (answer.value.end && lines.length >= 2) break;
	}
	return { lines, history };
}

/** What each speaker remembers of a conversation (both asked at once; per speaker, the memories); stored unless speculative. */
export async function rememberTalk(ctxA: AgentContext, ctxB: AgentContext, history: string[]): Promise<NewMemory[][]> {
	return Promise.all(
		([[ctxA, ctxB.agent], [ctxB, ctxA.agent]] as const).map(async ([me, other]) => {
			const memo = await me.ask<{ summary: string; plan_note: string }>(
				'conversation_memo',
				{ name: me.name, other: other.name, transcript: history },
				'conversation: what to remember'
			);
			const summary = memo.value.summary?.trim() || `${me.name} talked with ${other.name}`;
			const items: Parameters<AgentContext['memorize']>[0] = [{ kind: 'conversation', description: summary, with: other.id }];
			const note = memo.value.plan_note?.trim();
			if (note) items.push({ kind: 'thought', source: 'conversation', description: note, with: other.id });
			// rated with the agent's next batch, like what it observes: the conversation's end
			// waits for no rating
			await me.memorize(items, { defer: true });
			return items;
		})
	);
}

/** The two agents' action while a conversation `id` goes on, until game time `end`. */
export function chatAction(agent: AgentState, other: AgentState, id: string, now: number, end: number): ActionState {
	return {
		...agent.action,
		activity: `chatting with ${other.name}`,
		emoji: '💬',
		start: now,
		end,
		path: [],
		chatWith: other.id,
		object: '',
		objectState: '',
		// Re-derive the plan item when the chat ends.
		planRef: `chat:${id}`,
		sleeping: false
	};
}

// ---------------------------------------------------------------------------
// reflection

/** Questions over the 100 most recent memories, retrieval per question, insights citing evidence. */
export async function reflect(ctx: AgentContext): Promise<MemoryRecord[]> {
	const a = ctx.agent;
	a.importanceSinceReflection = 0;
	const recent = ctx.stream.recent(100, ctx.hiddenMemories());
	if (recent.length === 0) return [];
	const qs = await ctx.ask<{ questions: string[] }>(
		'reflection_questions',
		{ name: a.name, memories: recent.map((m) => m.description) },
		'reflection: salient questions'
	);
	if (qs.failsafe) return [];
	// As the reference implementation does: the evidence for every question is retrieved first,
	// then the questions are answered side by side, and the insights stored together.
	const questions = (qs.value.questions ?? []).slice(0, 3).filter((q) => typeof q === 'string' && q.trim() !== '');
	const asked: { question: string; evidence: MemoryRecord[] }[] = [];
	for (const question of questions) {
		const evidence = await ctx.retrieve(question, 'reflection: evidence');
		if (evidence.length > 0) asked.push({ question, evidence });
	}
	const answers = await ctx.fanOut(
		asked.map(() => 'q'),
		(b, i) =>
			b.ask<{ insights: { insight: string; evidence: number[] }[] }>(
				'reflection_insights',
				{ name: a.name, question: asked[i].question, memories: asked[i].evidence.map((m) => m.description) },
				'reflection: insights'
			)
	);
	// one insight is stored once
	const known = new Set(ctx.stream.recent(100).filter((m) => m.kind === 'reflection').map((m) => m.description));
	const items = answers.flatMap((answer, i) => {
		if (answer.failsafe) return [];
		const { evidence } = asked[i];
		return (answer.value.insights ?? []).slice(0, 5).flatMap((ins) => {
			const text = ins?.insight?.trim();
			if (!text || known.has(text)) return [];
			known.add(text);
			const cited = (ins.evidence ?? [])
				.filter((n) => Number.isInteger(n) && n >= 1 && n <= evidence.length)
				.map((n) => evidence[n - 1].id);
			return [{ kind: 'reflection' as const, description: text, evidence: [...new Set(cited)] }];
		});
	});
	// storing them stores what was waiting too: the reflection lists only its own
	const created = items.length > 0 ? (await ctx.memorize(items)).filter((m) => m.kind === 'reflection') : [];
	if (created.length > 0) ctx.out.events.push({ kind: 'reflection', agent: a.id, memories: created.map((m) => m.id) });
	return created;
}

// ---------------------------------------------------------------------------
// user questions

export async function interview(ctx: AgentContext, interviewer: string, question: string): Promise<{ answer: string; memories: MemoryRecord[] }> {
	const memories = await ctx.retrieve(question, 'interview');
	const answer = await ctx.ask<{ answer: string }>(
		'interview',
		{
			name: ctx.name,
			summary: await identity(ctx),
			interviewer,
			question,
			time: formatDateTime(ctx.now),
			memories: memories.map((m) => m.description)
		},
		'interview'
	);
	return { answer: answer.value.answer?.trim() ?? '', memories };
}

export async function innerVoice(ctx: AgentContext, directive: string): Promise<void> {
	const answer = await ctx.ask<{ thought: string }>(
		'inner_voice',
		{ name: ctx.name, summary: await identity(ctx), directive },
		'inner voice'
	);
	const thought = answer.value.thought?.trim() || directive;
	await ctx.memorize([{ kind: 'thought', source: 'inner-voice', description: thought }]);
	ctx.agent.replan = thought;
}
